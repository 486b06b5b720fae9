// Package tools gives the model its skill tools in a framework-neutral form:
// a [Tool] is a name, a description, a JSON Schema for its arguments and an
// Invoke function, which any agent framework (OpenAI, Anthropic, MCP, a
// host's own loop) can adapt in a few lines.
//
// The tools are read_skill (a skill's instructions, see package prompt),
// read_skill_file (one file of a skill, confined to the skill folder),
// search_skills (ranked search over the skills an agent sees, offered when
// its catalog must leave skills out; package search), execute_skill (runs
// a compute-entry skill through package executor) and
// skill_manage (the model creates, edits and deletes skills of its own
// through a [Manager], the installer: SKILL.md and files under references/,
// templates/, scripts/ and assets/ only, never a config, dependencies or a
// setup script, so nothing it writes is run by skillkit; it cannot change
// skills a person installed, nor shadow another source's skill).
//
// Every Invoke validates its arguments against its own schema, compiled once,
// and reports every problem at once. A mistake of the model (an unknown
// skill, a path outside the skill, invalid arguments) is a [Result] with
// IsError set and a message the model can act on; a Go error is for the host
// (an I/O failure, a cancelled context).
//
// What every framework adapter shares lives here, so that the adapters
// (modules under adapters/, see docs/adapters.md) stay thin: a [Set] checks
// tools against a framework's name rules and answers calls by name, the
// model's mistakes as results; [Result.ModelText] renders a mistake as text
// for frameworks whose tool results have no error flag; each [Tool] carries
// hints (ReadOnly, Destructive, OpenWorld, NeedsConfirmation) that adapters
// map to their framework's annotations, and a host marks the tools whose
// calls the user confirms with [RequireConfirmation]. [SkillTools] offers
// each compute skill as a tool of its own, with the skill's input schema.
//
// [Resolver.Resolve] builds everything one agent gets ([Toolset]): the
// <available_skills> prompt section for the skills it sees (its assignment,
// its tools and toolsets against the skills' conditions, the registry's
// enabled flags), read_skill and read_skill_file over the skills it may read
// (hidden skills too, by name), execute_skill when one of them is a runnable
// compute-entry skill, skill_manage when the host gives a [Manager], and
// warnings for whoever configures the agent. An agent that
// may read no skill gets no prompt and no skill tools, except skill_manage;
// one whose skills are all hidden gets no prompt but still read_skill and
// read_skill_file, to load them by name. With a usage.Store
// (Resolver.Usage), every call of read_skill, read_skill_file and
// execute_skill counts one use of its skill, and a catalog that must leave
// skills out keeps the used ones ([UsagePriority]); docs/tools.md.
package tools

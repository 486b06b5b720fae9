// Package mcptools serves skillkit's framework-neutral tools ([tools.Tool])
// over the Model Context Protocol with the official Go SDK
// (github.com/modelcontextprotocol/go-sdk). Import it as
// github.com/skillkit-go/skillkit/adapters/mcp; it is a module of its own,
// so the core skillkit module depends on no MCP SDK.
//
// Each tool becomes one MCP tool:
//
//   - name and description as they are; the input schema passed through
//     unchanged, as the same JSON value (it must be a JSON object whose
//     "type" is "object", as MCP requires).
//   - annotations from the tool's hints ([Annotations]): readOnlyHint from
//     ReadOnly, destructiveHint from Destructive, openWorldHint from
//     OpenWorld. The last two are always sent, because MCP takes an absent
//     one for true: read_skill is read-only, skill_manage destructive,
//     execute_skill open-world.
//   - NeedsConfirmation has no MCP hint, so the server has each call
//     confirmed before it runs: by default it asks the client's user with an
//     elicitation input request (MCP's multi round-trip requests; the SDK's
//     client answers it and calls again), and only "accept" runs the tool.
//     A client that cannot elicit gets an isError result instead of a call
//     nobody confirmed. [Options.Confirm] asks on the server's side instead.
//   - tools/call hands the raw arguments to [tools.Set.Call] (absent or
//     null arguments become {}); the tool validates them against its schema.
//   - [tools.Result.Text] becomes one text content block,
//     [tools.Result.Structured] the structuredContent when present, and
//     [tools.Result.IsError] the isError flag: the model sees its mistake
//     (an unknown skill, invalid input) and can correct it.
//   - A Go error from the tool (an I/O failure, a cancelled request) is a
//     protocol-level JSON-RPC error for the client, not something the model
//     is asked to fix. So is a result whose Structured is not valid JSON.
//
// [Add] checks every tool before it registers any, so a bad tool is an
// error, never a panic inside the SDK and never a half-registered set.
//
// # Skills
//
// [NewSkillsServer] (or [DeclareSkills] then [AddSkills]) also serves the
// skills themselves through MCP's Skills extension
// (io.modelcontextprotocol/skills, SEP-2640; the sections named are those
// of its specification, specification/stable/skills.mdx in
// modelcontextprotocol/ext-skills): the extension in the capabilities
// (Capability Negotiation), skills/list with pages (Listing Skills),
// skills/get (Getting a Skill), and every served file under
// skill://NAME/PATH through resources/read (Resource Mapping, Reading
// Skill Content), with entries whose digests and sizes are those of the
// bytes served (Skill Entries). Which skills: those a [SkillSource]
// returns, usually what one agent may read ([KitSkills]); infrastructure
// files and secrets are never served. resources/directory/read, optional,
// is not. The program cmd/skillkit-mcp serves a skills folder's tools and
// skills over stdio; docs/mcp-skills.md describes both sides.
package mcptools

// Package prompt renders what the model sees of skills: the
// <available_skills> catalog for the system prompt (progressive disclosure
// level 1) and the answer of read_skill for one skill (level 2).
//
// # Catalog
//
// [Catalog] lists skills in one of two formats: the seed's (the default;
// each skill's type, category, description, how to use it, and for
// compute-entry skills a one-line input summary, so the model can call
// execute_skill without reading the skill first) or the Agent Skills
// standard's (name, description, location — the layout pi-mono and OpenClaw
// emit). Guidance text precedes the list: read a skill before using it, and
// read its required references first (seed 000 §5.6). The texts ship in
// English and Chinese; a host can replace any sentence through [Texts].
//
// Every value is XML-escaped (& < > " '). The output depends only on the
// input. With no visible skill the result is empty: no guidance and no empty
// element, as the Agent Skills client guide asks. Hidden skills
// (disable-model-invocation) are never listed.
//
// The catalog has a budget (30,000 characters by default, counted as
// characters, guidance included). Over budget, descriptions are dropped (the
// compact form); still over, skills are dropped from the end, the catalog
// says how many were left out, and each omitted skill gets a PROMPT_TRUNCATED
// diagnostic. Nothing is cut silently.
//
// # Activation
//
// [Activate] returns a skill's instructions inside <skill_content>, without
// frontmatter, followed by the skill folder (optional), the references the
// model must read (<skill_required_references>), those it may read
// (<skill_optional_references>) and the other files (<skill_resources>,
// capped). Given the task at hand, references.routes whose keywords occur in
// it add their references to the required ones and include their content
// directly, each and all together capped (seed 000 §10.10), so the model
// needs no second call.
package prompt

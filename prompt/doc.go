// Package prompt renders what the model sees of skills: the
// <available_skills> catalog for the system prompt (progressive disclosure
// level 1) and the answer of read_skill for one skill (level 2).
//
// # Catalog
//
// [Catalog] lists skills in one of two formats: skillkit's own
// ([FormatSkillkit], the default: each skill's type, category, description,
// how to use it, and for compute-entry skills a one-line input summary, so
// the model can call execute_skill without reading the skill first) or the
// Agent Skills standard's ([FormatAgentSkills]: name, description, location
// — the layout pi-mono and OpenClaw emit). Guidance text precedes the list:
// read a skill before using it, and read its required references first. The
// texts ship in English and Chinese; a host can replace any sentence through
// [Texts].
//
// Every value is XML-escaped (& < > " '). The output depends only on the
// input. With no visible skill the result is empty: no guidance and no empty
// element, as the Agent Skills client guide asks. Hidden skills
// (disable-model-invocation) are never listed.
//
// The catalog has a budget (30,000 characters by default, counted as
// characters, guidance included). Over budget it degrades step by step,
// taking each step only when the one before does not fit:
//
//   - shortened ([CompactionShortened]): the longest descriptions are cut to
//     an even share of the room left for descriptions (the largest share
//     that fits; shorter descriptions stay whole), each at the end of a
//     sentence when that keeps at least half of the share, else at the end
//     of a word, else mid-word; a cut inside a sentence ends in "…"; an XML
//     entity is never split;
//   - names only ([CompactionNamesOnly]): when even a share of
//     [MinDescriptionChars] does not fit, descriptions are left out;
//   - skills left out: only then are skills dropped from the end, and the
//     catalog says how many.
//
// No skill is dropped while a description could still be shortened. Every
// step is said twice: to the model, by a sentence after the guidance
// ([Texts].Shortened, [Texts].NamesOnly, [Texts].Truncated), and to the
// host, by the result's Compaction, Shortened and Omitted and by one
// PROMPT_COMPACTED and one PROMPT_TRUNCATED diagnostic. Nothing is cut
// silently.
//
// The cost follows what is listed: each entry is rendered once per form the
// choice needs, the cut is found from the pieces' lengths (a binary search
// over the share, each probe a sum over the entries), and the text is
// written once. When not every name fits, only the names that fit are
// rendered.
//
// # Activation
//
// [Activate] returns a skill's instructions inside <skill_content>, without
// frontmatter, followed by the skill folder (optional), the references the
// model must read (<skill_required_references>), those it may read
// (<skill_optional_references>) and the other files (<skill_resources>,
// capped). Given the task at hand, references.routes whose keywords it names
// add their references to the required ones and include their content
// directly, each and all together capped, so the model
// needs no second call. A keyword matches regardless of case and width; in
// a script that separates words with spaces it matches whole words only
// ("new" never matches "renew", "edit" never "credit"); a keyword holding
// CJK characters matches anywhere, since those scripts do not separate
// words. Activation first plans (what is required, which routes matched,
// what may be included, what is listed), then reads what the plan includes,
// cuts it to the caps and writes the answer.
package prompt

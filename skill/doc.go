// Package skill is the skill model: it reads SKILL.md and skill.config.yaml
// into one [Skill], whatever dialect the skill was written in, and says what
// is wrong with it as diagnostics. It is pure: it reads bytes or an [io/fs.FS]
// and never runs anything.
//
// # SKILL.md
//
//   - The skill file is SKILL.md; another spelling of it (skill.md, Skill.md,
//     SKILL.MD, ...) is read with SKILL_FILE_LOWERCASE (info), and a second
//     spelling beside the one read is named as ignored. A skill file deeper
//     in the folder is a nested skill: it stays one of the outer skill's
//     files and is named in a NESTED_SKILL diagnostic (info).
//   - A UTF-8 byte order mark is ignored, with BYTE_ORDER_MARK (info), and
//     CRLF line ends are read as LF.
//   - The frontmatter opens on the first line, which must be "---", and closes
//     at the first later line that is exactly "---" (trailing blanks allowed).
//     The body is the rest; "---" lines in the body are Markdown rules.
//   - The frontmatter is YAML (gopkg.in/yaml.v3) read through yaml.Node:
//     scalars keep their source text ("version: 1.0" stays "1.0", "yes" stays
//     "yes"), metadata keeps nested maps and lists, duplicate keys are
//     reported (the last value wins), aliases are followed within a budget.
//   - When the YAML does not parse because a plain value holds ": "
//     ("description: Use when: the user asks") or tabs indent it, the value is
//     turned into a block scalar or the tabs into spaces and the YAML is read
//     again; a skill read this way gets FRONTMATTER_RECOVERED.
//   - When the YAML still does not parse, lenient mode reads it one
//     top-level field at a time (a field is a line opening with a key at the
//     first column and the lines after it that do not): the fields that
//     parse are kept, each broken one is left out with a FRONTMATTER_RECOVERED
//     warning naming it and its line (the first 20 by name), and the skill
//     loads when a description is read and its name is not among the broken
//     fields. Strict mode reports the file FRONTMATTER_INVALID.
//   - A YAML error names the file's own line (detail "line", shown as
//     path:line:): the line of the top-level field that does not parse.
//   - One [Frontmatter] serves every dialect: the six standard fields, Claude
//     Code's disable-model-invocation, user-invocable and when_to_use,
//     skillkit's version and metadata fields, OpenClaw's metadata.openclaw
//     (also as a JSON string), and Hermes' author, platforms, prerequisites,
//     required_environment_variables and metadata.hermes. docs/dialects.md
//     has the full table.
//
// # Rules
//
// Names: 1-64 characters after NFKC, a-z, 0-9 and hyphens, no leading,
// trailing or double hyphen, equal to the folder name after NFKC. Names with
// "anthropic" or "claude" warn (NAME_RESERVED). Descriptions: required, at most
// 1024 characters, and an XML-like tag warns (DESC_HAS_XML). Compatibility: at
// most 500 characters. Lengths count characters (runes), never bytes.
//
// allowed-tools is a space-delimited string in the specification; a YAML
// list is read too, with FIELD_INVALID at info level (an error when strict).
//
// Two modes. Lenient (the default) loads whatever a reader can make sense of,
// as the Agent Skills client guide recommends: only unreadable frontmatter, a
// missing description or a file over the size limit skip a skill; everything
// else is a warning or info. Strict ([LoadOptions].Strict) applies the
// specification: only the six standard fields, metadata values must be
// strings, repaired YAML and every rule of the specification are errors. The
// reserved-word and XML-tag rules come from Anthropic's API, not from the
// specification, and stay warnings in both modes.
//
// # skill.config.yaml
//
// [ParseConfig] reads the full schema (docs/skill-config.md): runtime,
// entrypoint, timeout (ms, default 30 s), env, dependencies, setup,
// interface and references. interface.input and interface.output accept a
// compact form (field: {type, required, default, description, enum}) and
// plain JSON Schema; both become one JSON Schema. The class follows: no config is a
// prompt skill, an entrypoint a compute-entry skill, a runtime without an
// entrypoint a compute-toolkit skill. A bad config is CONFIG_PARSE_ERROR: the
// skill stays readable but cannot run. Paths that leave the skill folder are
// invalid.
//
// # References
//
// Required and optional references come from skill.config.yaml, else from
// the frontmatter's metadata.references, else every attached file is
// optional. Attached files exclude [InfraFiles] and [InfraDirs]. A declared reference that does not exist is REFERENCE_MISSING.
//
// # Paths and files
//
// [CheckPath] is the one rule for a path inside a skill, whoever supplies
// it: an archive being installed, an agent writing files, a model reading
// one (after [CleanRelPath]). [IsInfra] says which paths are the skill's
// machinery, at any depth. [Skill.Open] is the one opener of what reaches a
// model: it follows symbolic links only inside the skill ([Skill.Resolve]
// says where they lead), never opens pipes or devices, and refuses
// hard-linked files.
package skill

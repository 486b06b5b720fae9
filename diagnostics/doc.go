// Package diagnostics holds the structured findings skillkit reports about
// skills: a [Diagnostic] has a [Level], a machine-readable [Code], the skill it
// concerns, a human message, the file or folder concerned and free-form detail.
//
// Nothing about a skill is ever dropped silently: a skill is loaded with a
// warning, or skipped with an error diagnostic that says why. A [List] collects
// diagnostics and offers filters (by level, skill and code) and a stable,
// deterministic sort.
//
// Every code has a default level and a documented meaning; see [Codes] and the
// constants below. Levels:
//
//   - error: the skill, or the part of it concerned, cannot be used. A skill
//     with an unreadable frontmatter or no description is skipped; a skill whose
//     skill.config.yaml is broken stays readable but cannot run.
//   - warning: the skill loads, but something is wrong and should be fixed.
//   - info: worth knowing, nothing to fix.
//
// The JSON form uses the keys level, code, skill, message, path and detail,
// with the level spelled "error", "warning" or "info".
package diagnostics

// Package safeyaml reads the YAML of skill files (SKILL.md frontmatter and
// skill.config.yaml) as hostile input: bounded, forgiving where authors
// commonly slip, and exact where they do not.
//
// [Parse] and [ParseMapping] read a document whose root must be a mapping
// into a yaml.Node tree; ParseMapping can retry once on a repaired copy
// ([Repair]: values holding ": " and tab indentation, the two slips real
// skills make most). [Flat] reads the flat frontmatter most skills write
// without the YAML library, into the very tree yaml.v3 builds, and declines
// anything else. [RecoverFields] reads text that is not valid as a whole one
// top-level field at a time, keeping what parses and naming what does not
// ([BrokenField]); [LocateError] names the first field at fault and
// [Message] strips the parser's unreliable line numbers. [Decode] turns a
// tree into Go values, source text kept or YAML 1.2 types resolved, within
// a budget of nodes and levels, so aliases cannot expand without limit;
// [DuplicateKeys] and [Lookup] read the tree.
//
// Nothing here knows what a skill is: package skill turns these trees and
// errors into fields and diagnostics.
package safeyaml

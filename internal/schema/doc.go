// Package schema compiles JSON Schemas and validates JSON documents against
// them, reporting every problem with the JSON pointer of the value concerned
// and why it fails. Tool arguments and compute-skill input and output are
// checked here.
//
// It implements JSON Schema draft 2020-12, which a schema without "$schema"
// is taken to be: every keyword of the core applicator and validation
// vocabularies, including $ref (to a JSON pointer, to an $anchor, or to the
// root's own $id), $defs, if/then/else, dependentSchemas, prefixItems,
// contains with min/maxContains, and unevaluatedProperties/unevaluatedItems.
// Annotations (title, description, default, examples, format, content*) do
// not change validity, as draft 2020-12 says for "format" without the
// format-assertion vocabulary. Keywords it does not know are ignored, as the
// specification asks.
//
// It refuses, at Compile, what it does not implement rather than guess:
// "$schema" naming another draft or a custom meta-schema; $dynamicRef,
// $dynamicAnchor, $recursiveRef and $recursiveAnchor; "$id" below the root
// (embedded resources); and a $ref that does not point into the schema
// itself. Schemas come from skills, which are untrusted, so compiling one
// never reads a file or the network. A schema is also refused when a keyword
// has a value of the wrong kind (the checks the meta-schema would make for
// the keywords it implements), when a pattern is not a Go regular
// expression, and when references would apply a schema to the same value
// forever ({"$ref": "#"}).
//
// Limits: patterns are Go (RE2) regular expressions, which match in linear
// time but know no back-references. Numbers are compared exactly; a number
// with a decimal exponent beyond ±1000 in a document is compared as a
// float64 (so as ±Inf or 0), and one in a schema is refused. Validation of
// one document stops after 4,000,000 schema evaluations (anyOf nested
// under references can otherwise multiply them) with one problem saying
// so; a valid 1.5 MB document of 100,000 objects takes an eighth of that.
//
// The package has no initialisation cost: programs that link it but never
// validate (the skillkit command's help, for one) start as fast as without
// it (docs/decisions.md, "JSON Schema validation without a library").
package schema

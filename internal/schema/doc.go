// Package schema compiles JSON Schemas and validates JSON documents against
// them, reporting every problem with the JSON pointer of the value concerned.
// It is the one place skillkit uses github.com/santhosh-tekuri/jsonschema:
// tool arguments and compute-skill input and output are checked here.
//
// Schemas come from skills, which are untrusted: a schema can never load
// another resource ($ref to a file or URL fails), so compiling one reads
// nothing from the machine. References inside the schema and to the standard
// meta-schemas still work. Schemas without "$schema" are draft 2020-12.
package schema

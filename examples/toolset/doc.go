// Command toolset prints what the model gets for the bundled example skills:
// the system prompt section and every tool with its description and input
// schema, as JSON. A host author reads it to see exactly what goes to the
// LLM.
//
//	go run ./examples/toolset [-skills DIR] [-tools bash,web_search]
package main

// Command toolset prints what the model gets for the bundled example skills:
// the system prompt section and every tool with its description and input
// schema, as JSON. A host author reads it to see exactly what goes to the
// LLM. It wires the packages by hand (a loader and a tools.Resolver with an
// executor, no installer), so it shows how they fit without the Kit, and
// without skill_manage, which a Kit adds by default.
//
//	go run ./examples/toolset [-skills DIR] [-tools bash,web_search]
package main

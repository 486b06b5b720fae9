// Command agent-loop drives a Toolset through a whole agent turn: the model
// sees the catalog, activates a skill with read_skill, reads the reference
// the skill requires with read_skill_file, runs a compute skill with
// execute_skill, and answers. A scripted stand-in plays the model, so the
// loop runs without network or API key; the comment at Model shows where a
// real LLM call goes.
//
//	go run ./examples/agent-loop [-skills examples/skills]
package main

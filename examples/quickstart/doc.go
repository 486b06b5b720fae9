// Command quickstart is skillkit's main job in one screen: it opens the
// bundled example skills, prints the catalog an agent gets, activates a
// skill, runs a compute skill and prints the diagnostics.
//
//	go run ./examples/quickstart [-skills examples/skills]
package main

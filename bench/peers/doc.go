// Command peers is skillkit's side of the comparisons with other Agent
// Skills implementations (BENCHMARKS.md, "peers"): it does one operation
// over a folder of skills in a loop and prints the median CPU time (user +
// system) of one run, so a harness outside the repository can alternate it
// with the same operation of a peer and compare medians.
//
// Operations:
//
//   - validate: loader.LoadAll of the folder with NestedSkills and Strict
//     (-lenient: without Strict) and limits lifted: what
//     `skillkit validate --strict DIR` does before printing.
//   - catalog: prompt.Catalog of the first -n skills (by name; 0: all) in the
//     agentskills format with the budget lifted, the text pi-mono's
//     formatSkillsForPrompt makes; the skills are loaded once, untimed.
//
// Each run follows an untimed garbage collection. Runs repeat until both
// -runs runs and -min of CPU time are done, after the same again to warm up.
//
//	go run ./bench/peers -op validate -dir ../shared/corpus
//	go run ./bench/peers -op catalog -dir /tmp/gen1k -n 1000
package main

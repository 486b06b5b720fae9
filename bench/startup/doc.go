// Command startup measures how long the skillkit command takes to start: it
// runs one command line -n times in fresh processes and reports, per binary,
// the median and range of the wall time and of the CPU time (user + system,
// which a busy machine inflates less than wall time), and the package
// initialisation cost the Go runtime reports with GODEBUG=inittrace=1
// (clock, bytes and allocations, in total and for the costliest packages).
//
// Without -bin it builds ./cmd/skillkit into a temporary folder first, with
// the build tags of -tags (-tags lean: the lean build, docs/cli.md). With
// -hello it also builds a Go hello world and measures it first, and gives
// each binary's medians as a ratio to its. With
// several binaries (-bin old,new) the runs alternate between them, so a change
// in the machine's load falls on both alike.
//
//	go run ./bench/startup                          # skillkit help, 20 runs
//	go run ./bench/startup -hello -tags lean        # the lean build against a hello world
//	go run ./bench/startup -n 20 version
//	go run ./bench/startup -bin /tmp/before,/tmp/after help
package main

// Package executortest is the conformance suite for [executor.Runner]
// implementations: every Runner skillkit ships passes it, and so should a
// host's own (a remote runner, another sandbox).
//
// The suite runs real programs: bash, env, head, seq and sleep from the
// host. It skips itself where bash is not installed.
package executortest

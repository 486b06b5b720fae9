// Package lazyregexp compiles a regular expression on its first use
// instead of at package initialisation. A package-level
// regexp.MustCompile runs in every program that links the package, before
// main, whether or not the expression is ever used: the skillkit command
// paid for the security scanner's expressions on every "skillkit help"
// (docs/decisions.md, "CLI start-up").
//
// An invalid expression panics on first use rather than at start; every
// expression given to New is a constant of the program, which its
// package's tests exercise.
package lazyregexp

// Package inittrace reads the package initialisation report a Go program
// writes to standard error when run with GODEBUG=inittrace=1, one line per
// package whose init did work:
//
//	init github.com/example/pkg @1.2 ms, 0.35 ms clock, 4096 bytes, 12 allocs
//
// The bench/startup command and the skillkit command's start-up test use it.
// Lines that are not such a report are ignored; a report in another form is
// an error, so a change in the runtime's format is noticed rather than read
// as zero.
package inittrace

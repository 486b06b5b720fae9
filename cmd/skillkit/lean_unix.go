//go:build lean && unix

package main

import (
	"os"
	"syscall"
)

// execFull replaces this process with the full skillkit, so signals, the
// terminal and the exit status are the full one's as if it had been run.
func execFull(path string, args []string) (int, error) {
	return exitFailure, syscall.Exec(path, append([]string{path}, args...), os.Environ())
}

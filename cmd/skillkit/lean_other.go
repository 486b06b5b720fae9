//go:build lean && !unix

package main

import (
	"errors"
	"os"
	"os/exec"
)

// execFull runs the full skillkit with this process's streams and returns
// its exit status (where a process cannot replace itself with another).
func execFull(path string, args []string) (int, error) {
	cmd := exec.Command(path, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return exit.ExitCode(), nil
	}
	if err != nil {
		return exitFailure, err
	}
	return exitOK, nil
}

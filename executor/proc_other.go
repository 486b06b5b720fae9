//go:build !unix

package executor

import (
	"errors"
	"os"
	"os/exec"
)

// processGroups reports whether the platform runs each command in its own
// process group. Windows (and other non-Unix systems) have none that a
// kill reaches: only the direct child is killed there.
const processGroups = false

func setProcessGroup(*exec.Cmd) {}

// killGroup kills the direct child only.
func killGroup(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return nil
	}
	err := cmd.Process.Kill()
	if errors.Is(err, os.ErrProcessDone) {
		return nil
	}
	return err
}

//go:build !unix

package executor

import (
	"errors"
	"os"
	"os/exec"
	"syscall"
)

func setProcessGroup(*syscall.SysProcAttr) {}

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

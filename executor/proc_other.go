//go:build !unix

package executor

import (
	"errors"
	"os"
	"syscall"
)

func setProcessGroup(*syscall.SysProcAttr) {}

// killGroup kills the direct child only.
func killGroup(p *os.Process) error {
	if p == nil {
		return nil
	}
	err := p.Kill()
	if errors.Is(err, os.ErrProcessDone) {
		return nil
	}
	return err
}

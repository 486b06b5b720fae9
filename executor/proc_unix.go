//go:build unix

package executor

import (
	"errors"
	"os"
	"syscall"
)

// setProcessGroup makes the child the leader of a new process group.
func setProcessGroup(attr *syscall.SysProcAttr) { attr.Setpgid = true }

// killGroup sends SIGKILL to every process in the child's group. A group
// that is already gone is not an error.
func killGroup(p *os.Process) error {
	if p == nil {
		return nil
	}
	err := syscall.Kill(-p.Pid, syscall.SIGKILL)
	if errors.Is(err, syscall.ESRCH) {
		return nil
	}
	return err
}

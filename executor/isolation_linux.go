//go:build linux

package executor

import (
	"fmt"

	"golang.org/x/sys/unix"
)

// canIsolate says that this system has namespaces to try.
const canIsolate = true

// ProtectHost makes the host process non-dumpable (Linux:
// prctl(PR_SET_DUMPABLE, 0)) for the rest of its life, so that processes of
// its user that hold no CAP_SYS_PTRACE — a skill run with [IsolateOff] or
// where user namespaces are unavailable, a script the host's own shell tool
// runs in a skill folder — cannot read its /proc/PID/environ (where a key
// given in the environment lies), mem, maps or fd. Calling it again does
// nothing more.
//
// The costs, for the whole process: no core dump, no debugger can attach
// without CAP_SYS_PTRACE, and the files under /proc/PID belong to root, so
// the host's own /proc/self/environ becomes unreadable to it unless it runs
// as root (os.Environ is unaffected; status, maps, fd and exe stay
// readable). A root process, or one with CAP_SYS_PTRACE, still reads
// everything: that is what the namespaces of [IsolateAuto] are for. Children
// start dumpable again (execve resets the flag). On other systems it returns
// an error wrapping [errors.ErrUnsupported].
func ProtectHost() error {
	if err := unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0); err != nil {
		return fmt.Errorf("executor: make the host non-dumpable: %w", err)
	}
	return nil
}

//go:build linux

package executor

import (
	"fmt"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// canIsolate says that this system has namespaces to try.
const canIsolate = true

// isolate asks for the child to start in a new user namespace, where it
// keeps the host's user and group IDs (mapped to themselves) but holds no
// capability over anything outside, and a new PID namespace, of which it is
// the first process: when it ends, the kernel kills every process left in
// the namespace, whatever session or group it moved to.
//
// The kernel lets a process read another's /proc/PID/environ, mem, maps or
// fd only when it holds CAP_SYS_PTRACE over the other's user namespace, or
// shares that namespace and the other's credentials; a process in a child
// namespace has no capability in the host's, so this holds even when the
// host runs as root.
//
// No parent-death signal: inside a new PID namespace getppid returns 0, so
// the os/exec child would take the parent for dead and kill itself.
func isolate(attr *syscall.SysProcAttr) {
	uid, gid := os.Geteuid(), os.Getegid()
	attr.Cloneflags |= syscall.CLONE_NEWUSER | syscall.CLONE_NEWPID
	attr.UidMappings = []syscall.SysProcIDMap{{ContainerID: uid, HostID: uid, Size: 1}}
	attr.GidMappings = []syscall.SysProcIDMap{{ContainerID: gid, HostID: gid, Size: 1}}
	attr.GidMappingsEnableSetgroups = false
}

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

package executor

import (
	"errors"
	"fmt"
)

// Isolation says how a [LocalRunner] separates the programs it starts from
// the host process. The zero value, IsolateAuto, is the default.
type Isolation int

// The isolation modes of a [LocalRunner].
const (
	// IsolateAuto starts each command, on Linux, in a new user namespace
	// and a new PID namespace (see the package documentation for what they
	// guarantee). Where the kernel refuses to create them (user namespaces
	// disabled or restricted), the command runs in the host's namespaces
	// and the runner's Logger gets one warning saying so. On other systems
	// each command gets a process group, as with IsolateOff.
	IsolateAuto Isolation = iota
	// IsolateRequired is IsolateAuto without the fallback: a command that
	// cannot get its namespaces fails with an error wrapping
	// [ErrNoIsolation], and so does every command on systems other than
	// Linux.
	IsolateRequired
	// IsolateOff runs commands in the host's namespaces, in a process group
	// of their own: for programs that need the host's view of user IDs
	// (set-user-ID helpers such as sudo) or its privileges (a root host
	// binding a port below 1024). A process that leaves the group (setsid, a
	// daemon) can outlive the run, and the program can read the memory and
	// environment of every process of its user that is dumpable.
	IsolateOff
)

// ErrNoIsolation is wrapped by the error of a [LocalRunner] with
// [IsolateRequired] that could not isolate a command.
var ErrNoIsolation = errors.New("executor: no process isolation")

// String names the mode as in the documentation.
func (i Isolation) String() string {
	switch i {
	case IsolateAuto:
		return "auto"
	case IsolateRequired:
		return "required"
	case IsolateOff:
		return "off"
	}
	return fmt.Sprintf("Isolation(%d)", int(i))
}

func (i Isolation) valid() bool { return i >= IsolateAuto && i <= IsolateOff }

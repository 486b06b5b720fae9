package bwrap

import (
	"errors"
	"fmt"
	"path"
	"strings"
)

// Kind is what a mount puts at its destination.
type Kind int

// The mounts a sandbox is built from.
const (
	ReadOnly  Kind = iota // --ro-bind-try Src Dst: Src read-only, skipped when Src is missing
	ReadWrite             // --bind Src Dst: Src writable
	Symlink               // --symlink Src Dst: Dst is a symbolic link to Src
	Tmpfs                 // --tmpfs Dst: an empty private writable folder
)

// Mount is one entry of the sandbox's file system. Src and Dst are absolute
// slash paths, except a Symlink's Src, which is the link's target as is.
type Mount struct {
	Kind     Kind
	Src, Dst string
}

// Spec is one sandboxed program.
type Spec struct {
	Mounts  []Mount // applied in order, after /proc and /dev; later mounts cover earlier ones
	Network bool    // keep the host's network; otherwise only a private loopback
	Dir     string  // absolute working directory inside the sandbox
	Program string  // the program, absolute or a name bwrap looks up in PATH
	Args    []string
}

// ErrInvalid is wrapped by the errors of [Args].
var ErrInvalid = errors.New("invalid sandbox spec")

// Args returns bwrap's arguments (without "bwrap" itself) for spec: every
// namespace unshared (network too unless spec.Network), all capabilities
// dropped, a new session, killed with its parent, /proc and /dev private,
// then the mounts in order, the working directory and the program after
// "--". The root itself is read-only. The environment is not on the
// command line, where other users of the machine could read it: bwrap
// passes on its own environment.
//
// The program is the first process of the sandbox's PID namespace
// (--as-pid-1): when it ends, the kernel kills every process left in the
// namespace before bwrap learns that it ended, so nothing started in the
// sandbox outlives bwrap. With bwrap's own first process instead, bwrap
// exits as soon as the program does, while that process is still tearing
// the namespace down.
func Args(spec Spec) ([]string, error) {
	args := []string{
		"--unshare-all", "--as-pid-1", "--die-with-parent", "--new-session", "--cap-drop", "ALL",
	}
	if spec.Network {
		args = append(args, "--share-net")
	}
	args = append(args, "--proc", "/proc", "--dev", "/dev")
	for i, m := range spec.Mounts {
		if err := checkAbs(m.Dst); err != nil {
			return nil, fmt.Errorf("%w: mount %d destination: %v", ErrInvalid, i+1, err)
		}
		if m.Kind != Tmpfs && (m.Src == "" || strings.ContainsRune(m.Src, 0)) {
			return nil, fmt.Errorf("%w: mount %d needs a source without NUL", ErrInvalid, i+1)
		}
		switch m.Kind {
		case ReadOnly, ReadWrite:
			if err := checkAbs(m.Src); err != nil {
				return nil, fmt.Errorf("%w: mount %d source: %v", ErrInvalid, i+1, err)
			}
			flag := "--ro-bind-try"
			if m.Kind == ReadWrite {
				flag = "--bind"
			}
			args = append(args, flag, m.Src, m.Dst)
		case Symlink:
			args = append(args, "--symlink", m.Src, m.Dst)
		case Tmpfs:
			args = append(args, "--tmpfs", m.Dst)
		default:
			return nil, fmt.Errorf("%w: mount %d has unknown kind %d", ErrInvalid, i+1, m.Kind)
		}
	}
	if err := checkAbs(spec.Dir); err != nil {
		return nil, fmt.Errorf("%w: working directory: %v", ErrInvalid, err)
	}
	if spec.Program == "" || strings.ContainsRune(spec.Program, 0) {
		return nil, fmt.Errorf("%w: the program must be non-empty without NUL", ErrInvalid)
	}
	// The root is bwrap's own tmpfs: make it read-only, so that only
	// writable mounts can be written.
	args = append(args, "--remount-ro", "/", "--chdir", spec.Dir, "--", spec.Program)
	for i, a := range spec.Args {
		if strings.ContainsRune(a, 0) {
			return nil, fmt.Errorf("%w: argument %d holds a NUL byte", ErrInvalid, i+1)
		}
	}
	return append(args, spec.Args...), nil
}

// checkAbs accepts a clean absolute slash path without NUL.
func checkAbs(p string) error {
	switch {
	case strings.ContainsRune(p, 0):
		return errors.New("holds a NUL byte")
	case !strings.HasPrefix(p, "/"):
		return fmt.Errorf("%q is not absolute", p)
	case path.Clean(p) != p:
		return fmt.Errorf("%q is not clean", p)
	}
	return nil
}

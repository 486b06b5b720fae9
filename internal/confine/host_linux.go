package confine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// unprivilegedID is the user and group a root host's programs run as:
// nobody, who owns nothing of the host's.
const unprivilegedID = 65534

// Cmd is a confined program, ready to start. The caller sets Cmd's
// standard streams, Cancel and WaitDelay, may add to its SysProcAttr (a
// process group), then calls Start and, after Cmd.Wait, Close.
type Cmd struct {
	// Cmd starts the helper, which becomes the program.
	Cmd *exec.Cmd
	// Reduced lists, after Start, the mechanisms the kernel refused, each
	// with its reason; empty when all applied.
	Reduced []string

	spec       Spec
	lent       []lent // Work folders lent to nobody, to give back
	scratch    string // the host folder that is the scratch space without namespaces
	scratchErr error
	hostCtl    *os.File
	proxy      *proxy
	fallback   func() *exec.Cmd
}

// Prepare builds the command that starts spec's program confined. ctx
// bounds the helper and the program as with [exec.CommandContext].
func Prepare(ctx context.Context, spec Spec) (*Cmd, error) {
	if err := spec.check(); err != nil {
		return nil, err
	}
	spec.Home, _ = os.UserHomeDir()
	spec.Network.Proxy = !spec.Network.All && spec.Network.Allow != nil
	c := &Cmd{spec: spec}
	if os.Geteuid() == 0 {
		if err := c.lend(); err != nil {
			c.Close()
			return nil, err
		}
	}
	c.Cmd = c.command(ctx, true)
	c.fallback = func() *exec.Cmd { return c.command(ctx, false) }
	return c, nil
}

// RefuseNamespaces makes the kernel refuse c's namespaces, as it does where
// unprivileged user namespaces are disabled: clone(2) fails with EINVAL for
// CLONE_NEWUSER with CLONE_FS. Tests take the fallback path with it.
func RefuseNamespaces(c *Cmd) {
	c.Cmd.SysProcAttr.Cloneflags |= syscall.CLONE_FS
}

func (c *Cmd) command(ctx context.Context, namespaces bool) *exec.Cmd {
	s := c.spec
	s.Namespaces = namespaces
	attr := &syscall.SysProcAttr{}
	if namespaces {
		attr.Cloneflags = syscall.CLONE_NEWUSER | syscall.CLONE_NEWPID | syscall.CLONE_NEWNS |
			syscall.CLONE_NEWIPC | syscall.CLONE_NEWUTS
		if !s.Network.All {
			attr.Cloneflags |= syscall.CLONE_NEWNET
		}
		// The helper needs these in its own namespaces only: mounts,
		// loopback, and writing its own ID maps. It drops them all before
		// the program starts.
		attr.AmbientCaps = []uintptr{unix.CAP_SYS_ADMIN, unix.CAP_NET_ADMIN, unix.CAP_SETUID, unix.CAP_SETGID, unix.CAP_SETPCAP}
		if os.Geteuid() == 0 {
			// The helper starts as root of its namespace (it must reach
			// the grants whatever their modes) and the program runs as
			// nobody: root's files and /proc/sys stay root's.
			s.UID, s.GID, s.RootHost = unprivilegedID, unprivilegedID, true
			attr.UidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: 0, Size: 1}, {ContainerID: s.UID, HostID: s.UID, Size: 1}}
			attr.GidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: 0, Size: 1}, {ContainerID: s.GID, HostID: s.GID, Size: 1}}
			attr.GidMappingsEnableSetgroups = true
		} else {
			// A process whose dumpable flag is off cannot have its maps
			// written by its parent; the helper writes its own.
			s.UID, s.GID, s.SelfMap = os.Geteuid(), os.Getegid(), true
		}
	} else if os.Geteuid() == 0 {
		s.UID, s.GID = unprivilegedID, unprivilegedID
		attr.Credential = &syscall.Credential{Uid: unprivilegedID, Gid: unprivilegedID, NoSetGroups: true}
	}
	if namespaces {
		s.Env = withScratch(s.Env, ScratchDir, ScratchHome)
	} else if dir, err := c.hostScratch(s.UID, s.GID); err == nil {
		s.Write = append(s.Write, dir)
		s.Env = withScratch(s.Env, dir, filepath.Join(dir, "home"))
	} else {
		c.scratchErr = err
	}
	raw, _ := json.Marshal(s) // a Spec always marshals
	cmd := exec.CommandContext(ctx, "/proc/self/exe")
	cmd.Args = []string{"skillkit-confine"}
	// The helper lives a few milliseconds on one thread: no collector.
	cmd.Env = []string{helperEnv + "=" + string(raw), "GOGC=off", "GOMAXPROCS=1"}
	cmd.SysProcAttr = attr
	return cmd
}

// Start starts the program. Where the kernel refuses the namespaces, it
// starts it without them (Landlock, seccomp and the limits still apply) and
// says so in Reduced, unless the spec is Strict.
func (c *Cmd) Start() error {
	err := c.start()
	var refused *cloneError
	if err == nil || !errors.As(err, &refused) || !startRefused(refused.err) {
		return err
	}
	if c.spec.Strict {
		return fmt.Errorf("%w: namespaces: %w", ErrReduced, refused.err)
	}
	attr := c.Cmd.SysProcAttr
	next := c.fallback()
	next.SysProcAttr.Setpgid, next.SysProcAttr.Pgid = attr.Setpgid, attr.Pgid
	next.Stdin, next.Stdout, next.Stderr = c.Cmd.Stdin, c.Cmd.Stdout, c.Cmd.Stderr
	next.Cancel, next.WaitDelay, next.Dir = c.Cmd.Cancel, c.Cmd.WaitDelay, c.Cmd.Dir
	c.Cmd = next
	if err := c.start(); err != nil {
		return err
	}
	c.Reduced = append([]string{"namespaces: " + refused.err.Error()}, c.Reduced...)
	return nil
}

// cloneError is the kernel's refusal to start the helper at all, as
// opposed to the helper's own report.
type cloneError struct{ err error }

func (e *cloneError) Error() string { return e.err.Error() }
func (e *cloneError) Unwrap() error { return e.err }

// startRefused tells a kernel that refuses namespaces from other failures.
func startRefused(err error) bool {
	return errors.Is(err, syscall.EPERM) || errors.Is(err, syscall.EINVAL) ||
		errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EUSERS) || errors.Is(err, syscall.EACCES)
}

func (c *Cmd) start() error {
	if c.scratchErr != nil {
		return fmt.Errorf("confine: scratch space: %w", c.scratchErr)
	}
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_SEQPACKET|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return err
	}
	host, child := os.NewFile(uintptr(fds[0]), "control"), os.NewFile(uintptr(fds[1]), "control")
	defer child.Close()
	c.Cmd.ExtraFiles = []*os.File{child}
	if err := c.Cmd.Start(); err != nil {
		host.Close()
		return &cloneError{err}
	}
	child.Close()
	c.hostCtl = host
	return c.handshake()
}

// handshake reads the helper's messages until the program's exec closes
// the socket: the proxy's listener, then "ok" (with what was reduced) or
// "error ...".
func (c *Cmd) handshake() error {
	defer c.hostCtl.Close()
	buf := make([]byte, 64<<10)
	oob := make([]byte, unix.CmsgSpace(4))
	for {
		n, oobn, _, _, err := unix.Recvmsg(int(c.hostCtl.Fd()), buf, oob, unix.MSG_CMSG_CLOEXEC)
		if err != nil {
			return fmt.Errorf("confine: read from the helper: %w", err)
		}
		if n == 0 {
			return nil // the program started
		}
		msg := string(buf[:n])
		switch {
		case msg == "listener":
			fd, err := receivedFD(oob[:oobn])
			if err != nil {
				return err
			}
			f := os.NewFile(uintptr(fd), "proxy")
			ln, err := net.FileListener(f)
			f.Close()
			if err != nil {
				return fmt.Errorf("confine: the proxy's listener: %w", err)
			}
			c.proxy = serveProxy(ln, c.spec.Network.Allow)
		case strings.HasPrefix(msg, "ok"):
			if rest := strings.TrimSpace(strings.TrimPrefix(msg, "ok")); rest != "" {
				c.Reduced = append(c.Reduced, strings.Split(rest, "; ")...)
			}
		case strings.HasPrefix(msg, "exec "):
			errno, _ := strconv.Atoi(strings.TrimPrefix(msg, "exec "))
			_ = c.Cmd.Wait()
			c.Close()
			return &os.PathError{Op: "exec", Path: c.spec.Path, Err: syscall.Errno(errno)}
		case strings.HasPrefix(msg, "error "):
			_ = c.Cmd.Wait()
			c.Close()
			err := errors.New("confine: " + strings.TrimPrefix(msg, "error "))
			if strings.Contains(msg, ErrReduced.Error()) {
				err = fmt.Errorf("%w (%s)", ErrReduced, strings.TrimPrefix(msg, "error "))
			}
			return err
		}
	}
}

func receivedFD(oob []byte) (int, error) {
	msgs, err := unix.ParseSocketControlMessage(oob)
	if err != nil || len(msgs) != 1 {
		return -1, fmt.Errorf("confine: the helper sent no listener")
	}
	fds, err := unix.ParseUnixRights(&msgs[0])
	if err != nil || len(fds) != 1 {
		return -1, fmt.Errorf("confine: the helper sent no listener")
	}
	return fds[0], nil
}

// hostScratch makes the scratch space of a program without a view of its
// own: a private folder of the host's, removed by Close.
func (c *Cmd) hostScratch(uid, gid int) (string, error) {
	dir, err := os.MkdirTemp("", "skillkit-scratch-")
	if err != nil {
		return "", err
	}
	c.scratch = dir
	if err := os.Mkdir(filepath.Join(dir, "home"), 0o700); err != nil {
		return "", err
	}
	if os.Geteuid() == 0 {
		for _, p := range []string{dir, filepath.Join(dir, "home")} {
			if err := os.Chown(p, uid, gid); err != nil {
				return "", err
			}
		}
	}
	return dir, nil
}

// withScratch points HOME and the temp folder variables at the scratch
// space, where the environment has them: it stays exactly what the caller
// gave otherwise.
func withScratch(env []string, tmp, home string) []string {
	out := slices.Clone(env)
	for i, kv := range out {
		switch k, _, _ := strings.Cut(kv, "="); k {
		case "HOME":
			out[i] = "HOME=" + home
		case "TMPDIR", "TMP", "TEMP":
			out[i] = k + "=" + tmp
		}
	}
	return out
}

// lent is a folder tree lent to nobody for a run, and its owner.
type lent struct {
	path     string
	uid, gid int
}

// lend gives each Work folder, with what it holds, to nobody for the run.
func (c *Cmd) lend() error {
	for _, p := range c.spec.Work {
		var st unix.Stat_t
		if err := unix.Lstat(p, &st); err != nil {
			return fmt.Errorf("confine: work folder: %w", err)
		}
		c.lent = append(c.lent, lent{path: p, uid: int(st.Uid), gid: int(st.Gid)})
		if err := chownTree(p, unprivilegedID, unprivilegedID); err != nil {
			return fmt.Errorf("confine: lend %s to the program: %w", p, err)
		}
	}
	return nil
}

// chownTree gives a folder tree to uid and gid, links themselves and not
// what they point to.
func chownTree(root string, uid, gid int) error {
	return filepath.WalkDir(root, func(p string, _ os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(p, uid, gid)
	})
}

// Close stops the proxy, gives lent folders back and removes the host
// scratch folder, after the program ended.
func (c *Cmd) Close() {
	for _, l := range c.lent {
		_ = chownTree(l.path, l.uid, l.gid)
	}
	c.lent = nil
	if c.scratch != "" {
		_ = os.RemoveAll(c.scratch)
		c.scratch = ""
	}
	if c.proxy != nil {
		c.proxy.close()
		c.proxy = nil
	}
}

//go:build linux && (amd64 || arm64)

package confine

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// unprivilegedID is the user and group a root host's programs run as:
// nobody, who owns nothing of the host's.
const unprivilegedID = 65534

// Cmd is a confined program, ready to start. The caller sets its standard
// streams, calls Start, then Wait, then Close. The program leads a process
// group of its own, killed with it when the context given to [Prepare] ends.
type Cmd struct {
	// Stdin, Stdout and Stderr are the program's standard streams; nil is
	// the null device.
	Stdin, Stdout, Stderr *os.File
	// Reduced lists, after Start, the mechanisms the kernel refused, each
	// with its reason; empty when all applied.
	Reduced []string
	// Process is the program, after Start.
	Process *os.Process
	// ProcessState is how it ended, after Wait.
	ProcessState *os.ProcessState

	ctx     context.Context
	spec    Spec
	refuse  bool
	lent    []lent // Work folders lent to nobody, to give back
	scratch string // the host folder that is the scratch space without namespaces
	proxy   *proxy
	waited  chan struct{}
}

// Prepare builds the command that starts spec's program confined. ctx
// bounds the program as with [exec.CommandContext].
func Prepare(ctx context.Context, spec Spec) (*Cmd, error) {
	if err := spec.check(); err != nil {
		return nil, err
	}
	spec.Home, _ = os.UserHomeDir()
	spec.Network.Proxy = !spec.Network.All && spec.Network.Allow != nil
	c := &Cmd{ctx: ctx, spec: spec, waited: make(chan struct{})}
	if os.Geteuid() == 0 {
		if err := c.lend(); err != nil {
			c.Close()
			return nil, err
		}
	}
	return c, nil
}

// RefuseNamespaces makes the kernel refuse c's namespaces, as it does where
// unprivileged user namespaces are disabled: clone(2) fails with EINVAL for
// namespaces with CLONE_FS. Tests take the fallback path with it.
func RefuseNamespaces(c *Cmd) { c.refuse = true }

// Start starts the program. Where the kernel refuses the namespaces, it
// starts it without them (Landlock, seccomp and the limits still apply) and
// says so in Reduced, unless the spec is Strict.
func (c *Cmd) Start() error {
	err := c.start(true)
	var refused *refusedError
	if err == nil || !errors.As(err, &refused) {
		return err
	}
	if c.spec.Strict {
		return fmt.Errorf("%w: namespaces: %w", ErrReduced, refused.errno)
	}
	if err := c.start(false); err != nil {
		return err
	}
	c.Reduced = append([]string{"namespaces: " + refused.errno.Error()}, c.Reduced...)
	return nil
}

// refusedError is the kernel's refusal of the namespaces.
type refusedError struct{ errno syscall.Errno }

func (e *refusedError) Error() string { return "confine: namespaces: " + e.errno.Error() }

func (c *Cmd) start(namespaces bool) error {
	s := c.spec
	s.Namespaces = namespaces
	s.RootHost = os.Geteuid() == 0
	if s.RootHost {
		// The program runs as nobody: root's files and /proc/sys stay root's.
		s.UID, s.GID = unprivilegedID, unprivilegedID
	} else {
		s.UID, s.GID = os.Geteuid(), os.Getegid()
	}
	var ctlHost, ctlChild *os.File
	if namespaces {
		s.Env = withScratch(s.Env, ScratchDir, ScratchHome)
		if s.Network.Proxy {
			fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_SEQPACKET|unix.SOCK_CLOEXEC, 0)
			if err != nil {
				return err
			}
			ctlHost, ctlChild = os.NewFile(uintptr(fds[0]), "control"), os.NewFile(uintptr(fds[1]), "control")
			defer ctlHost.Close()
			defer ctlChild.Close()
			s.Env = withProxy(s.Env, proxyPortInside)
		}
	} else {
		dir, err := c.hostScratch(s.UID, s.GID)
		if err != nil {
			return fmt.Errorf("confine: scratch space: %w", err)
		}
		s.Write = append(s.Write, dir)
		s.Env = withScratch(s.Env, dir, filepath.Join(dir, "home"))
		if s.Network.Proxy {
			// The program shares the host's network: the proxy listens there.
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				return fmt.Errorf("confine: proxy listener: %w", err)
			}
			c.proxy = serveProxy(ln, s.Network.Allow)
			s.ProxyPort = ln.Addr().(*net.TCPAddr).Port
			s.Env = withProxy(s.Env, s.ProxyPort)
		}
	}
	files := []*os.File{c.Stdin, c.Stdout, c.Stderr}
	for i, f := range files {
		if f == nil {
			null, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
			if err != nil {
				return err
			}
			defer null.Close()
			files[i] = null
		}
	}
	if ctlChild != nil {
		files = append(files, ctlChild)
	}
	resp, err := askZygote(request{Spec: s, Refuse: c.refuse, Ctl: ctlChild != nil}, files)
	if err != nil {
		return err
	}
	if resp.Refused != 0 {
		return &refusedError{syscall.Errno(resp.Refused)}
	}
	var proc *os.Process
	if resp.PID > 0 {
		if proc, err = os.FindProcess(resp.PID); err != nil {
			return fmt.Errorf("confine: the program: %w", err)
		}
	}
	if resp.Failed != "" {
		if proc != nil {
			_, _ = proc.Wait()
		}
		c.Close()
		errno := syscall.Errno(resp.Errno)
		switch {
		case resp.Exec:
			return &os.PathError{Op: "exec", Path: s.Path, Err: errno}
		case resp.Strict:
			return fmt.Errorf("%w: %s: %v", ErrReduced, resp.Failed, errno)
		case resp.Errno != 0:
			return fmt.Errorf("confine: %s: %w", resp.Failed, errno)
		}
		return errors.New("confine: " + resp.Failed)
	}
	c.Process = proc
	c.Reduced = append(c.Reduced, resp.Reduced...)
	if ctlHost != nil {
		ln, err := receiveListener(ctlHost)
		if err != nil {
			c.kill()
			return err
		}
		c.proxy = serveProxy(ln, s.Network.Allow)
	}
	go func() {
		select {
		case <-c.ctx.Done():
			c.kill()
		case <-c.waited:
		}
	}()
	return nil
}

// kill ends the program and its process group.
func (c *Cmd) kill() {
	if c.Process != nil {
		_ = syscall.Kill(-c.Process.Pid, syscall.SIGKILL)
		_ = c.Process.Kill()
	}
}

// Wait waits for the program to end and returns its exit error, as
// [exec.Cmd.Wait] does.
func (c *Cmd) Wait() error {
	if c.Process == nil {
		return errors.New("confine: not started")
	}
	if c.ProcessState != nil {
		return errors.New("confine: Wait was already called")
	}
	state, err := c.Process.Wait()
	close(c.waited)
	if err != nil {
		return err
	}
	c.ProcessState = state
	if !state.Success() {
		return &exec.ExitError{ProcessState: state}
	}
	return nil
}

// receiveListener takes the proxy's listener the program's setup sent
// before its exec.
func receiveListener(ctl *os.File) (net.Listener, error) {
	buf := make([]byte, 64)
	oob := make([]byte, unix.CmsgSpace(4))
	n, oobn, _, _, err := unix.Recvmsg(int(ctl.Fd()), buf, oob, unix.MSG_CMSG_CLOEXEC|unix.MSG_DONTWAIT)
	if err != nil || string(buf[:n]) != "listener" {
		return nil, fmt.Errorf("confine: the program's setup sent no listener (%v)", err)
	}
	fd, err := receivedFD(oob[:oobn])
	if err != nil {
		return nil, err
	}
	f := os.NewFile(uintptr(fd), "proxy")
	defer f.Close()
	ln, err := net.FileListener(f)
	if err != nil {
		return nil, fmt.Errorf("confine: the proxy's listener: %w", err)
	}
	return ln, nil
}

func receivedFD(oob []byte) (int, error) {
	fds, err := parseRights(oob)
	if err != nil || len(fds) != 1 {
		for _, fd := range fds {
			unix.Close(fd)
		}
		return -1, fmt.Errorf("confine: the program's setup sent no listener")
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

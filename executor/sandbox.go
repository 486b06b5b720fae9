package executor

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/skillkit-go/skillkit/internal/bwrap"
)

// SandboxOptions tune a [SandboxRunner]. A nil *SandboxOptions is the
// strictest sandbox: no network, nothing writable but the private /tmp.
type SandboxOptions struct {
	// Bwrap is the bubblewrap program; empty means "bwrap" from the host's
	// PATH.
	Bwrap string
	// Network keeps the host's network. Without it the sandbox has only a
	// private loopback interface: neither the internet nor services on the
	// host's own loopback are reachable.
	Network bool
	// ReadOnly are host paths shown read-only at the same path, besides the
	// system folders (for example an interpreter outside /usr).
	ReadOnly []string
	// Writable are host paths shown writable at the same path.
	Writable []string
	// Runner runs bwrap itself; nil means a LocalRunner with IsolateOff
	// (bwrap makes its own namespaces, and a set-user-ID bwrap would lose
	// its privileges inside the LocalRunner's).
	Runner Runner
}

// ErrNoSandbox is wrapped by [NewSandboxRunner] when bubblewrap is missing
// or cannot build a sandbox on this machine.
var ErrNoSandbox = errors.New("executor: no bubblewrap sandbox")

// SandboxRunner runs each command inside a bubblewrap sandbox (Linux only):
//
//   - every namespace unshared: its own PID, IPC, UTS, cgroup, user and
//     network namespaces (the host network only with Network);
//   - all capabilities dropped, a new session (no terminal injection), and
//     killed when the runner's process dies;
//   - the system read-only: /usr, the /bin, /sbin and /lib links or
//     folders, and a short list of /etc files (name service, TLS
//     certificates, time zones, the dynamic linker's cache and Debian's
//     alternatives), never all of /etc;
//   - Command.Dir read-only at the same path (the skill folder), unless it
//     lies inside a Writable path; a private, empty, writable /tmp, which is
//     also the working directory when Dir is empty;
//   - the environment exactly Command.Env, handed to bwrap as its
//     environment and never on its command line, where other users could
//     read it (bwrap sets PWD; /usr/bin/env inside the sandbox removes it
//     again, or restores the value Command.Env gives).
//
// The program is looked up on the host as [LocalRunner] does, and must be
// visible inside the sandbox: under /usr, in the skill folder, or in
// ReadOnly. The sandbox does not limit CPU, memory or the size of /tmp
// (memory-backed); Command.Timeout bounds the time. When the timeout passes
// or ctx is done, bwrap is killed, and with it everything in the sandbox's
// PID namespace.
type SandboxRunner struct {
	bwrap   string
	env     string // env(1) inside the sandbox
	network bool
	mounts  []bwrap.Mount // system mounts and the options' extra paths
	inner   Runner
}

var _ Runner = (*SandboxRunner)(nil)

// etcFiles returns the /etc entries a sandboxed program sees.
func etcFiles() []string {
	return []string{
		"alternatives", "ca-certificates", "ca-certificates.conf", "gai.conf", "group", "host.conf",
		"hosts", "ld.so.cache", "ld.so.conf", "ld.so.conf.d", "localtime", "mime.types",
		"nsswitch.conf", "passwd", "pki", "protocols", "resolv.conf", "services", "ssl", "timezone",
	}
}

// NewSandboxRunner finds bwrap and checks, by running /usr/bin/true (or
// /bin/true) in a sandbox, that it works on this machine. Where bwrap is
// missing or cannot create namespaces, the error wraps [ErrNoSandbox] and
// says so.
func NewSandboxRunner(ctx context.Context, opts *SandboxOptions) (*SandboxRunner, error) {
	if opts == nil {
		opts = &SandboxOptions{}
	}
	if runtime.GOOS != "linux" {
		return nil, fmt.Errorf("%w: bubblewrap needs Linux, this is %s", ErrNoSandbox, runtime.GOOS)
	}
	name := opts.Bwrap
	if name == "" {
		name = "bwrap"
	}
	bin, err := exec.LookPath(name)
	if err != nil {
		return nil, fmt.Errorf("%w: bwrap not found (install bubblewrap, on Debian and Ubuntu: apt-get install bubblewrap): %v", ErrNoSandbox, err)
	}
	r := &SandboxRunner{bwrap: bin, env: "/usr/bin/env", network: opts.Network, inner: opts.Runner}
	if _, err := os.Stat(r.env); err != nil {
		return nil, fmt.Errorf("%w: the sandbox needs %s: %v", ErrNoSandbox, r.env, err)
	}
	if r.inner == nil {
		r.inner = &LocalRunner{Isolation: IsolateOff}
	}
	if r.mounts, err = systemMounts(); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNoSandbox, err)
	}
	for _, list := range []struct {
		paths []string
		kind  bwrap.Kind
	}{{opts.ReadOnly, bwrap.ReadOnly}, {opts.Writable, bwrap.ReadWrite}} {
		for _, p := range list.paths {
			abs, err := absPath(p)
			if err != nil {
				return nil, fmt.Errorf("executor: sandbox path %q: %w", p, err)
			}
			r.mounts = append(r.mounts, bwrap.Mount{Kind: list.kind, Src: abs, Dst: abs})
		}
	}
	if err := r.probe(ctx); err != nil {
		return nil, err
	}
	return r, nil
}

// systemMounts lays out the read-only system and the private /tmp.
func systemMounts() ([]bwrap.Mount, error) {
	mounts := []bwrap.Mount{{Kind: bwrap.ReadOnly, Src: "/usr", Dst: "/usr"}}
	for _, dir := range []string{"/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"} {
		fi, err := os.Lstat(dir)
		switch {
		case err != nil:
			continue
		case fi.Mode()&os.ModeSymlink != 0:
			target, err := os.Readlink(dir)
			if err != nil {
				return nil, err
			}
			mounts = append(mounts, bwrap.Mount{Kind: bwrap.Symlink, Src: target, Dst: dir})
		default:
			mounts = append(mounts, bwrap.Mount{Kind: bwrap.ReadOnly, Src: dir, Dst: dir})
		}
	}
	for _, f := range etcFiles() {
		mounts = append(mounts, bwrap.Mount{Kind: bwrap.ReadOnly, Src: "/etc/" + f, Dst: "/etc/" + f})
	}
	return append(mounts, bwrap.Mount{Kind: bwrap.Tmpfs, Dst: "/tmp"}), nil
}

// probe runs true in the sandbox.
func (r *SandboxRunner) probe(ctx context.Context) error {
	prog := "/usr/bin/true"
	if _, err := os.Stat(prog); err != nil {
		prog = "/bin/true"
	}
	res, err := r.Run(ctx, Command{Path: prog, Timeout: 10 * time.Second})
	if err != nil {
		return fmt.Errorf("%w: bwrap (%s) cannot start a sandbox here: %v", ErrNoSandbox, r.bwrap, err)
	}
	if res.ExitCode != 0 {
		return fmt.Errorf("%w: bwrap (%s) cannot create a sandbox on this machine (exit code %d): %s",
			ErrNoSandbox, r.bwrap, res.ExitCode, strings.TrimSpace(string(res.Stderr)))
	}
	return nil
}

// Run runs cmd inside a new sandbox; see [Runner] for the contract. A
// program that is found on the host but not visible in the sandbox makes
// bwrap fail: exit code 1 and its message on standard error.
func (r *SandboxRunner) Run(ctx context.Context, c Command) (Result, error) {
	if err := c.Validate(); err != nil {
		return Result{}, err
	}
	prog, err := LookPath(c.Path, c.Env)
	if err != nil {
		return Result{}, fmt.Errorf("executor: run %s: %w", c.Path, err)
	}
	mounts := r.mounts
	dir := "/tmp"
	if c.Dir != "" {
		if dir, err = absPath(c.Dir); err != nil {
			return Result{}, fmt.Errorf("%w: working directory %q: %v", ErrInvalidCommand, c.Dir, err)
		}
		if !r.writable(dir) {
			mounts = append(slices.Clip(mounts), bwrap.Mount{Kind: bwrap.ReadOnly, Src: dir, Dst: dir})
		}
	}
	network := r.network
	if g := c.Confine; g != nil {
		// The command's own grants. A list of hosts cannot be filtered
		// here (bwrap has no proxy): it gets no network, the safe side.
		network = network || g.Network.All
		for _, grant := range []struct {
			paths []string
			kind  bwrap.Kind
		}{{g.Read, bwrap.ReadOnly}, {g.Write, bwrap.ReadWrite}, {g.Work, bwrap.ReadWrite}} {
			for _, p := range grant.paths {
				if _, err := os.Stat(p); err == nil && filepath.IsAbs(p) {
					mounts = append(slices.Clip(mounts), bwrap.Mount{Kind: grant.kind, Src: p, Dst: p})
				}
			}
		}
	}
	// bwrap always sets PWD; env(1) puts it back as the command gave it.
	if strings.ContainsRune(prog, '=') {
		return Result{}, fmt.Errorf("%w: the sandbox cannot run a program whose path holds '=': %s", ErrInvalidCommand, prog)
	}
	pwd := []string{"-u", "PWD", "--"}
	if v, ok := c.Env["PWD"]; ok {
		pwd = []string{"--", "PWD=" + v}
	}
	inner := append(append(pwd, prog), c.Args...)
	args, err := bwrap.Args(bwrap.Spec{Mounts: mounts, Network: network, Dir: dir, Program: r.env, Args: inner})
	if err != nil {
		return Result{}, fmt.Errorf("%w: %v", ErrInvalidCommand, err)
	}
	outer := c
	outer.Path, outer.Args, outer.Dir = r.bwrap, args, "/"
	return r.inner.Run(ctx, outer)
}

// writable reports whether dir lies inside a Writable path.
func (r *SandboxRunner) writable(dir string) bool {
	for _, m := range r.mounts {
		if m.Kind == bwrap.ReadWrite && within(m.Dst, dir) {
			return true
		}
	}
	return false
}

// within reports whether p is root or inside it (both clean and absolute).
func within(root, p string) bool {
	if p == root {
		return true
	}
	if !strings.HasSuffix(root, string(filepath.Separator)) {
		root += string(filepath.Separator)
	}
	return strings.HasPrefix(p, root)
}

// absPath makes p absolute and clean.
func absPath(p string) (string, error) {
	if p == "" {
		return "", errors.New("executor: empty path")
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	return filepath.Clean(abs), nil
}

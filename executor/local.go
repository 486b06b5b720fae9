package executor

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/skillkit-go/skillkit/internal/confine"
)

// DefaultWaitDelay is how long a [LocalRunner] waits, after the program
// ended, for its output pipes to close.
const DefaultWaitDelay = 2 * time.Second

// LocalRunner runs commands as child processes of the host, without a shell.
// Its zero value is ready to use and safe for concurrent use; it must not
// be copied after first use.
//
// On Linux, by default ([IsolateAuto]), each command starts in a new user
// namespace and a new PID namespace: it cannot read the memory or the
// environment of the host or of any other process outside (the vault's key
// included), and when its first process ends, or is killed on timeout or
// cancellation, the kernel kills every process it started, including those
// that called setsid or forked twice. Where the kernel refuses the
// namespaces, and on other systems, each command runs in its own process
// group (on Unix): when the timeout passes or ctx is done the whole group is
// killed with SIGKILL, and again when the program ends, so a grandchild it
// left behind does not outlive Run; a process that left the group (setsid, a
// daemon) is out of reach there, and its output pipes are closed WaitDelay
// after the program ended, so it cannot make Run hang. On Windows only the
// direct child is killed. The package documentation says what each system
// guarantees.
type LocalRunner struct {
	// WaitDelay bounds how long Run waits for the output pipes to close
	// after the program ended and its group was killed; zero means
	// DefaultWaitDelay.
	WaitDelay time.Duration
	// Isolation chooses how commands are separated from the host; the zero
	// value is IsolateAuto.
	Isolation Isolation
	// Logger gets one warning, the first time a command runs without the
	// isolation IsolateAuto asked for; nil means none.
	Logger *slog.Logger

	// Limits bound each confined command; zero fields take the defaults.
	Limits Limits
	// ExtraSystemPaths are folders every confined command reads besides
	// [DefaultSystemPaths] (an interpreter installed elsewhere, say).
	ExtraSystemPaths []string

	warned atomic.Bool
	// refuseNamespaces makes the kernel refuse the namespaces (tests).
	refuseNamespaces bool
}

var _ Runner = (*LocalRunner)(nil)

// errTimedOut is the cause of the run context when Command.Timeout passed.
var errTimedOut = errors.New("executor: command timed out")

// Run runs cmd; see [Runner] for the contract. With [IsolateRequired] the
// error wraps [ErrNoIsolation] when the command could not be isolated.
func (r *LocalRunner) Run(ctx context.Context, c Command) (Result, error) {
	if err := c.Validate(); err != nil {
		return Result{}, err
	}
	if !r.Isolation.valid() {
		return Result{}, fmt.Errorf("%w: unknown isolation mode %d", ErrInvalidCommand, int(r.Isolation))
	}
	c = c.withDefaults()
	if err := ctx.Err(); err != nil {
		return Result{}, fmt.Errorf("executor: run %s: %w", c.Path, err)
	}
	path, err := LookPath(c.Path, c.Env)
	if err != nil {
		return Result{}, fmt.Errorf("executor: run %s: %w", c.Path, err)
	}

	runCtx, cancel := context.WithTimeoutCause(ctx, c.Timeout, errTimedOut)
	defer cancel()
	p, err := newPipes(len(c.Stdin) > 0)
	if err != nil {
		return Result{}, fmt.Errorf("executor: run %s: %w", c.Path, err)
	}
	defer p.closeParent()

	start := time.Now()
	cmd, done, err := r.start(ctx, runCtx, path, c, p)
	p.closeChild() // the child holds its own copies now
	if err != nil {
		return Result{}, fmt.Errorf("executor: run %s: %w", c.Path, err)
	}
	defer done()
	stdout := newCapture(c.MaxStdout, false)
	stderr := newCapture(c.MaxStderr, true)
	ioDone := p.start(stdout, stderr, c.Stdin)

	_ = cmd.wait() // the outcome is in the state; an exit status is not an error here
	res := Result{Duration: time.Since(start), ExitCode: -1}
	if st := cmd.state(); st != nil {
		res.ExitCode = st.ExitCode()
	}
	_ = killGroup(cmd.process) // whatever the program left behind in its group
	select {
	case <-ioDone:
	case <-time.After(r.waitDelay()):
		// Someone outside the group still holds the pipes: stop reading.
		p.closeParent()
	case <-runCtx.Done():
		// The caller's context or the timeout ends the wait too.
		p.closeParent()
	}
	res.Stdout, res.StdoutTruncated = stdout.seal()
	res.Stderr, res.StderrTruncated = stderr.seal()

	if res.ExitCode == -1 {
		if err := ctx.Err(); err != nil {
			return res, fmt.Errorf("executor: run %s: %w", c.Path, err)
		}
		res.TimedOut = context.Cause(runCtx) == errTimedOut
	}
	return res, nil
}

// child is a started program, plain or confined.
type child struct {
	process *os.Process
	wait    func() error // as [exec.Cmd.Wait]
	state   func() *os.ProcessState
}

// start starts the program with the isolation r asks for. runCtx bounds the
// program (its whole process group); ctx (the caller's) goes to the
// warning. done runs after the wait.
func (r *LocalRunner) start(ctx, runCtx context.Context, path string, c Command, p *pipes) (ch child, done func(), err error) {
	nothing := func() {}
	if r.Isolation == IsolateOff || !canIsolate && r.Isolation == IsolateAuto {
		// The documented plain start: a process group of its own.
		cmd := exec.CommandContext(runCtx, path, c.Args...)
		cmd.SysProcAttr = &syscall.SysProcAttr{}
		setProcessGroup(cmd.SysProcAttr)
		cmd.Cancel = func() error { return killGroup(cmd.Process) }
		cmd.WaitDelay = r.waitDelay()
		cmd.Stdout, cmd.Stderr = p.childOut, p.childErr
		if p.childIn != nil { // else os/exec gives the child the null device
			cmd.Stdin = p.childIn
		}
		cmd.Dir = c.Dir
		cmd.Env = envList(c.Env)
		if err := cmd.Start(); err != nil {
			return child{}, nil, err
		}
		return child{cmd.Process, cmd.Wait, func() *os.ProcessState { return cmd.ProcessState }}, nothing, nil
	}
	cc, err := r.confined(runCtx, path, c)
	if err != nil {
		return child{}, nil, err
	}
	cc.Stdin, cc.Stdout, cc.Stderr = p.childIn, p.childOut, p.childErr
	if r.refuseNamespaces {
		confine.RefuseNamespaces(cc)
	}
	if err := cc.Start(); err != nil {
		if errors.Is(err, confine.ErrReduced) || errors.Is(err, confine.ErrUnsupported) {
			err = fmt.Errorf("%w: %w", ErrNoIsolation, err)
		}
		return child{}, nil, err
	}
	if len(cc.Reduced) > 0 && r.Logger != nil && !r.warned.Swap(true) {
		r.Logger.LogAttrs(ctx, slog.LevelWarn, "executor: commands run with less confinement than asked",
			slog.String("reason", "the kernel refused: "+strings.Join(cc.Reduced, "; ")),
			slog.String("effect", "see the table of docs/security.md for what each mechanism guards"),
			slog.String("remedy", "allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1 or user.max_user_namespaces) and Landlock (lsm=landlock), or use the sandbox runner; see docs/security.md"))
	}
	return child{cc.Process, cc.Wait, func() *os.ProcessState { return cc.ProcessState }}, cc.Close, nil
}

// confined prepares c's program under its confinement.
func (r *LocalRunner) confined(runCtx context.Context, path string, c Command) (*confine.Cmd, error) {
	dir := c.Dir
	if dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, err
		}
		dir = wd
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if !filepath.IsAbs(path) {
		path = filepath.Join(dir, path)
	}
	grant := c.Confine
	if grant == nil {
		grant = &Confinement{}
	}
	home := homeDir()
	spec := confine.Spec{
		Path:    path,
		Args:    c.Args,
		Env:     envList(c.Env),
		Dir:     dir,
		System:  append(append(DefaultSystemPaths(), r.ExtraSystemPaths...), programPaths(path, c.Env, home)...),
		Read:    grant.Read,
		Write:   grant.Write,
		Work:    grant.Work,
		Network: confine.Network{All: grant.Network.All},
		Limits:  confine.Limits(r.Limits),
		Strict:  r.Isolation == IsolateRequired,
	}
	if !grant.Network.All && len(grant.Network.Hosts) > 0 {
		spec.Network.Allow = grant.Network.AllowsHost
	}
	return confine.Prepare(runCtx, spec)
}

func (r *LocalRunner) waitDelay() time.Duration {
	if r == nil || r.WaitDelay <= 0 {
		return DefaultWaitDelay
	}
	return r.WaitDelay
}

// pipes are the three standard streams of one child. The parent ends are
// read (and written) by goroutines; the child ends are closed in the parent
// right after the start, so EOF comes when the last process holding them
// ends.
type pipes struct {
	childIn, childOut, childErr    *os.File
	parentIn, parentOut, parentErr *os.File
	closeOnce                      sync.Once
}

func newPipes(withStdin bool) (*pipes, error) {
	p := &pipes{}
	var err error
	if p.parentOut, p.childOut, err = os.Pipe(); err != nil {
		return nil, err
	}
	if p.parentErr, p.childErr, err = os.Pipe(); err != nil {
		p.closeChild()
		p.closeParent()
		return nil, err
	}
	if withStdin {
		if p.childIn, p.parentIn, err = os.Pipe(); err != nil {
			p.closeChild()
			p.closeParent()
			return nil, err
		}
	}
	return p, nil
}

// start copies stdin to the child and its output to the captures; the
// channel closes when all three are done.
func (p *pipes) start(stdout, stderr io.Writer, stdin []byte) <-chan struct{} {
	var wg sync.WaitGroup
	wg.Go(func() { _ = drain(stdout, p.parentOut) })
	wg.Go(func() { _ = drain(stderr, p.parentErr) })
	if p.parentIn != nil {
		wg.Go(func() {
			// A child that exits without reading its input is fine: the
			// write fails with EPIPE and is ignored.
			_, _ = p.parentIn.Write(stdin)
			_ = p.parentIn.Close()
		})
	}
	done := make(chan struct{})
	go func() {
		wg.Wait()
		close(done)
	}()
	return done
}

func (p *pipes) closeChild() {
	for _, f := range []*os.File{p.childIn, p.childOut, p.childErr} {
		if f != nil {
			_ = f.Close()
		}
	}
}

// closeParent closes the parent's ends, which stops the copying goroutines
// (a read or write on a closed file returns at once).
func (p *pipes) closeParent() {
	p.closeOnce.Do(func() {
		for _, f := range []*os.File{p.parentIn, p.parentOut, p.parentErr} {
			if f != nil {
				_ = f.Close()
			}
		}
	})
}

// envList turns the environment into KEY=value pairs, sorted. It is never
// nil: os/exec reads a nil Env as "inherit the host's environment".
func envList(env map[string]string) []string {
	list := make([]string, 0, len(env))
	for k, v := range env {
		list = append(list, k+"="+v)
	}
	slices.Sort(list)
	return list
}

// LookPath finds a program the way a [LocalRunner] does for a [Command]
// with this Env: a name with a path separator is returned as is; a bare
// name is looked up in the PATH of env when it has one (only absolute
// entries; relative ones are skipped, as os/exec does with exec.ErrDot),
// else in the host's PATH. The error wraps [os/exec.ErrNotFound] when there
// is no such program. Callers use it to tell whether a tool is installed
// before they plan a command around it.
func LookPath(name string, env map[string]string) (string, error) {
	if strings.ContainsRune(name, '/') || strings.ContainsRune(name, filepath.Separator) {
		return name, nil
	}
	pathList, ok := envLookup(env, "PATH")
	if !ok {
		return exec.LookPath(name)
	}
	for _, dir := range filepath.SplitList(pathList) {
		if !filepath.IsAbs(dir) {
			continue
		}
		if p, err := exec.LookPath(filepath.Join(dir, name)); err == nil {
			return p, nil
		}
	}
	return "", &exec.Error{Name: name, Err: exec.ErrNotFound}
}

// envLookup finds a variable; names are case-insensitive on Windows.
func envLookup(env map[string]string, name string) (string, bool) {
	if v, ok := env[name]; ok {
		return v, true
	}
	if runtime.GOOS == "windows" {
		for k, v := range env {
			if strings.EqualFold(k, name) {
				return v, true
			}
		}
	}
	return "", false
}

package executor

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Limits a [Command] gets when it leaves them at zero. Zero never means
// "unlimited".
const (
	DefaultCommandTimeout = 30 * time.Second
	DefaultMaxStdout      = 1 << 20  // 1 MiB
	DefaultMaxStderr      = 64 << 10 // 64 KiB
)

// Command is one program to run, without a shell.
type Command struct {
	// Path is the program. A name without a path separator is looked up in
	// the PATH of Env when Env sets one, else in the host's PATH; a relative
	// path with a separator is relative to Dir.
	Path string
	// Args are the arguments after the program name.
	Args []string
	// Dir is the working directory; empty means the host process's working
	// directory for a LocalRunner and the private temp folder for a
	// SandboxRunner.
	Dir string
	// Env is the complete environment of the program. A nil or empty map
	// means an empty environment: nothing is ever inherited from the host.
	// Names must be non-empty and hold neither '=' nor NUL; values no NUL.
	Env map[string]string
	// Stdin is the program's standard input; nil means empty input.
	Stdin []byte
	// Timeout bounds the run; zero means DefaultCommandTimeout. When it
	// passes, every process of the command is killed and Result.TimedOut
	// is set.
	Timeout time.Duration
	// MaxStdout caps the bytes of standard output kept (the first ones);
	// zero means DefaultMaxStdout. More output is read and discarded.
	MaxStdout int64
	// MaxStderr caps the bytes of standard error kept (the last ones,
	// where errors usually are); zero means DefaultMaxStderr.
	MaxStderr int64
	// Confine is what the program may reach beyond the system, its working
	// folder and its scratch space, when a [LocalRunner] confines it (the
	// default on Linux); nil grants nothing more. Runners that confine by
	// other means may read it too ([SandboxRunner] does).
	Confine *Confinement
}

// Result is what a command did.
type Result struct {
	Stdout []byte // the first MaxStdout bytes of standard output
	Stderr []byte // the last MaxStderr bytes of standard error
	// ExitCode is the program's exit status; -1 when it did not exit on its
	// own (killed by a signal, the timeout or a cancelled context).
	ExitCode        int
	Duration        time.Duration // from start to the end of the process
	TimedOut        bool          // Command.Timeout passed and the command was killed
	StdoutTruncated bool          // standard output was longer than MaxStdout
	StderrTruncated bool          // standard error was longer than MaxStderr
}

// Truncated reports whether either output stream was cut.
func (r Result) Truncated() bool { return r.StdoutTruncated || r.StderrTruncated }

// Runner runs commands: on this machine ([LocalRunner]), in a sandbox
// ([SandboxRunner]) or anywhere else a host chooses. Implementations must be
// safe for concurrent use and keep this contract, which the conformance suite
// in package executortest checks:
//
//   - The error is nil when the program ran and ended: on its own (any exit
//     code, reported in Result.ExitCode) or because Command.Timeout passed
//     (Result.TimedOut, ExitCode -1).
//   - The error wraps [ErrInvalidCommand] for a command that breaks the
//     rules of [Command], and the start error (for example
//     [os/exec.ErrNotFound]) when the program could not be started. The
//     Result is then zero.
//   - When ctx is done before the program ends, every process of the
//     command is killed and the error wraps ctx.Err(); the Result holds what
//     was captured so far.
//   - The environment is exactly Command.Env; no process the command
//     started outlives Run, as far as the platform allows (see the package
//     documentation).
type Runner interface {
	Run(ctx context.Context, cmd Command) (Result, error)
}

// RunnerFunc adapts a function to a [Runner].
type RunnerFunc func(ctx context.Context, cmd Command) (Result, error)

// Run calls f.
func (f RunnerFunc) Run(ctx context.Context, cmd Command) (Result, error) { return f(ctx, cmd) }

// Middleware wraps a Runner to change commands or results on their way:
// logging, extra limits, rewriting a command to run elsewhere.
type Middleware func(next Runner) Runner

// Chain wraps r in the middlewares; the first one is the outermost, so it
// sees each command first and each result last.
func Chain(r Runner, mws ...Middleware) Runner {
	for i := len(mws) - 1; i >= 0; i-- {
		r = mws[i](r)
	}
	return r
}

// ErrInvalidCommand is wrapped by the errors a Runner returns for a
// [Command] that breaks its rules.
var ErrInvalidCommand = errors.New("executor: invalid command")

// Validate checks cmd against the rules of [Command].
func (cmd *Command) Validate() error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s", ErrInvalidCommand, fmt.Sprintf(format, args...))
	}
	switch {
	case cmd.Path == "":
		return bad("empty program path")
	case strings.ContainsRune(cmd.Path, 0):
		return bad("the program path holds a NUL byte")
	case strings.ContainsRune(cmd.Dir, 0):
		return bad("the working directory holds a NUL byte")
	case cmd.Timeout < 0:
		return bad("negative timeout %v", cmd.Timeout)
	case cmd.MaxStdout < 0 || cmd.MaxStderr < 0:
		return bad("negative output limit")
	}
	for i, a := range cmd.Args {
		if strings.ContainsRune(a, 0) {
			return bad("argument %d holds a NUL byte", i+1)
		}
	}
	for k, v := range cmd.Env {
		if k == "" || strings.ContainsAny(k, "=\x00") {
			return bad("environment variable name %q must be non-empty without '=' or NUL", k)
		}
		if strings.ContainsRune(v, 0) {
			// Never print the value: it may be a secret.
			return bad("the value of environment variable %s holds a NUL byte", k)
		}
	}
	return nil
}

// withDefaults returns cmd with its zero limits replaced by the defaults.
func (cmd Command) withDefaults() Command {
	if cmd.Timeout == 0 {
		cmd.Timeout = DefaultCommandTimeout
	}
	if cmd.MaxStdout == 0 {
		cmd.MaxStdout = DefaultMaxStdout
	}
	if cmd.MaxStderr == 0 {
		cmd.MaxStderr = DefaultMaxStderr
	}
	return cmd
}

package executor

import (
	"errors"
	"fmt"
	"strings"

	"github.com/skillkit-go/skillkit/diagnostics"

	"github.com/skillkit-go/skillkit/internal/schema"
)

// Errors of [Executor.Execute] and [Executor.Check]; test them with
// errors.Is. The typed errors below wrap them.
var (
	// ErrNotFound: no skill has the name.
	ErrNotFound = errors.New("executor: skill not found")
	// ErrNotComputeEntry: the skill is a prompt or compute-toolkit skill;
	// only compute-entry skills run.
	ErrNotComputeEntry = errors.New("executor: not a compute-entry skill")
	// ErrNotRunnable is wrapped by [*NotRunnableError].
	ErrNotRunnable = errors.New("executor: skill cannot run")
	// ErrInvalidInput is wrapped by a [*SchemaError] about the input, and
	// by the errors for input that is too large or not JSON.
	ErrInvalidInput = errors.New("executor: invalid input")
	// ErrTimeout: the skill ran longer than its timeout and was killed.
	ErrTimeout = errors.New("executor: skill timed out")
	// ErrBadOutput: the skill exited with 0 but its standard output was not
	// exactly one JSON value within the output limit, or did not match
	// interface.output (then it is a [*SchemaError]).
	ErrBadOutput = errors.New("executor: bad output")
)

// NotRunnableError says why a skill cannot run before anything is started:
// a broken config, a missing entrypoint or runtime, missing .venv or
// node_modules, a required environment variable without a value, a skill
// that is not on disk.
type NotRunnableError struct {
	Skill string
	// Code is the diagnostic code of the cause (VENV_MISSING, DEPS_MISSING,
	// ENV_NOT_CONFIGURED, RUNTIME_UNAVAILABLE, ENTRYPOINT_MISSING,
	// CONFIG_PARSE_ERROR, SYMLINK_ESCAPE, READ_ERROR).
	Code   diagnostics.Code
	Reason string
	// Env names the required environment variables that have no value
	// (ENV_NOT_CONFIGURED), sorted.
	Env []string
}

// Error says which skill cannot run, why, and the diagnostic code.
func (e *NotRunnableError) Error() string {
	return fmt.Sprintf("executor: skill %s cannot run (%s): %s", e.Skill, e.Code, e.Reason)
}

// Is makes the error match [ErrNotRunnable].
func (e *NotRunnableError) Is(target error) bool { return target == ErrNotRunnable }

// Problem is one way a JSON value breaks a schema: the JSON pointer (RFC
// 6901) of the offending value, or of the missing or unexpected property
// ("" is the whole value), and a message.
type Problem = schema.Problem

// SchemaError lists every problem of a skill's input (it wraps
// [ErrInvalidInput]) or output (it wraps [ErrBadOutput]) against the
// skill's interface schema, sorted by pointer.
type SchemaError struct {
	Skill    string
	Output   bool // the output broke interface.output; else the input broke interface.input
	Problems []Problem
}

// Error lists every problem as "POINTER: message", (root) for the whole
// value.
func (e *SchemaError) Error() string {
	var b strings.Builder
	if e.Output {
		fmt.Fprintf(&b, "executor: skill %s wrote output that does not match its interface.output:", e.Skill)
	} else {
		fmt.Fprintf(&b, "executor: invalid input for skill %s:", e.Skill)
	}
	for i, p := range e.Problems {
		if i > 0 {
			b.WriteByte(';')
		}
		ptr := p.Pointer
		if ptr == "" {
			ptr = "(root)"
		}
		fmt.Fprintf(&b, " %s: %s", ptr, p.Message)
	}
	return b.String()
}

// Unwrap returns ErrInvalidInput or ErrBadOutput.
func (e *SchemaError) Unwrap() error {
	if e.Output {
		return ErrBadOutput
	}
	return ErrInvalidInput
}

// ExitError is a skill that exited with a non-zero status.
type ExitError struct {
	Skill    string
	ExitCode int
	// Stderr is the end of the skill's standard error: the last
	// [StderrTailChars] characters, the skill's own secret values replaced
	// by [Redacted].
	Stderr string
}

// Error gives the exit code and the stderr tail.
func (e *ExitError) Error() string {
	if e.Stderr == "" {
		return fmt.Sprintf("skill %s failed with exit code %d and wrote nothing to stderr", e.Skill, e.ExitCode)
	}
	return fmt.Sprintf("skill %s failed with exit code %d: %s", e.Skill, e.ExitCode, e.Stderr)
}

package deps

import (
	"errors"

	"github.com/skillkit-go/skillkit/internal/skillsdir"
)

// Errors. Every error Install returns for one of these conditions wraps the
// sentinel, so errors.Is finds it.
var (
	// ErrInvalid: a dependency declaration was refused before anything ran:
	// an npm package or Python requirement that breaks the install-name
	// patterns, a requirements file with options or URLs, a package.json
	// dependency on git, a URL or a path outside the skill, a check command
	// with shell characters, a setup script outside the skill folder.
	ErrInvalid = errors.New("deps: invalid dependency declaration")
	// ErrFailed: a dependency command ran and failed, or timed out; the
	// error is a [*CommandError].
	ErrFailed = errors.New("deps: installing dependencies failed")
	// ErrNotAllowed: a setup script of a skill not installed from GitHub,
	// git or a ZIP; the dependencies of an agent-written skill without
	// InstallOptions.AllowAgentWritten.
	ErrNotAllowed = errors.New("deps: not allowed")
	// ErrNotInstalled: the skills folder holds no skill of that name.
	ErrNotInstalled = errors.New("deps: not installed")
	// ErrInvalidSkill: the skill does not load, or its skill.config.yaml
	// does not parse.
	ErrInvalidSkill = errors.New("deps: invalid skill")
)

// CommandError is a dependency command that ran and failed, or did not
// finish in time.
type CommandError struct {
	Step     Step   // StepPython, StepNode, StepDotnet or StepSetup
	Command  string // the program and its arguments, credentials masked (user info of URLs, secret options' values)
	ExitCode int    // -1 when it was killed
	TimedOut bool   // its timeout passed
	Output   string // the end of its standard error (or output), control characters escaped
}

// Error says which command failed and its last words.
func (e *CommandError) Error() string {
	return skillsdir.CommandFailure("deps: "+string(e.Step)+": "+e.Command, e.TimedOut, e.ExitCode, e.Output)
}

// Is makes errors.Is(err, ErrFailed) hold.
func (e *CommandError) Is(target error) bool { return target == ErrFailed }

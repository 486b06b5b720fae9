package installer

import (
	"errors"
	"fmt"
	"strings"

	"github.com/skillkit-go/skillkit/internal/archive"
)

// Errors. Every error the Installer returns for one of these conditions
// wraps the sentinel, so errors.Is finds it.
var (
	// ErrInvalidSource: the Source sets no kind or several, or its URL, ref
	// or subfolder is malformed (see the package documentation).
	ErrInvalidSource = errors.New("installer: invalid source")
	// ErrHostNotAllowed: a git URL whose host is not in Options.AllowedHosts,
	// or a file:// URL without Options.AllowFileURLs.
	ErrHostNotAllowed = errors.New("installer: host not allowed")
	// ErrRejected: the fetched tree failed the archive and folder checks
	// (unsafe names, links, limits, no SKILL.md, ...). The error also wraps
	// the check's own errors, which name each refused entry.
	ErrRejected = errors.New("installer: rejected")
	// ErrLimit: a limit of [Limits] was passed; such errors also wrap
	// ErrRejected.
	ErrLimit = archive.ErrLimit
	// ErrInvalidSkill: SKILL.md does not load (lenient), has no name, or its
	// name breaks the naming rules.
	ErrInvalidSkill = errors.New("installer: invalid skill")
	// ErrScanRejected: the Scanner refused the skill.
	ErrScanRejected = errors.New("installer: refused by the scanner")
	// ErrExists: a skill of that name is installed from another origin (or
	// was placed by hand) and the install was not forced.
	ErrExists = errors.New("installer: installed from another origin")
	// ErrModified: the installed files differ from the fingerprint recorded
	// at install (they were edited), and the replacement was not forced.
	ErrModified = errors.New("installer: installed files were changed since install")
	// ErrPinned: the skill is pinned; unpin it, or force an install.
	ErrPinned = errors.New("installer: skill is pinned")
	// ErrNotInstalled: no skill folder and no record by that name.
	ErrNotInstalled = errors.New("installer: not installed")
	// ErrNotUpdatable: the record names no origin that can be fetched again
	// (an agent-written skill, a ZIP given as a reader, a hand-placed skill).
	ErrNotUpdatable = errors.New("installer: no origin to update from")
	// ErrNoPurge: an uninstall asked to purge, but Options.Purge is nil.
	ErrNoPurge = errors.New("installer: purge asked but no purge hook configured")
	// ErrGit: git failed; the error is a [*GitError].
	ErrGit = errors.New("installer: git failed")
	// ErrInvalidDependency: a dependency declaration was refused before
	// anything ran: an npm package or Python requirement that breaks the
	// seed's patterns, a requirements file with options or URLs, a
	// package.json dependency on git, a URL or a path outside the skill, a
	// check command with shell characters, a setup script outside the
	// skill folder.
	ErrInvalidDependency = errors.New("installer: invalid dependency declaration")
	// ErrDeps: a dependency command ran and failed, or timed out; the error
	// is a [*DepsError].
	ErrDeps = errors.New("installer: installing dependencies failed")
	// ErrNotAllowed: the operation is not allowed for this skill: a setup
	// script of a skill not installed from GitHub, git or a ZIP; the
	// dependencies of an agent-written skill without
	// DepsOptions.AllowAgentWritten; an agent's change to a skill it did not
	// write without Options.AgentMayChangeInstalled; a change to a pinned
	// skill.
	ErrNotAllowed = errors.New("installer: not allowed")
	// ErrInvalidContent: what an agent asked to write breaks the rules of
	// Create and Edit (size, paths, frontmatter, name).
	ErrInvalidContent = errors.New("installer: invalid skill content")
)

// DepsError is a dependency command that ran and failed, or did not finish
// in time.
type DepsError struct {
	Step     Step   // StepPython, StepNode, StepDotnet or StepSetup
	Command  string // the program and its arguments, credentials masked (user info of URLs, secret options' values)
	ExitCode int    // -1 when it was killed
	TimedOut bool   // its timeout passed
	Output   string // the end of its standard error (or output), control characters escaped
}

// Error says which command failed and its last words.
func (e *DepsError) Error() string {
	return failure(fmt.Sprintf("%s: %s", e.Step, e.Command), e.TimedOut, e.ExitCode, e.Output)
}

// Is makes errors.Is(err, ErrDeps) hold.
func (e *DepsError) Is(target error) bool { return target == ErrDeps }

// GitError is a git command that ran and failed, or did not finish in time.
type GitError struct {
	Op       string // "clone", "ls-remote", "rev-parse"
	URL      string // the repository, as recorded
	ExitCode int    // -1 when it was killed
	TimedOut bool   // Options.GitTimeout passed
	Stderr   string // the end of git's standard error, control characters escaped
}

// Error says which command failed and git's last words.
func (e *GitError) Error() string {
	return failure(fmt.Sprintf("git %s %s", e.Op, e.URL), e.TimedOut, e.ExitCode, e.Stderr)
}

// failure says how a command ended: "WHAT: timed out" or "WHAT: exit
// status N", then its last words.
func failure(what string, timedOut bool, exitCode int, last string) string {
	var b strings.Builder
	b.WriteString(what)
	if timedOut {
		b.WriteString(": timed out")
	} else {
		fmt.Fprintf(&b, ": exit status %d", exitCode)
	}
	if last != "" {
		b.WriteString(": ")
		b.WriteString(last)
	}
	return b.String()
}

// Is makes errors.Is(err, ErrGit) hold.
func (e *GitError) Is(target error) bool { return target == ErrGit }

// rejected wraps a check's error with ErrRejected, keeping it visible to
// errors.Is and errors.As.
func rejected(err error) error {
	return fmt.Errorf("%w: %w", ErrRejected, err)
}

package installer

import (
	"errors"
	"fmt"

	"github.com/skillkit-go/skillkit/internal/archive"
	"github.com/skillkit-go/skillkit/internal/skillsdir"
	"github.com/skillkit-go/skillkit/registry"
	"github.com/skillkit-go/skillkit/scan"
	"github.com/skillkit-go/skillkit/skill"
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
	// ErrSeveralSkills: the source holds no skill at its top but several
	// below; [Installer.Skills] lists them, and Source.Subdir picks one.
	// Such errors also wrap ErrRejected.
	ErrSeveralSkills = errors.New("installer: the source holds several skills")
	// ErrLimit: a limit of [Limits] was passed; such errors also wrap
	// ErrRejected.
	ErrLimit = archive.ErrLimit
	// ErrInvalidSkill: SKILL.md does not load (lenient), has no name, or its
	// name breaks the naming rules.
	ErrInvalidSkill = errors.New("installer: invalid skill")
	// ErrScanRejected: the trust policy blocks the skill: the security scan
	// rated it dangerous (or, by the host's policy, caution) for the trust
	// of its source. Force does not change it; the error names the worst
	// findings.
	ErrScanRejected = errors.New("installer: refused by the security scan")
	// ErrNeedsConfirmation: the trust policy asks a person about the skill
	// (a community skill the scan rated caution, by default); install or
	// update it again with Confirmed once they said yes. The error names
	// the worst findings.
	ErrNeedsConfirmation = errors.New("installer: the security scan asks for a person's confirmation")
	// ErrFingerprintMismatch: InstallOptions.Fingerprint or
	// UpdateOptions.Fingerprint was set and the fetched files have another
	// fingerprint (the source changed since it was looked at); or a package
	// Sync fetched holds files whose fingerprint is not the one it is
	// stored and recorded under (its bytes were changed in the store).
	ErrFingerprintMismatch = errors.New("installer: the fetched files are not the ones expected")
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
	// ErrNoPackages: Sync on a skills folder that shares no package store
	// (skillkit.Options.Packages).
	ErrNoPackages = errors.New("installer: the skills folder shares no package store")
	// ErrBadSignature: the git commit or tag fetched carries a signature
	// that does not verify (tampered with, or not over that object), or the
	// Sigstore bundle published with a ZIP archive does not verify (for
	// other bytes, from another Sigstore instance, malformed). It is
	// always refused; the error names the object.
	ErrBadSignature = errors.New("installer: the publisher's signature does not verify")
	// ErrUnsigned: the source is among Options.RequireSigned and what was
	// fetched is not signed by a publisher of Options.Publishers.
	ErrUnsigned = errors.New("installer: no signature of a trusted publisher")
	// ErrGit: git failed; the error is a [*GitError].
	ErrGit = errors.New("installer: git failed")
)

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
	return skillsdir.CommandFailure(fmt.Sprintf("installer: git %s %s", e.Op, e.URL), e.TimedOut, e.ExitCode, e.Stderr)
}

// Is makes errors.Is(err, ErrGit) hold.
func (e *GitError) Is(target error) bool { return target == ErrGit }

// ScanError is the error of an install or update the trust policy refused
// (errors.Is finds [ErrScanRejected]) or holds for a person's confirmation
// ([ErrNeedsConfirmation]). It carries what a person needs to decide: every
// finding, and the origin that was fetched and scanned, so a caller that
// asks and tries again can pin the same commit (Record.Commit).
type ScanError struct {
	Record   registry.Record `json:"record"`   // the skill as fetched: name, source, commit, fingerprint
	Trust    scan.Trust      `json:"trust"`    // the trust of its source
	Decision scan.Decision   `json:"decision"` // scan.Block or scan.Ask
	Report   scan.Report     `json:"scan"`     // the verdict and every finding
	// Permissions are what the skill's processes may reach beyond their
	// folder; the confirmation grants them.
	Permissions skill.Permissions `json:"permissions"`
	// Widened lists what an update asks for beyond what the installed
	// version was granted.
	Widened []string `json:"widened,omitempty"`
	// Republished says how the publisher's signature of an update differs
	// from the installed version's.
	Republished string `json:"republished,omitempty"`
}

// Error names the skill, the decision and the worst findings.
func (e *ScanError) Error() string {
	a := skillsdir.Admission{Report: e.Report, Trust: e.Trust, Decision: e.Decision, Permissions: e.Permissions, Widened: e.Widened, Republished: e.Republished}
	return fmt.Sprintf("%v: %s: %s", e.sentinel(), e.Record.Name, a.Why())
}

// Unwrap returns ErrScanRejected or ErrNeedsConfirmation.
func (e *ScanError) Unwrap() error { return e.sentinel() }

func (e *ScanError) sentinel() error {
	if e.Decision == scan.Block {
		return ErrScanRejected
	}
	return ErrNeedsConfirmation
}

// rejected wraps a check's error with ErrRejected, keeping it visible to
// errors.Is and errors.As.
// severalError is the check's ErrNoSkillFile for a source holding skills
// in folders: it names them, and is ErrSeveralSkills too.
type severalError struct {
	err     error
	folders []string
}

func (e *severalError) Error() string {
	return fmt.Sprintf("%v; it holds %d skill%s, in %s: install one by its folder", e.err, len(e.folders), plural(len(e.folders)), listed(e.folders))
}

func (e *severalError) Unwrap() []error { return []error{e.err, ErrSeveralSkills} }

func rejected(err error) error {
	return fmt.Errorf("%w: %w", ErrRejected, err)
}

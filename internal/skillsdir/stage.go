package skillsdir

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/skillkit-go/skillkit/diagnostics"
	"github.com/skillkit-go/skillkit/internal/archive"
	"github.com/skillkit-go/skillkit/skill"
)

// CheckStaged applies the install rules to the lenient load of a staged
// skill: it must load, its frontmatter must name it, and the name must
// follow the specification's rule (skill.ValidateName). The caller wraps
// the error with its own sentinel.
func CheckStaged(s *skill.Skill, diags diagnostics.List) error {
	if s == nil {
		var msgs []string
		for _, d := range diags.AtLeast(diagnostics.Error) {
			msgs = append(msgs, d.Message)
		}
		return fmt.Errorf("SKILL.md does not load: %s", strings.Join(msgs, "; "))
	}
	if strings.TrimSpace(s.Frontmatter.Name) == "" {
		return errors.New("SKILL.md has no name; the name is required, it names the skill's folder")
	}
	return skill.ValidateName(s.Name)
}

// InstalledDiagnostics drops the name-versus-folder findings of a staged
// skill's load (the staging folder is not the skill's) and points paths
// into the installed folder dir.
func InstalledDiagnostics(diags diagnostics.List, dir string) diagnostics.List {
	var out diagnostics.List
	for _, d := range diags {
		if d.Code == diagnostics.NameMismatch {
			continue
		}
		if rest, ok := strings.CutPrefix(d.Path, TreeName); ok {
			d.Path = dir + filepath.FromSlash(rest)
		}
		out = append(out, d)
	}
	return out
}

// IsRefusal reports whether an error of the archive and folder checks is a
// refusal of what was checked (unsafe names, links, limits, a broken
// archive), rather than a failure to check it (a missing file, ctx done).
func IsRefusal(rep archive.Report, err error) bool {
	return rep.Err() != nil || errors.Is(err, archive.ErrNotZip) || errors.Is(err, archive.ErrSizeMismatch) ||
		errors.Is(err, archive.ErrCorrupt) || errors.Is(err, archive.ErrLimit)
}

// CommandFailure says how a command ended: "WHAT: timed out" or "WHAT: exit
// status N", then its last words.
func CommandFailure(what string, timedOut bool, exitCode int, last string) string {
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

package scan

import (
	"context"
	"fmt"
	"path"
	"path/filepath"

	"github.com/skillkit-go/skillkit/diagnostics"
	"github.com/skillkit-go/skillkit/skill"
)

// Checker reports a loaded skill's scan findings as diagnostics. It has
// the method set of loader.Checker, so a host adds it to
// loader.Options.Checkers and Doctor shows the findings of every skill,
// those placed by hand included:
//
//   - a finding about hidden characters (the unicode-* and control-char
//     rules) is UNICODE_HIDDEN, at least a warning when it is in SKILL.md
//     (its name, description or body), whatever the finding's severity;
//   - every other finding is SCAN_FINDING: an error when critical, a
//     warning when high, info when medium or low.
//
// Detail holds rule, severity, line, match and the skill's verdict. A skill
// that cannot be scanned gets READ_ERROR. The zero Checker scans with the
// default limits; it is safe for concurrent use.
type Checker struct {
	// Options are the scan's limits; nil means the defaults.
	Options *Options
}

// Check scans s and returns its findings as diagnostics, or nil when it has
// none. It returns nil when ctx ends.
func (c Checker) Check(ctx context.Context, s *skill.Skill) diagnostics.List {
	rep, err := Loaded(ctx, s, c.Options)
	if err != nil {
		if ctx.Err() != nil {
			return nil
		}
		return diagnostics.List{diagnostics.New(diagnostics.ReadError, s.Name, skillDir(s), "%v", err)}
	}
	var out diagnostics.List
	for _, f := range rep.Findings {
		code, level := diagnostics.ScanFinding, levelOf(f.Severity)
		if isUnicodeRule(f.Rule) {
			code = diagnostics.UnicodeHidden
			if isSkillFile(f.File) {
				level = max(level, diagnostics.Warning)
			}
		}
		msg := f.Message + " (" + f.Rule + ")"
		if f.Line > 0 {
			msg = fmt.Sprintf("line %d: %s", f.Line, msg)
		}
		if f.Match != "" {
			msg += ": " + f.Match
		}
		out = append(out, diagnostics.Diagnostic{
			Level: level, Code: code, Skill: s.Name, Message: msg, Path: filePath(s, f.File),
			Detail: map[string]any{"rule": f.Rule, "severity": f.Severity.String(), "line": f.Line, "match": f.Match,
				"verdict": rep.Verdict.String()},
		})
	}
	return out
}

// levelOf maps a severity to a diagnostic level.
func levelOf(s Severity) diagnostics.Level {
	switch s {
	case Critical:
		return diagnostics.Error
	case High:
		return diagnostics.Warning
	}
	return diagnostics.Info
}

func skillDir(s *skill.Skill) string {
	if s.DiskDir != "" {
		return s.DiskDir
	}
	return s.Dir
}

// filePath is where a finding's file is, as diagnostics show paths.
func filePath(s *skill.Skill, rel string) string {
	if rel == "" {
		return skillDir(s)
	}
	if s.DiskDir != "" {
		return filepath.Join(s.DiskDir, filepath.FromSlash(rel))
	}
	return path.Join(s.Dir, rel)
}

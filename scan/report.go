package scan

import (
	"fmt"
	"slices"
	"strings"

	"github.com/skillkit-go/skillkit/hidden"
)

// Severity is how much a finding weighs. Only High and Critical change a
// verdict (see [Verdict]); Low and Medium are reported for a reader.
type Severity uint8

// The severities, from least to most serious.
const (
	Low Severity = iota + 1
	Medium
	High
	Critical
)

var severityNames = []string{"", "low", "medium", "high", "critical"}

// String returns "low", "medium", "high" or "critical".
func (s Severity) String() string {
	if int(s) < len(severityNames) && s > 0 {
		return severityNames[s]
	}
	return fmt.Sprintf("severity(%d)", uint8(s))
}

// MarshalText writes the name.
func (s Severity) MarshalText() ([]byte, error) {
	if s < Low || s > Critical {
		return nil, fmt.Errorf("scan: invalid severity %d", uint8(s))
	}
	return []byte(s.String()), nil
}

// UnmarshalText reads a name written by MarshalText.
func (s *Severity) UnmarshalText(b []byte) error {
	i := slices.Index(severityNames, string(b))
	if i < 1 {
		return fmt.Errorf("scan: unknown severity %q", b)
	}
	*s = Severity(i)
	return nil
}

// Verdict is the scan's judgement on a whole skill.
type Verdict uint8

// The verdicts. The zero Verdict is Safe.
const (
	// Safe: no finding above Medium.
	Safe Verdict = iota
	// Caution: a High finding; a person should look before trusting it.
	Caution
	// Dangerous: a Critical finding, a pattern that is almost never benign.
	Dangerous
)

var verdictNames = []string{"safe", "caution", "dangerous"}

// String returns "safe", "caution" or "dangerous".
func (v Verdict) String() string {
	if int(v) < len(verdictNames) {
		return verdictNames[v]
	}
	return fmt.Sprintf("verdict(%d)", uint8(v))
}

// MarshalText writes the name.
func (v Verdict) MarshalText() ([]byte, error) {
	if int(v) >= len(verdictNames) {
		return nil, fmt.Errorf("scan: invalid verdict %d", uint8(v))
	}
	return []byte(v.String()), nil
}

// UnmarshalText reads a name written by MarshalText.
func (v *Verdict) UnmarshalText(b []byte) error {
	i := slices.Index(verdictNames, string(b))
	if i < 0 {
		return fmt.Errorf("scan: unknown verdict %q", b)
	}
	*v = Verdict(i)
	return nil
}

// ParseVerdict reads "safe", "caution" or "dangerous".
func ParseVerdict(s string) (Verdict, error) {
	var v Verdict
	err := v.UnmarshalText([]byte(s))
	return v, err
}

// verdictOf turns the worst severity into a verdict.
func verdictOf(findings []Finding) Verdict {
	v := Safe
	for _, f := range findings {
		switch f.Severity {
		case Critical:
			return Dangerous
		case High:
			v = Caution
		}
	}
	return v
}

// Context is where in a skill a finding was made; it is part of how much the
// finding weighs (see the package documentation).
type Context string

// The contexts.
const (
	// CtxFrontmatter: the YAML frontmatter of SKILL.md (the description is
	// shown to the model). Weighs as instructions.
	CtxFrontmatter Context = "frontmatter"
	// CtxInstructions: the prose of SKILL.md, what the model follows.
	CtxInstructions Context = "instructions"
	// CtxCode: code in SKILL.md (fenced blocks and inline code), what the
	// model runs when it follows the instructions.
	CtxCode Context = "code"
	// CtxComment: an HTML comment in a Markdown file, which a person reading
	// the rendered page does not see and the model does.
	CtxComment Context = "comment"
	// CtxDocs: the prose of other documents (references, notes).
	CtxDocs Context = "docs"
	// CtxDocCode: code in other documents.
	CtxDocCode Context = "doc_code"
	// CtxScript: a program: a script by extension or #! line, the
	// entrypoint, a setup script.
	CtxScript Context = "script"
	// CtxConfig: skill.config.yaml, package.json, requirements files and
	// other install-time configuration, whose commands run.
	CtxConfig Context = "config"
	// CtxData: any other file (assets, data, templates).
	CtxData Context = "data"
	// CtxFile: a finding about a whole file (a binary, a link, a limit).
	CtxFile Context = "file"
)

// Finding is one rule that matched.
type Finding struct {
	// Rule is the rule's stable id (the package documentation lists them).
	Rule     string   `json:"rule"`
	Severity Severity `json:"severity"`
	// File is the slash path of the file within the skill folder.
	File string `json:"file"`
	// Line is the 1-based line of the match; 0 for a finding about a whole
	// file or about the skill.
	Line int `json:"line"`
	// Match is the text that matched, shortened to at most 120 characters,
	// on one line, with control and hidden characters made visible.
	Match string `json:"match"`
	// Message says what the rule found, in a sentence.
	Message string  `json:"message"`
	Context Context `json:"context"`
}

// String formats the finding on one line, with every part made visible.
func (f Finding) String() string {
	loc := f.File
	if f.Line > 0 {
		loc = fmt.Sprintf("%s:%d", f.File, f.Line)
	}
	s := fmt.Sprintf("%s %s %s: %s", f.Severity, f.Rule, Visible(loc), Visible(f.Message))
	if f.Match != "" {
		s += ": " + Visible(f.Match)
	}
	return s
}

// Report is the result of scanning one skill.
type Report struct {
	// Name is the skill's name, or its folder's name when SKILL.md cannot
	// be read.
	Name string `json:"name"`
	// Path is the skill folder: its OS path when scanned from disk, else its
	// slash path in its file system.
	Path     string    `json:"path"`
	Verdict  Verdict   `json:"verdict"`
	Findings []Finding `json:"findings"`
	// Files and Bytes count what was read.
	Files int   `json:"files"`
	Bytes int64 `json:"bytes"`
}

// Worst returns the findings at the report's worst severity.
func (r Report) Worst() []Finding {
	var worst Severity
	for _, f := range r.Findings {
		worst = max(worst, f.Severity)
	}
	var out []Finding
	for _, f := range r.Findings {
		if f.Severity == worst {
			out = append(out, f)
		}
	}
	return out
}

// sortFindings orders findings by file, line, rule; the same rule on the
// same line is reported once, at its highest severity.
func sortFindings(fs []Finding) []Finding {
	slices.SortFunc(fs, func(a, b Finding) int {
		if c := strings.Compare(a.File, b.File); c != 0 {
			return c
		}
		if a.Line != b.Line {
			return a.Line - b.Line
		}
		if c := strings.Compare(a.Rule, b.Rule); c != 0 {
			return c
		}
		return int(b.Severity) - int(a.Severity)
	})
	return slices.CompactFunc(fs, func(a, b Finding) bool {
		return a.File == b.File && a.Line == b.Line && a.Rule == b.Rule
	})
}

// Visible returns s on one line with every control and hidden character
// made visible: tab, line feed and carriage return as \t, \n and \r, and the
// others as hidden.Mark marks them. Skill text printed to a terminal or
// a log goes through it.
func Visible(s string) string {
	s = hidden.Mark(s)
	if !strings.ContainsAny(s, "\t\n\r") {
		return s
	}
	return lineEscaper.Replace(s)
}

var lineEscaper = strings.NewReplacer("\t", `\t`, "\n", `\n`, "\r", `\r`)

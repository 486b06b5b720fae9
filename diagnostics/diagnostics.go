package diagnostics

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// Level is the severity of a diagnostic. Levels are ordered: Info < Warning <
// Error, so a filter can ask for "at least a warning".
type Level int

// The three levels, in increasing severity.
const (
	Info Level = iota + 1
	Warning
	Error
)

// String returns "info", "warning" or "error".
func (l Level) String() string {
	switch l {
	case Info:
		return "info"
	case Warning:
		return "warning"
	case Error:
		return "error"
	}
	return fmt.Sprintf("Level(%d)", int(l))
}

// ParseLevel reads "error", "warning" or "info" (case-insensitive).
func ParseLevel(s string) (Level, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "info":
		return Info, nil
	case "warning", "warn":
		return Warning, nil
	case "error":
		return Error, nil
	}
	return 0, fmt.Errorf("diagnostics: unknown level %q (want error, warning or info)", s)
}

// MarshalText encodes the level as its name.
func (l Level) MarshalText() ([]byte, error) {
	switch l {
	case Info, Warning, Error:
		return []byte(l.String()), nil
	}
	return nil, fmt.Errorf("diagnostics: cannot marshal invalid level %d", int(l))
}

// UnmarshalText decodes a level name.
func (l *Level) UnmarshalText(text []byte) error {
	v, err := ParseLevel(string(text))
	if err != nil {
		return err
	}
	*l = v
	return nil
}

// Diagnostic is one finding about a skill.
type Diagnostic struct {
	Level   Level          `json:"level"`
	Code    Code           `json:"code"`
	Skill   string         `json:"skill"`
	Message string         `json:"message"`
	Path    string         `json:"path,omitempty"`
	Detail  map[string]any `json:"detail,omitempty"`
}

// New returns a diagnostic at the code's default level.
func New(code Code, skill, path, format string, args ...any) Diagnostic {
	return Diagnostic{
		Level:   code.Level(),
		Code:    code,
		Skill:   skill,
		Message: fmt.Sprintf(format, args...),
		Path:    path,
	}
}

// With returns a copy of d with key set to value in its detail.
func (d Diagnostic) With(key string, value any) Diagnostic {
	detail := make(map[string]any, len(d.Detail)+1)
	for k, v := range d.Detail {
		detail[k] = v
	}
	detail[key] = value
	d.Detail = detail
	return d
}

// At returns a copy of d at level l.
func (d Diagnostic) At(l Level) Diagnostic {
	d.Level = l
	return d
}

// String formats the diagnostic as one line:
// "path: level CODE skill: message", or "path:line: ..." when the detail
// holds the line of the file concerned ("line", counted from 1).
func (d Diagnostic) String() string {
	var b strings.Builder
	if d.Path != "" {
		b.WriteString(d.Path)
		if line := d.Line(); line > 0 {
			fmt.Fprintf(&b, ":%d", line)
		}
		b.WriteString(": ")
	}
	b.WriteString(d.Level.String())
	b.WriteByte(' ')
	b.WriteString(string(d.Code))
	if d.Skill != "" {
		b.WriteByte(' ')
		b.WriteString(d.Skill)
	}
	b.WriteString(": ")
	b.WriteString(d.Message)
	return b.String()
}

// Line returns the line of the file the diagnostic is about, from the
// detail's "line" (an int, or a float64 once read back from JSON); 0 when it
// has none.
func (d Diagnostic) Line() int {
	switch v := d.Detail["line"].(type) {
	case int:
		return v
	case float64:
		return int(v)
	}
	return 0
}

// List is an ordered collection of diagnostics. A nil List is empty and ready
// to use. Filters return new lists and never modify the receiver.
type List []Diagnostic

// Filter returns the diagnostics for which keep returns true.
func (l List) Filter(keep func(Diagnostic) bool) List {
	var out List
	for _, d := range l {
		if keep(d) {
			out = append(out, d)
		}
	}
	return out
}

// AtLeast returns the diagnostics whose level is min or more severe.
func (l List) AtLeast(min Level) List {
	return l.Filter(func(d Diagnostic) bool { return d.Level >= min })
}

// ForSkill returns the diagnostics about the named skill.
func (l List) ForSkill(name string) List {
	return l.Filter(func(d Diagnostic) bool { return d.Skill == name })
}

// WithCode returns the diagnostics with any of the given codes.
func (l List) WithCode(codes ...Code) List {
	return l.Filter(func(d Diagnostic) bool { return slices.Contains(codes, d.Code) })
}

// Has reports whether the list holds a diagnostic with the code.
func (l List) Has(code Code) bool {
	return slices.ContainsFunc(l, func(d Diagnostic) bool { return d.Code == code })
}

// HasErrors reports whether the list holds an error-level diagnostic.
func (l List) HasErrors() bool {
	return slices.ContainsFunc(l, func(d Diagnostic) bool { return d.Level >= Error })
}

// Sorted returns a copy sorted by skill, path, level (most severe first),
// code and message. Equal diagnostics keep their order, so the result is
// deterministic for a deterministic input.
func (l List) Sorted() List {
	out := slices.Clone(l)
	slices.SortStableFunc(out, compare)
	return out
}

func compare(a, b Diagnostic) int {
	return cmp.Or(
		cmp.Compare(a.Skill, b.Skill),
		cmp.Compare(a.Path, b.Path),
		cmp.Compare(b.Level, a.Level),
		cmp.Compare(a.Code, b.Code),
		cmp.Compare(a.Message, b.Message),
	)
}

// MarshalJSON encodes a nil list as [] rather than null, so consumers always
// get an array.
func (l List) MarshalJSON() ([]byte, error) {
	if l == nil {
		return []byte("[]"), nil
	}
	return json.Marshal([]Diagnostic(l))
}

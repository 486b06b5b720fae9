package skill

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/skillkit-go/skillkit/diagnostics"
)

// fieldReader reads typed values out of decoded YAML or JSON (map[string]any,
// []any, string, bool, float64, int64, nil) and records a diagnostic for each
// value of the wrong shape, which is then ignored.
type fieldReader struct {
	diags *diagnostics.List
	code  diagnostics.Code  // FieldInvalid for SKILL.md, ConfigParseError for the config
	level diagnostics.Level // the level of code in this mode
}

func (r *fieldReader) invalid(field, format string, args ...any) {
	d := diagnostics.New(r.code, "", "", "%s: %s", field, fmt.Sprintf(format, args...)).At(r.level)
	*r.diags = append(*r.diags, d.With("field", field))
}

func describe(v any) string {
	switch v {
	case nil:
		return "empty"
	case "":
		return "an empty string"
	}
	switch v.(type) {
	case map[string]any:
		return "a mapping"
	case []any:
		return "a list"
	case bool:
		return "a boolean"
	case float64, int64, int:
		return "a number"
	}
	return "a string"
}

// scalarText returns the text of a scalar, whatever its decoded type.
func scalarText(v any) (string, bool) {
	switch x := v.(type) {
	case string:
		return x, true
	case bool:
		return strconv.FormatBool(x), true
	case int64:
		return strconv.FormatInt(x, 10), true
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64), true
	}
	return "", false
}

// str reads a scalar as text; absent (nil) is "" without a diagnostic.
func (r *fieldReader) str(field string, v any) string {
	if v == nil {
		return ""
	}
	s, ok := scalarText(v)
	if !ok {
		r.invalid(field, "want a string, got %s", describe(v))
	}
	return s
}

// list reads a list of strings. A single string is accepted as a list split at
// commas (and, when spaces is true, at white space outside parentheses).
func (r *fieldReader) list(field string, v any, spaces bool) []string {
	switch x := v.(type) {
	case nil:
		return nil
	case []any:
		out := make([]string, 0, len(x))
		for i, item := range x {
			s, ok := scalarText(item)
			if !ok {
				r.invalid(fmt.Sprintf("%s[%d]", field, i), "want a string, got %s", describe(item))
				continue
			}
			if s = strings.TrimSpace(s); s != "" {
				out = append(out, s)
			}
		}
		return out
	}
	s, ok := scalarText(v)
	if !ok {
		r.invalid(field, "want a list of strings, got %s", describe(v))
		return nil
	}
	return splitList(s, spaces)
}

// splitList splits at commas, and at white space too when spaces is set,
// ignoring separators inside parentheses so "Bash(git add:*)" stays whole.
func splitList(s string, spaces bool) []string {
	var out []string
	depth, start := 0, 0
	flush := func(end int) {
		if t := strings.TrimSpace(s[start:end]); t != "" {
			out = append(out, t)
		}
	}
	for i, c := range s {
		switch {
		case c == '(':
			depth++
		case c == ')' && depth > 0:
			depth--
		case depth == 0 && (c == ',' || spaces && (c == ' ' || c == '\t' || c == '\n')):
			flush(i)
			start = i + 1
		}
	}
	flush(len(s))
	return out
}

// boolean reads true/false (and the YAML 1.1 spellings yes/no/on/off).
func (r *fieldReader) boolean(field string, v any) bool {
	switch x := v.(type) {
	case nil:
		return false
	case bool:
		return x
	case string:
		switch strings.ToLower(strings.TrimSpace(x)) {
		case "true", "yes", "on", "y":
			return true
		case "false", "no", "off", "n", "":
			return false
		}
	}
	r.invalid(field, "want true or false, got %s", quoteValue(v))
	return false
}

func (r *fieldReader) mapping(field string, v any) map[string]any {
	switch x := v.(type) {
	case nil:
		return nil
	case map[string]any:
		return x
	case string:
		// OpenClaw writes metadata as a JSON string; accept a JSON object.
		if t := strings.TrimSpace(x); strings.HasPrefix(t, "{") {
			var m map[string]any
			if err := json.Unmarshal([]byte(t), &m); err == nil {
				return m
			}
			r.invalid(field, "holds a string that is not a valid JSON object")
			return nil
		}
	}
	r.invalid(field, "want a mapping, got %s", describe(v))
	return nil
}

func quoteValue(v any) string {
	if s, ok := scalarText(v); ok {
		return strconv.Quote(s)
	}
	return describe(v)
}

// appendUnique appends the items of add not yet in list.
func appendUnique(list []string, add ...string) []string {
	for _, s := range add {
		if !slices.Contains(list, s) {
			list = append(list, s)
		}
	}
	return list
}

func firstNonEmpty(values ...string) string {
	for _, v := range values {
		if v != "" {
			return v
		}
	}
	return ""
}

package toolpolicy

import (
	"fmt"
	"strings"
)

// Rule is one entry of allowed-tools: a tool and, when Scoped, what of it.
type Rule struct {
	// Tool is the tool's name ("Bash", "Read", "mcp__github").
	Tool string
	// Specifier is the text between the parentheses.
	Specifier string
	// Scoped says the rule had parentheses; Tool(*) is not scoped.
	Scoped bool
}

// String is the rule as written.
func (r Rule) String() string {
	if !r.Scoped {
		return r.Tool
	}
	return r.Tool + "(" + r.Specifier + ")"
}

// ParseRule reads one rule.
func ParseRule(s string) (Rule, error) {
	s = strings.TrimSpace(s)
	open := strings.IndexByte(s, '(')
	if open < 0 {
		if err := checkToolName(s); err != nil {
			return Rule{}, fmt.Errorf("toolpolicy: rule %q: %w", s, err)
		}
		return Rule{Tool: s}, nil
	}
	if !strings.HasSuffix(s, ")") {
		return Rule{}, fmt.Errorf("toolpolicy: rule %q: no closing parenthesis at the end", s)
	}
	tool, spec := s[:open], s[open+1:len(s)-1]
	if err := checkToolName(tool); err != nil {
		return Rule{}, fmt.Errorf("toolpolicy: rule %q: %w", s, err)
	}
	if strings.TrimSpace(spec) == "" {
		return Rule{}, fmt.Errorf("toolpolicy: rule %q: empty parentheses", s)
	}
	if spec == "*" {
		return Rule{Tool: tool}, nil
	}
	return Rule{Tool: tool, Specifier: spec, Scoped: true}, nil
}

// ParseRules reads a skill's allowed-tools; the entries that do not parse
// are left out (a rule that cannot be read allows nothing) and reported.
func ParseRules(list []string) ([]Rule, []error) {
	var rules []Rule
	var errs []error
	for _, s := range list {
		r, err := ParseRule(s)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		rules = append(rules, r)
	}
	return rules, errs
}

func checkToolName(name string) error {
	if name == "" {
		return fmt.Errorf("no tool name")
	}
	for _, r := range name {
		ok := r == '_' || r == '-' || r == '.' || r == '*' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
		if !ok {
			return fmt.Errorf("tool name %q holds %q", name, r)
		}
	}
	if strings.Contains(name, "*") && !(strings.HasPrefix(name, "mcp__") && strings.HasSuffix(name, "__*") && strings.Count(name, "*") == 1) {
		return fmt.Errorf("tool name %q: a * belongs only at the end of mcp__server__*", name)
	}
	return nil
}

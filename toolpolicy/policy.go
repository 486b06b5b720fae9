package toolpolicy

import (
	"net/url"
	"slices"
	"strings"
	"sync"

	"github.com/skillkit-go/skillkit/skill"
)

// Mode is how a [Policy] uses the active skills' allowed tools.
type Mode int

const (
	// PreApprove lets matching calls skip the host's confirmation and
	// leaves every other call to the host, as Claude Code does.
	PreApprove Mode = iota
	// Restrict also refuses, while a skill that lists allowed tools is
	// active, every call that none of the active skills allows (the
	// host's Exempt tools aside).
	Restrict
)

// Decision is what a [Policy] says about one call.
type Decision int

const (
	// Ask leaves the call to the host's usual checks.
	Ask Decision = iota
	// Allow says an active skill pre-approves the call.
	Allow
	// Deny refuses the call: in the restrict mode, no active skill allows
	// it.
	Deny
)

// String names the decision.
func (d Decision) String() string {
	switch d {
	case Allow:
		return "allow"
	case Deny:
		return "deny"
	}
	return "ask"
}

// Call is one call of a host's tool, as the policy judges it.
type Call struct {
	// Tool is the tool's name as rules name it ("Bash", "Read", "Edit",
	// "Write", "WebFetch", "mcp__server__tool", or the host's own).
	Tool string
	// Command is a shell tool's command line.
	Command string
	// Path is the file a file tool reads or changes, absolute or relative
	// to the policy's Dir.
	Path string
	// URL is what a fetch tool requests.
	URL string
	// Arg is what any other tool's Tool(specifier) rules are matched
	// against (* is any text).
	Arg string
}

// shellTools, fileTools and fetchTools are the rule names whose
// specifiers mean a command, a path and a domain.
var (
	shellTools = []string{"Bash", "Shell", "PowerShell"}
	fileTools  = []string{"Read", "Edit", "Write", "MultiEdit", "NotebookEdit", "Glob", "Grep", "LS"}
	fetchTools = []string{"WebFetch"}
)

// Policy holds the allowed tools of the active skills. The zero value is
// usable (pre-approve, no working folder: path rules relative to it never
// match). It is safe for concurrent use.
type Policy struct {
	// Mode is PreApprove or Restrict.
	Mode Mode
	// Dir is the working folder: relative paths of calls, and ./ rules,
	// are relative to it.
	Dir string
	// Home is the user's home, for ~/ rules.
	Home string
	// Exempt are tools the restrict mode never refuses: the skill tools
	// themselves (read_skill, ...) should be, so that the model can read
	// and leave a skill.
	Exempt []string

	mu     sync.Mutex
	active map[string]activeSkill
}

type activeSkill struct {
	root  string
	rules []Rule
}

// Activate makes s's allowed tools count. It returns the entries that do
// not parse; they allow nothing.
func (p *Policy) Activate(s *skill.Skill) []error {
	rules, errs := ParseRules(s.Frontmatter.AllowedTools)
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.active == nil {
		p.active = map[string]activeSkill{}
	}
	p.active[s.Name] = activeSkill{root: s.DiskDir, rules: rules}
	return errs
}

// Deactivate ends a skill's allowed tools.
func (p *Policy) Deactivate(name string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.active, name)
}

// Active lists the active skills, sorted.
func (p *Policy) Active() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	names := make([]string, 0, len(p.active))
	for n := range p.active {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// Decide says what the active skills make of c, and which skill's rule
// allowed it (empty otherwise).
func (p *Policy) Decide(c Call) (Decision, string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	restricting := false
	names := make([]string, 0, len(p.active))
	for n := range p.active {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		a := p.active[n]
		if len(a.rules) > 0 {
			restricting = true
		}
		if p.allows(a, c) {
			return Allow, n
		}
	}
	if p.Mode == Restrict && restricting && !slices.Contains(p.Exempt, c.Tool) {
		return Deny, ""
	}
	return Ask, ""
}

// allows reports whether one of a's rules covers the whole call.
func (p *Policy) allows(a activeSkill, c Call) bool {
	if slices.Contains(shellTools, c.Tool) {
		parts, ok := splitCommand(c.Command)
		if !ok || len(parts) == 0 {
			return false
		}
		for _, part := range parts {
			if !slices.ContainsFunc(a.rules, func(r Rule) bool { return r.Tool == c.Tool && (!r.Scoped || matchCommand(r.Specifier, part)) }) {
				return false
			}
		}
		return true
	}
	return slices.ContainsFunc(a.rules, func(r Rule) bool { return p.matches(r, a.root, c) })
}

func (p *Policy) matches(r Rule, root string, c Call) bool {
	if strings.HasPrefix(r.Tool, "mcp__") && !r.Scoped {
		server := strings.TrimSuffix(r.Tool, "__*")
		if strings.Count(server, "__") == 1 {
			return c.Tool == server || strings.HasPrefix(c.Tool, server+"__")
		}
		return c.Tool == r.Tool
	}
	if r.Tool != c.Tool {
		return false
	}
	if !r.Scoped {
		return true
	}
	switch {
	case slices.Contains(fileTools, c.Tool):
		target, ok := absolute(c.Path, p.Dir)
		if !ok {
			return false
		}
		pattern, ok := compilePath(r.Specifier, p.Dir, root, p.Home)
		return ok && pattern.matches(target)
	case slices.Contains(fetchTools, c.Tool):
		domain, ok := strings.CutPrefix(r.Specifier, "domain:")
		if !ok {
			return false
		}
		u, err := url.Parse(c.URL)
		if err != nil || u.Hostname() == "" {
			return false
		}
		host := strings.ToLower(strings.TrimSuffix(u.Hostname(), "."))
		domain = strings.ToLower(domain)
		if sub, ok := strings.CutPrefix(domain, "*."); ok {
			return strings.HasSuffix(host, "."+sub)
		}
		return host == domain
	}
	return wildcard(r.Specifier, c.Arg)
}

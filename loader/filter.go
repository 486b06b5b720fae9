package loader

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strings"

	"github.com/skillkit-go/skillkit/skill"
)

// Env is what the host tells Filter about one agent and the machine.
type Env struct {
	// Tools are the names of the agent's tools ("bash", "web_search").
	Tools []string
	// Toolsets are the names of the agent's toolsets (Hermes).
	Toolsets []string
	// OS is a GOOS value; empty means runtime.GOOS.
	OS string
	// Skills is the agent's allowlist of skill names. Nil means every skill;
	// an empty, non-nil list means none.
	Skills []string
	// LookPath reports whether a program is installed. Nil means
	// exec.LookPath on this machine.
	LookPath func(bin string) bool
	// LookupEnv reports an environment variable's value. Nil means
	// os.LookupEnv.
	LookupEnv func(name string) (string, bool)
	// SkillEnv reports whether a skill will have a variable of its own when
	// it runs (a saved secret), which satisfies requires.env as well as the
	// host's environment does. Nil means skills have none; the Kit answers
	// from its secrets vault.
	SkillEnv func(skillName, variable string) bool
	// HasConfig reports whether an OpenClaw host configuration path is set
	// (metadata.openclaw.requires.config). Nil means the host has no such
	// configuration, and the rule is not applied.
	HasConfig func(path string) bool
}

// Rule names a visibility rule.
type Rule string

// The visibility rules, in the order Filter applies them.
const (
	RuleDisabled            Rule = "disabled"              // the registry record is disabled
	RuleNotAllowed          Rule = "not_allowed"           // not in the agent's allowlist
	RuleRequiresTools       Rule = "requires_tools"        // a required tool is missing
	RuleFallbackForTools    Rule = "fallback_for_tools"    // a tool it stands in for is present
	RuleRequiresToolsets    Rule = "requires_toolsets"     // a required toolset is missing
	RuleFallbackForToolsets Rule = "fallback_for_toolsets" // a toolset it stands in for is present
	RuleBins                Rule = "bins"                  // a required program is not installed
	RuleAnyBins             Rule = "any_bins"              // none of the alternative programs is installed
	RuleEnv                 Rule = "env"                   // a required environment variable is not set
	RuleOS                  Rule = "os"                    // the skill does not support this OS
	RuleConfig              Rule = "config"                // a required host configuration is not set
	RuleModelInvocation     Rule = "disable_model_invocation"
)

// Reason says why a skill is hidden from an agent.
type Reason struct {
	Rule    Rule     `json:"rule"`
	Message string   `json:"message"`
	Items   []string `json:"items,omitempty"` // the tools, programs or variables concerned
}

// Hidden is a skill an agent does not see in its catalog, and why. A skill
// hidden only by disable-model-invocation is still Readable by name.
type Hidden struct {
	Skill    *skill.Skill `json:"-"`
	Name     string       `json:"name"`
	Readable bool         `json:"readable"`
	Reasons  []Reason     `json:"reasons"`
}

// Visibility is what one agent sees of a snapshot.
type Visibility struct {
	// Catalog holds the skills the agent is offered, sorted by name.
	Catalog []*skill.Skill
	// Hidden holds every other skill with its reasons, sorted by name.
	Hidden []Hidden

	readable map[string]*skill.Skill
}

// Get returns a skill the agent may read by name: one in the catalog, or one
// hidden only by disable-model-invocation.
func (v *Visibility) Get(name string) (*skill.Skill, bool) {
	s, ok := v.readable[name]
	return s, ok
}

// Readable returns the skills the agent may read: the catalog and the
// hidden skills it may still read by name, sorted by name.
func (v *Visibility) Readable() []*skill.Skill {
	out := make([]*skill.Skill, 0, len(v.Catalog)+len(v.Hidden))
	out = append(out, v.Catalog...)
	for _, h := range v.Hidden {
		if h.Readable {
			out = append(out, h.Skill)
		}
	}
	slices.SortFunc(out, func(a, b *skill.Skill) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// Why returns the reasons a skill is hidden; false when it is in the
// catalog or unknown.
func (v *Visibility) Why(name string) ([]Reason, bool) {
	i := slices.IndexFunc(v.Hidden, func(h Hidden) bool { return h.Name == name })
	if i < 0 {
		return nil, false
	}
	return v.Hidden[i].Reasons, true
}

// Filter decides which skills the agent described by env sees. Rules, each
// giving a [Reason] when it hides a skill:
//
//   - disabled in the registry given to New: hidden;
//   - not in env.Skills, when that is not nil: hidden;
//   - conditions.requires_tools: every one must be in env.Tools;
//     conditions.fallback_for_tools: hidden when any is in env.Tools; the
//     same two for toolsets;
//   - requires.bins: every program installed; requires.anyBins: at least one;
//     requires.env: every variable set and not empty (in the host's
//     environment, or the skill's own through env.SkillEnv); os: env.OS
//     listed; requires.config: every path set, when env.HasConfig is given;
//     OpenClaw's always: true skips these five machine checks (but not the
//     registry, the allowlist or the tool conditions);
//   - disable-model-invocation: left out of the catalog, still readable.
//
// Every failing rule is reported, not only the first. The error is the
// registry's, when it cannot be read.
func (s *Snapshot) Filter(ctx context.Context, env Env) (*Visibility, error) {
	disabled := map[string]bool{}
	if s.registry != nil {
		recs, err := s.registry.List(ctx)
		if err != nil {
			return nil, fmt.Errorf("loader: reading the registry: %w", err)
		}
		for _, r := range recs {
			if !r.Enabled {
				disabled[r.Name] = true
			}
		}
	}
	e := newEnvCheck(env)
	v := &Visibility{readable: map[string]*skill.Skill{}}
	for _, sk := range s.skills {
		reasons := e.reasons(sk, disabled[sk.Name])
		if len(reasons) == 0 {
			v.Catalog = append(v.Catalog, sk)
			v.readable[sk.Name] = sk
			continue
		}
		readable := len(reasons) == 1 && reasons[0].Rule == RuleModelInvocation
		if readable {
			v.readable[sk.Name] = sk
		}
		v.Hidden = append(v.Hidden, Hidden{Skill: sk, Name: sk.Name, Readable: readable, Reasons: reasons})
	}
	return v, nil
}

// envCheck answers the rules for one Filter call, remembering lookups.
type envCheck struct {
	env   Env
	tools map[string]bool
	sets  map[string]bool
	allow map[string]bool
	bins  map[string]bool
	os    string
}

func newEnvCheck(env Env) *envCheck {
	set := func(names []string) map[string]bool {
		m := make(map[string]bool, len(names))
		for _, n := range names {
			m[n] = true
		}
		return m
	}
	e := &envCheck{env: env, tools: set(env.Tools), sets: set(env.Toolsets), bins: map[string]bool{}, os: env.OS}
	if env.Skills != nil {
		e.allow = set(env.Skills)
	}
	if e.os == "" {
		e.os = runtime.GOOS
	}
	if e.env.LookPath == nil {
		e.env.LookPath = func(bin string) bool { _, err := exec.LookPath(bin); return err == nil }
	}
	if e.env.LookupEnv == nil {
		e.env.LookupEnv = os.LookupEnv
	}
	return e
}

func (e *envCheck) hasBin(bin string) bool {
	has, ok := e.bins[bin]
	if !ok {
		has = e.env.LookPath(bin)
		e.bins[bin] = has
	}
	return has
}

func (e *envCheck) hasEnv(skillName, name string) bool {
	if v, ok := e.env.LookupEnv(name); ok && v != "" {
		return true
	}
	return e.env.SkillEnv != nil && e.env.SkillEnv(skillName, name)
}

// machine applies the rules about this machine: programs, variables, OS and
// host configuration.
func (e *envCheck) machine(s *skill.Skill) []Reason {
	var out []Reason
	add := func(rule Rule, items []string, format string) {
		if len(items) > 0 {
			out = append(out, Reason{Rule: rule, Items: items, Message: fmt.Sprintf(format, strings.Join(items, ", "))})
		}
	}
	fm := s.Frontmatter
	r := fm.Requires
	add(RuleBins, filter(r.Bins, func(b string) bool { return !e.hasBin(b) }), "needs the programs %s, which are not installed")
	if len(r.AnyBins) > 0 && !slices.ContainsFunc(r.AnyBins, e.hasBin) {
		add(RuleAnyBins, r.AnyBins, "needs one of the programs %s; none is installed")
	}
	add(RuleEnv, filter(r.Env, func(n string) bool { return !e.hasEnv(s.Name, n) }), "needs the environment variables %s, which are not set")
	if len(fm.OS) > 0 && !slices.Contains(fm.OS, e.os) {
		out = append(out, Reason{Rule: RuleOS, Items: fm.OS,
			Message: fmt.Sprintf("supports %s, not %s", strings.Join(fm.OS, ", "), e.os)})
	}
	if e.env.HasConfig != nil {
		add(RuleConfig, filter(r.Config, func(p string) bool { return !e.env.HasConfig(p) }), "needs the host configuration %s, which is not set")
	}
	return out
}

func (e *envCheck) reasons(s *skill.Skill, disabled bool) []Reason {
	var out []Reason
	add := func(rule Rule, items []string, format string) {
		if len(items) > 0 {
			out = append(out, Reason{Rule: rule, Items: items, Message: fmt.Sprintf(format, strings.Join(items, ", "))})
		}
	}
	if disabled {
		out = append(out, Reason{Rule: RuleDisabled, Message: "disabled in the registry"})
	}
	if e.allow != nil && !e.allow[s.Name] {
		out = append(out, Reason{Rule: RuleNotAllowed, Message: "not among the agent's skills"})
	}
	fm := s.Frontmatter
	c := fm.Conditions
	add(RuleRequiresTools, missing(c.RequiresTools, e.tools), "needs the tools %s, which the agent does not have")
	add(RuleFallbackForTools, present(c.FallbackForTools, e.tools), "stands in for the tools %s, which the agent has")
	add(RuleRequiresToolsets, missing(c.RequiresToolsets, e.sets), "needs the toolsets %s, which the agent does not have")
	add(RuleFallbackForToolsets, present(c.FallbackForToolsets, e.sets), "stands in for the toolsets %s, which the agent has")
	if !fm.Always {
		out = append(out, e.machine(s)...)
	}
	if s.Hidden() {
		out = append(out, Reason{Rule: RuleModelInvocation, Message: "disable-model-invocation: left out of the catalog, readable by name"})
	}
	return out
}

func missing(names []string, have map[string]bool) []string {
	return filter(names, func(n string) bool { return !have[n] })
}

func present(names []string, have map[string]bool) []string {
	return filter(names, func(n string) bool { return have[n] })
}

func filter(names []string, keep func(string) bool) []string {
	var out []string
	for _, n := range names {
		if keep(n) {
			out = append(out, n)
		}
	}
	return out
}

package executor

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/skillkit-go/skillkit/skill"
)

// DefaultEnvWhitelist returns the names of the host variables a skill sees
// (docs/protocol.md): where programs are, who and where the user is, language,
// time zone, temp folders and proxies. Nothing else of the host's
// environment reaches skill code.
func DefaultEnvWhitelist() []string {
	return []string{
		"PATH", "HOME", "USER", "LANG", "LC_ALL", "TZ", "TEMP", "TMP", "TMPDIR",
		"HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY",
	}
}

// EnvResolver resolves a skill's own environment (its secrets and the
// defaults of its env declaration); the secrets vault implements it. The
// map holds only values that are set; an error should say which required
// variable is missing, never a value.
type EnvResolver interface {
	ResolveEnv(ctx context.Context, skillName string, schema []skill.EnvVar) (map[string]string, error)
}

// skillEnv resolves the env of s: its declared variables, and whatever else
// the resolver holds for it (values a person saved for the skill without
// the skill declaring them, such as a deployment's imported secrets). A
// name that [skill.ValidateEnvName] refuses (LD_PRELOAD, NODE_OPTIONS,
// PATH, ...) is an error, never injected, declared or not.
func skillEnv(ctx context.Context, r EnvResolver, s *skill.Skill) (map[string]string, error) {
	if r == nil {
		return map[string]string{}, nil
	}
	got, err := r.ResolveEnv(ctx, s.Name, slices.Clone(s.Env))
	if err != nil {
		return nil, fmt.Errorf("executor: resolve the environment of skill %s: %w", s.Name, err)
	}
	out := make(map[string]string, len(got))
	for _, name := range slices.Sorted(maps.Keys(got)) {
		if err := skill.ValidateEnvName(name); err != nil {
			return nil, fmt.Errorf("executor: skill %s: %w", s.Name, err)
		}
		out[name] = got[name]
	}
	return out, nil
}

// SkillsByPath finds the skill whose folder holds an absolute, clean path,
// by strict prefix (the skill folder plus a separator, or the folder
// itself); the loader implements it.
type SkillsByPath interface {
	ResolveByPath(path string) (*skill.Skill, bool)
}

// EnvProvider gives a host's own shell tool the environment of the skill
// whose folder a command runs in (docs/shell-tool.md), so
// a compute-toolkit script gets its secrets and nothing else does. It is
// safe for concurrent use.
type EnvProvider struct {
	skills SkillsByPath
	env    EnvResolver
}

// NewEnvProvider returns a provider over the skills and the resolver of
// their env; with a nil resolver it always returns an empty map.
func NewEnvProvider(skills SkillsByPath, env EnvResolver) *EnvProvider {
	return &EnvProvider{skills: skills, env: env}
}

// EnvFor returns the resolved env of the skill whose folder holds dir, and
// an empty map when dir lies in no skill folder. dir is made absolute and
// clean and its symbolic links are resolved first, so a link into a skill
// folder counts as the folder and a path that only looks like one (a
// sibling with the same prefix, ".." tricks) does not; a dir that cannot be
// resolved gets nothing. The returned map is never nil; only
// valid names are in it.
func (p *EnvProvider) EnvFor(ctx context.Context, dir string) (map[string]string, error) {
	if p == nil || p.skills == nil || p.env == nil || dir == "" {
		return map[string]string{}, nil
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return map[string]string{}, nil
	}
	resolved, err := filepath.EvalSymlinks(filepath.Clean(abs))
	if err != nil {
		return map[string]string{}, nil
	}
	s, ok := p.skills.ResolveByPath(resolved)
	if !ok || s == nil {
		return map[string]string{}, nil
	}
	return skillEnv(ctx, p.env, s)
}

// ConfinementFor returns the confinement of the skill whose folder holds
// dir (resolved as EnvFor resolves it, with "~" meaning home), for a host's
// shell tool to run that skill's scripts under ([Command.Confine]); false
// when dir lies in no skill folder.
func (p *EnvProvider) ConfinementFor(dir, home string) (*Confinement, bool) {
	if p == nil || p.skills == nil || dir == "" {
		return nil, false
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, false
	}
	resolved, err := filepath.EvalSymlinks(filepath.Clean(abs))
	if err != nil {
		return nil, false
	}
	s, ok := p.skills.ResolveByPath(resolved)
	if !ok || s == nil {
		return nil, false
	}
	c := ConfinementOf(s, home)
	// Its scripts run from anywhere (the agent's workspace): its own
	// folder is readable wherever the command starts.
	dirOf, _ := filepath.Abs(s.DiskDir)
	c.Read = append([]string{dirOf}, c.Read...)
	return c, true
}

// Redacted replaces a skill's secret values in the error text it wrote.
const Redacted = "[redacted]"

// minRedactLen: shorter values are not redacted, since replacing every
// "1" or "ab" in an error text would make it unreadable and hide little.
const minRedactLen = 4

// redactor replaces the given values, longest first, as written and in
// the escaped forms error text quotes them in: JSON strings (a skill echoing
// its input), Go's %q and the JSON Schema validator's '...' quoting (output
// schema problems), and JSON pointers (a property name in a problem's
// pointer).
func redactor(values map[string]string) *strings.Replacer {
	var vals []string
	for _, v := range values {
		if len(v) < minRedactLen {
			continue
		}
		q := strconv.Quote(v)
		q = q[1 : len(q)-1]
		j, _ := json.Marshal(v)
		vals = append(vals, v, q, strings.ReplaceAll(strings.ReplaceAll(q, `\"`, `"`), `'`, `\'`),
			string(j[1:len(j)-1]), strings.NewReplacer("~", "~0", "/", "~1").Replace(v))
	}
	if len(vals) == 0 {
		return nil
	}
	slices.SortFunc(vals, func(a, b string) int {
		if len(a) != len(b) {
			return len(b) - len(a)
		}
		return strings.Compare(a, b)
	})
	pairs := make([]string, 0, 2*len(vals))
	for _, v := range slices.Compact(vals) {
		pairs = append(pairs, v, Redacted)
	}
	return strings.NewReplacer(pairs...)
}

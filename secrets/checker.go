package secrets

import (
	"context"
	"slices"

	"github.com/skillkit-go/skillkit/diagnostics"
	"github.com/skillkit-go/skillkit/skill"
)

// EnvChecker reports ENV_NOT_CONFIGURED for each required variable of a
// skill that has neither a saved value nor a default. It has the method set
// of the loader's Checker interface. It reads only names from the store and
// needs no key.
type EnvChecker struct {
	vault *Vault
}

// EnvChecker returns the checker for the vault's store.
func (v *Vault) EnvChecker() *EnvChecker {
	return &EnvChecker{vault: v}
}

// Check returns one ENV_NOT_CONFIGURED warning per required variable of s
// without a saved value or a default, with the skill's name as Skill, its
// folder as Path (DiskDir when set, else Dir) and the variable as
// Detail["env"]. When the store cannot be read it returns one READ_ERROR
// warning instead.
func (c *EnvChecker) Check(ctx context.Context, s *skill.Skill) diagnostics.List {
	if s == nil {
		return nil
	}
	var missing []skill.EnvVar
	for _, ev := range s.Env {
		if ev.Required && ev.Default == nil {
			missing = append(missing, ev)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	dir := s.DiskDir
	if dir == "" {
		dir = s.Dir
	}
	var saved []string
	note := ""
	if skill.ValidateKey(s.Name) != nil {
		note = " (the skill's name cannot hold secrets)"
	} else {
		keys, err := c.vault.store.Keys(ctx, s.Name)
		if err != nil {
			d := diagnostics.New(diagnostics.ReadError, s.Name, dir, "cannot list the saved secrets: %v", err)
			d.Level = diagnostics.Warning
			return diagnostics.List{d}
		}
		saved = keys
	}
	var out diagnostics.List
	for _, ev := range missing {
		if slices.Contains(saved, ev.Name) {
			continue
		}
		d := diagnostics.New(diagnostics.EnvNotConfigured, s.Name, dir,
			"required environment variable %s has no saved value and no default%s", ev.Name, note)
		d.Detail = map[string]any{"env": ev.Name}
		out = append(out, d)
	}
	return out
}

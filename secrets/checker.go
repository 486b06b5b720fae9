package secrets

import (
	"context"

	"github.com/skillkit-go/skillkit/diagnostics"
	"github.com/skillkit-go/skillkit/skill"
)

// EnvChecker reports ENV_NOT_CONFIGURED for each required variable of a
// skill that has neither a value saved for its current install nor a
// default. It has the method set of the loader's Checker interface. It
// reads names and the unencrypted headers of values, and needs no key.
type EnvChecker struct {
	vault *Vault
}

// EnvChecker returns the checker for the vault's store.
func (v *Vault) EnvChecker() *EnvChecker {
	return &EnvChecker{vault: v}
}

// Check returns one ENV_NOT_CONFIGURED warning per required variable of s
// without a value saved for its current install or a default, with the
// skill's name as Skill, its folder as Path (DiskDir when set, else Dir) and
// the variable as Detail["env"]; a variable whose value was saved for an
// earlier install says so and has Detail["stale"] true. When the store or
// the install id cannot be read it returns one READ_ERROR warning instead.
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
	var status map[string]EnvStatus
	note := ""
	if skill.ValidateKey(s.Name) != nil {
		note = " (the skill's name cannot hold secrets)"
	} else {
		rows, err := c.vault.Configured(ctx, s.Name, missing)
		if err != nil {
			d := diagnostics.New(diagnostics.ReadError, s.Name, dir, "cannot list the saved secrets: %v", err)
			d.Level = diagnostics.Warning
			return diagnostics.List{d}
		}
		status = map[string]EnvStatus{}
		for _, r := range rows {
			status[r.Name] = r
		}
	}
	var out diagnostics.List
	for _, ev := range missing {
		st := status[ev.Name]
		if st.HasValue {
			continue
		}
		why := note
		if st.Stale {
			why = " (a value was saved for an earlier install of a skill by this name; it is not used until adopted)"
		}
		d := diagnostics.New(diagnostics.EnvNotConfigured, s.Name, dir,
			"required environment variable %s has no saved value and no default%s", ev.Name, why)
		d.Detail = map[string]any{"env": ev.Name}
		if st.Stale {
			d.Detail["stale"] = true
		}
		out = append(out, d)
	}
	return out
}

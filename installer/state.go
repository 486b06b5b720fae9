package installer

import (
	"context"
	"fmt"
	"path"

	"github.com/skillkit-go/skillkit/registry"
	"github.com/skillkit-go/skillkit/skill"
)

// Pin marks skill name pinned: Update refuses it and UpdateAll skips it.
func (in *Installer) Pin(ctx context.Context, name string) error {
	return in.setFlags(ctx, name, func(r *registry.Record) { r.Pinned = true })
}

// Unpin lets Update and UpdateAll change skill name again.
func (in *Installer) Unpin(ctx context.Context, name string) error {
	return in.setFlags(ctx, name, func(r *registry.Record) { r.Pinned = false })
}

// SetEnabled enables or disables skill name. A disabled skill stays
// installed but is hidden from every agent (the loader reads the flag at
// each Filter, so no rescan is needed).
func (in *Installer) SetEnabled(ctx context.Context, name string, enabled bool) error {
	return in.setFlags(ctx, name, func(r *registry.Record) { r.Enabled = enabled })
}

// setFlags changes a record under the skill's lock. A skill folder placed
// by hand, without a record, gets one (source local, no URL), so it can
// be disabled or pinned too.
func (in *Installer) setFlags(ctx context.Context, name string, change func(*registry.Record)) error {
	unlock, err := in.holdName(ctx, name)
	if err != nil {
		return err
	}
	defer unlock()
	rec, err := in.getRecord(ctx, name)
	if err != nil {
		return err
	}
	if rec == nil {
		ok, err := in.hasSkillFile(name)
		if err != nil {
			return err
		}
		if !ok {
			return fmt.Errorf("%w: %s", ErrNotInstalled, name)
		}
		rec = &registry.Record{Name: name, Source: registry.SourceLocal, Enabled: true}
	}
	change(rec)
	return in.opt.reg.Put(ctx, *rec)
}

// hasSkillFile reports whether the skills folder holds name/SKILL.md (or
// skill.md).
func (in *Installer) hasSkillFile(name string) (bool, error) {
	for _, f := range []string{skill.FileName, skill.FileNameLower} {
		ok, err := in.exists(path.Join(name, f))
		if ok || err != nil {
			return ok, err
		}
	}
	return false, nil
}

package installer

import (
	"context"
	"errors"
	"fmt"

	"github.com/skillkit-go/skillkit/registry"
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

// SetEnabledOther records the flag of a skill of another source (skills
// bundled into the host, a user folder), which the skills folder does not
// hold: a record of its own with no source, written under the skill's lock
// like every record. The caller (the Kit) has checked that a source defines
// the skill; a skill the folder holds is refused with ErrExists (use
// SetEnabled).
func (in *Installer) SetEnabledOther(ctx context.Context, name string, enabled bool) error {
	unlock, err := in.hold(ctx, name)
	if err != nil {
		return err
	}
	defer unlock()
	if ok, err := in.dir.Exists(name); err != nil || ok {
		return errors.Join(err, fmt.Errorf("%w: the skills folder holds %s; enable or disable it with SetEnabled", ErrExists, name))
	}
	_, err = registry.Update(ctx, in.dir.Registry(), name, func(rec *registry.Record, _ bool) error {
		rec.Enabled = enabled
		return nil
	})
	return err
}

// setFlags changes a record under the skill's lock, through
// registry.Update, so a store shared by several hosts (compare-and-swap)
// loses no change another host made meanwhile. A skill folder placed by
// hand, without a record, gets one (source local, no URL), so it can be
// disabled or pinned too. A skill this replica placed from a shared
// registry that no longer records it was uninstalled elsewhere: the flag
// change fails rather than bring its record back, so the uninstall wins
// over a flag change on a replica that has not synced it yet.
func (in *Installer) setFlags(ctx context.Context, name string, change func(*registry.Record)) error {
	unlock, err := in.hold(ctx, name)
	if err != nil {
		return err
	}
	defer unlock()
	_, err = registry.Update(ctx, in.dir.Registry(), name, func(rec *registry.Record, found bool) error {
		if !found {
			ok, err := in.dir.HasSkill(name)
			if err != nil {
				return err
			}
			if !ok {
				return fmt.Errorf("%w: %s", ErrNotInstalled, name)
			}
			placed, err := in.dir.Placed(name)
			if err != nil {
				return err
			}
			if placed != "" {
				return fmt.Errorf("%w: %s was uninstalled on another replica; sync removes it here", ErrNotInstalled, name)
			}
			rec.Source, rec.Enabled = registry.SourceLocal, true
		}
		change(rec)
		return nil
	})
	return err
}

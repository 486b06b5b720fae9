package installer

import (
	"context"
	"errors"
	"fmt"

	"github.com/skillkit-go/skillkit/internal/skillsdir"
	"github.com/skillkit-go/skillkit/registry"
)

// UninstallOptions tune one Uninstall.
type UninstallOptions struct {
	// Purge also removes what the skill left elsewhere (its secrets),
	// through Options.Purge; without that hook Uninstall refuses with
	// ErrNoPurge before touching anything.
	Purge bool
}

// Uninstall removes the skill folder name and its record: the folder moves
// to the trash, the record is deleted (the commit point), the purge hook
// runs when asked, the trash is emptied. A failure before the commit point
// puts the folder and record back. The skill's secrets stay unless
// opts.Purge. opts may be nil.
func (in *Installer) Uninstall(ctx context.Context, name string, opts *UninstallOptions) error {
	rep := in.reporter(OpUninstall, name, "")
	err := in.uninstall(ctx, name, opts != nil && opts.Purge, rep)
	rep.Done(err)
	return err
}

func (in *Installer) uninstall(ctx context.Context, name string, purge bool, rep *skillsdir.Reporter) error {
	if purge && !in.dir.CanPurge() {
		return errors.New("installer: purge asked, but the skills folder has no purge hook")
	}
	unlock, err := in.hold(ctx, name)
	if err != nil {
		return err
	}
	defer unlock()
	_, err = in.dir.Remove(ctx, name, purge, func(_ context.Context, prev *registry.Record, present bool) error {
		if prev == nil && !present {
			return fmt.Errorf("%w: %s", ErrNotInstalled, name)
		}
		return nil
	}, rep)
	return err
}

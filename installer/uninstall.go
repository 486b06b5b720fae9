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
	// KeepSecrets keeps what else the skill left (its saved secrets),
	// which Uninstall otherwise removes through the skills folder's purge
	// hook (the Kit's: the secrets vault). Kept values stay bound to this
	// install: a skill that later takes the name never receives them,
	// unless a person adopts them for it.
	KeepSecrets bool
	// Force removes a folder of the skills folder that has no install
	// record (placed by hand or by another tool, such as a copy another
	// installer made), which Uninstall otherwise refuses with
	// [ErrNotRecorded]: skillkit never installed it, and there is no
	// previous version to get it back from.
	Force bool
}

// ErrNotRecorded: Uninstall found a skill folder with no install record,
// and UninstallOptions.Force was not given.
var ErrNotRecorded = errors.New("installer: skillkit has no record of installing this skill")

// Recorded reports whether rec records an install: a record that holds a
// fingerprint or an install id. A record written only to disable or pin a
// folder placed by hand holds neither.
func Recorded(rec *registry.Record) bool {
	return rec != nil && (rec.Fingerprint != "" || rec.InstallID != "")
}

// Uninstall removes the skill folder name and its record: the folder moves
// to the trash, the record is deleted (the commit point), the purge hook
// removes its secrets unless opts.KeepSecrets, the trash is emptied. A
// failure before the commit point puts the folder and record back. opts
// may be nil.
func (in *Installer) Uninstall(ctx context.Context, name string, opts *UninstallOptions) error {
	rep := in.reporter(OpUninstall, name, "")
	purge := (opts == nil || !opts.KeepSecrets) && in.dir.CanPurge()
	err := in.uninstall(ctx, name, purge, opts != nil && opts.Force, rep)
	rep.Done(err)
	return err
}

func (in *Installer) uninstall(ctx context.Context, name string, purge, force bool, rep *skillsdir.Reporter) error {
	unlock, err := in.hold(ctx, name)
	if err != nil {
		return err
	}
	defer unlock()
	_, err = in.dir.Remove(ctx, name, purge, func(_ context.Context, prev *registry.Record, present bool) error {
		if prev == nil && !present {
			return fmt.Errorf("%w: %s", ErrNotInstalled, name)
		}
		if present && !force && !Recorded(prev) {
			return fmt.Errorf("%w: %s (its folder %s was placed by hand or by another tool); removing it deletes it for good, so give Force to do that", ErrNotRecorded, name, in.dir.OSPath(name))
		}
		return nil
	}, rep)
	return err
}

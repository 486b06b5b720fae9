package installer

import (
	"context"
	"fmt"

	"github.com/skillkit-go/skillkit/internal/pkgerr"
	"github.com/skillkit-go/skillkit/internal/skillsdir"
	"github.com/skillkit-go/skillkit/skill"
)

// Version is one version of a skill in its history: when it became the
// skill's (Time), what made it (Op: install, update, sync, create, edit,
// delete, uninstall, approve, rollback, or found: files in the folder that
// no recorded operation wrote, kept when another replaced them), who asked
// (Actor: "person", "agent", "sync", "unknown", or the name given with
// [WithActor]), its Fingerprint, its origin (Source, URL, Ref, Commit,
// Subdir) and Seq, its number in the skill's history. Current marks the
// version the skill's folder holds now.
//
// Every change of a skill's files goes through the skills folder's
// transaction core, which keeps the files it replaces and the new ones
// (one archive per fingerprint, in .skillhub/history/NAME, or in the
// shared package store on a replica) and records the version once the
// change commits; [Retention] bounds what is kept.
type Version = skillsdir.Version

// Retention bounds each skill's history: a version is kept while it is one
// of the skill's last Versions (default 10) or younger than Age (default
// 30 days); then, while the kept archives take more than Bytes (default 64
// MiB) in the folder, the oldest go. The versions the folder, the record
// and the replica's placed note name, and the last one recorded, are never
// pruned. Pruning runs under the skill's lock each time a version is
// recorded. skillkit.Options.History sets it.
type Retention = skillsdir.Retention

// ErrNoVersion: the history holds no version that matches what was asked,
// or no longer holds its files.
var ErrNoVersion = skillsdir.ErrNoVersion

// WithActor returns a context whose changes of skills are recorded in
// their history as made by actor (a person's or an agent's name) instead
// of the operation's default ("person", "agent", "sync").
func WithActor(ctx context.Context, actor string) context.Context {
	return skillsdir.WithActor(ctx, actor)
}

// History returns the versions of skill name its history keeps, oldest
// first (see [Version]); none for a skill without history. An uninstalled
// skill's history is kept: its last version can be restored.
func (in *Installer) History(ctx context.Context, name string) ([]Version, error) {
	if err := skill.ValidateKey(name); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNotInstalled, err)
	}
	if err := in.dir.Settle(ctx); err != nil {
		return nil, err
	}
	return in.dir.History(ctx, name)
}

// RollbackOptions tune one [Installer.Rollback].
type RollbackOptions struct {
	// Confirmed says a person saw the scan's findings of the version
	// restored and let it in, as for an install: a version the trust
	// policy asks about is restored only with it ([*ScanError]); one it
	// blocks never is.
	Confirmed bool
	// Fingerprint, when set, is the fingerprint the version restored must
	// have (the one a [*ScanError] named when the person was asked).
	Fingerprint string
}

// Rollback restores a version of skill name from its history: which is
// its Seq ("3"), its fingerprint or at least 7 hex digits of it; ""
// restores the version before the current one (for an uninstalled skill,
// the one removed). The kept archive goes through the install's flow as a
// new install would: the archive and folder checks, the fingerprint (it
// must be the version's, else [ErrFingerprintMismatch]), the scan and the
// trust policy of the version's origin (a block refuses, an ask needs
// opts.Confirmed), then the swap, which keeps the files it replaces as a
// version too. The record takes the version's origin (source, URL, ref,
// commit); enabled, pinned and the install id carry over as for an update
// from the same origin. A version the folder holds already is refused
// with ErrNoVersion. opts may be nil.
func (in *Installer) Rollback(ctx context.Context, name, which string, opts *RollbackOptions) (*Result, error) {
	rep := in.reporter(OpRollback, name, "history")
	var o RollbackOptions
	if opts != nil {
		o = *opts
	}
	res, err := in.rollback(ctx, name, which, o, rep)
	rep.Done(err)
	return res, err
}

func (in *Installer) rollback(ctx context.Context, name, which string, o RollbackOptions, rep *skillsdir.Reporter) (*Result, error) {
	vs, err := in.History(ctx, name)
	if err != nil {
		return nil, err
	}
	if len(vs) == 0 {
		return nil, fmt.Errorf("%w: %s has no history", ErrNoVersion, name)
	}
	v, err := skillsdir.PickVersion(vs, which)
	if err != nil {
		return nil, err
	}
	for _, cur := range vs {
		if cur.Current && cur.Fingerprint == v.Fingerprint {
			return nil, fmt.Errorf("%w: version %d of %s is the one installed", ErrNoVersion, v.Seq, name)
		}
	}
	data, err := in.dir.VersionArchive(ctx, name, v.Fingerprint)
	if err != nil {
		return nil, err
	}
	t, c, err := in.staged(ctx, packagePlan(data, v.Origin(), fmt.Sprintf("restoring version %d (%.19s)", v.Seq, v.Fingerprint)), rep)
	if err != nil {
		return nil, err
	}
	defer t.End()
	if c.rec.Name != name {
		return nil, fmt.Errorf("%w: the kept version %d holds the skill %q, not %q", ErrInvalidSkill, v.Seq, c.rec.Name, name)
	}
	// The kept archive is checked as any download is: its files must be
	// the version's, then the trust policy decides on them as it would now.
	if c.rec.Fingerprint != v.Fingerprint {
		return nil, pkgerr.Wrap("installer", fmt.Errorf("%w: the kept archive of version %d has the fingerprint %s, not %s",
			ErrFingerprintMismatch, v.Seq, c.rec.Fingerprint, v.Fingerprint), "refusing to restore %s", name)
	}
	if err := c.admitted(o.Confirmed, o.Fingerprint); err != nil {
		return nil, err
	}
	unlock, err := in.dir.Lock(ctx, name)
	if err != nil {
		return nil, err
	}
	defer unlock()
	// A person chose this version: it replaces whatever is there (which
	// the swap keeps in the history first).
	return in.swap(ctx, t, c, replaceRules{otherOrigin: true, pinned: true, modified: true}, rep)
}

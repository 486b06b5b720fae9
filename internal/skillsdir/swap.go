package skillsdir

import (
	"context"
	"errors"
	"fmt"
	"path"
	"time"

	"github.com/skillkit-go/skillkit/registry"
)

// Check decides, under the skill's lock, whether an operation may go on:
// prev is the skill's record (nil: none), present whether its folder exists.
type Check func(ctx context.Context, prev *registry.Record, present bool) error

// Swapped says what a swap replaced.
type Swapped struct {
	Record   registry.Record  // what the registry holds now
	Previous *registry.Record // the record replaced; nil for a first install
	Replaced bool             // a skill folder of that name was replaced
}

// Swap replaces the skill rec.Name with the tree staged in t
// (t.Staging(TreeName)), whose lock the caller holds, once check allows it.
// Enabled, pinned and the first install time carry over from the previous
// record, and so does its install id when the new version comes from the
// same origin (see installID). The staged files must be synced (SyncTree).
// When the folder shares packages, the staged files are stored as rec's
// package first. A journal is written, the old version is renamed to the
// trash, the staged one into place, the record written (the commit point),
// the trash removed. Until the commit point every failure puts back what
// was there; after it the install has happened, and a failure to empty the
// trash is only logged.
func (d *Dir) Swap(ctx context.Context, t *Txn, rec registry.Record, check Check, rep *Reporter) (*Swapped, error) {
	return d.swap(ctx, t, rec, check, rep, false)
}

// Place is Swap for a version the registry already records (Sync on a
// replica): the staged tree replaces the skill's folder and no record is
// written, so the commit point is the rename of the new version into place.
// check must make sure the record still describes the staged files (it is
// the registry's, and another replica may change it meanwhile); the
// returned Swapped.Record is the record check allowed.
func (d *Dir) Place(ctx context.Context, t *Txn, rec registry.Record, check Check, rep *Reporter) (*Swapped, error) {
	return d.swap(ctx, t, rec, check, rep, true)
}

func (d *Dir) swap(ctx context.Context, t *Txn, rec registry.Record, check Check, rep *Reporter, placing bool) (*Swapped, error) {
	name := rec.Name
	prev, present, err := d.checkReplace(ctx, name, check)
	if err != nil {
		return nil, err
	}
	op := OpInstall
	if placing {
		if prev == nil {
			return nil, fmt.Errorf("skillkit: %s has no record to place", name)
		}
		op, rec = OpSync, *prev
	} else {
		rec.InstallID = installID(prev, present, rec)
		now := time.Now().UTC()
		rec.Enabled, rec.InstalledAt = true, now
		if prev != nil {
			rec.Enabled, rec.Pinned, rec.InstalledAt, rec.UpdatedAt = prev.Enabled, prev.Pinned, prev.InstalledAt, now
			if rec.InstalledAt.IsZero() {
				rec.InstalledAt = now
			}
		}
		if err := d.publish(ctx, t, rec); err != nil {
			return nil, err
		}
		if prev != nil && prev.InstallID != rec.InstallID {
			if err := d.signRetired(ctx, prev); err != nil {
				return nil, err
			}
		}
	}
	msg := "installing"
	var keep []string
	if present {
		msg = "replacing the installed version"
		if d.keep != nil {
			keep = d.keep(d.OSPath(name), t.StagingOS(TreeName))
		}
	}
	rep.Step(StepSwap, 85, "%s %s", msg, name)

	// The files replaced (when the history does not end with them) and
	// the new ones are kept before anything moves; the history names them
	// once the swap commits.
	history, err := d.swapVersions(ctx, t, rec, prev, present, rep.Op())
	if err != nil {
		return nil, err
	}
	j := &journal{Op: string(op), Name: name, Record: &rec, Previous: prev, HadOld: present, History: history}
	if d.packages != nil {
		before, err := d.rawNote(name)
		if err != nil {
			return nil, err
		}
		j.PlacedBefore = &before
	}
	if err := d.writeJournal(t, j); err != nil {
		return nil, err
	}
	var s swapSteps
	fail := func(err error) (*Swapped, error) {
		return nil, t.undo(err, "swap", func() error {
			return d.rollbackInstall(context.WithoutCancel(ctx), t, j, s)
		})
	}
	if err := t.Fault("journal"); err != nil {
		return fail(err)
	}
	// The placed note changes before the new version moves in, so that it
	// is part of the commit: a replica killed (or out of disk) around the
	// rename never holds a version its note does not name, which every
	// later sync would take for an edit. Undo and recovery put it back.
	if j.PlacedBefore != nil {
		s.noted = true
		if err := d.MarkPlacedInstall(name, rec.Fingerprint, rec.InstallID); err != nil {
			return fail(err)
		}
		if err := t.Fault("noted"); err != nil {
			return fail(err)
		}
	}
	if present {
		if err := d.Move(name, t.Trash()); err != nil {
			return fail(err)
		}
		s.moved = true
		if err := t.Fault("old-moved"); err != nil {
			return fail(err)
		}
	}
	if err := d.Move(t.Staging(TreeName), name); err != nil {
		return fail(err)
	}
	s.placed = true
	if err := t.Fault("new-moved"); err != nil {
		return fail(err)
	}
	if !placing {
		s.putTried = true
		if err := d.reg.Put(ctx, rec); err != nil {
			return fail(fmt.Errorf("skillkit: writing the record: %w", err))
		}
	}
	// Committed: the new version is installed whatever happens next.
	if err := t.Fault("recorded"); err != nil {
		if t.crashed {
			return nil, err
		}
		d.Warn(ctx, "leaving the old version of %s in the trash for the next operation: %v", name, err)
		t.keep = true
	} else {
		d.recordHistory(ctx, t, j, history[len(history)-1].Fingerprint)
		d.takeOver(ctx, t, name, keep)
		if err := d.root.RemoveAll(t.Trash()); err != nil {
			d.Warn(ctx, "leaving the old version of %s in the trash for the next operation: %v", name, err)
			t.keep = true
		}
	}
	d.Audit(ctx, auditMessage(rep.Op()), rec)
	return &Swapped{Record: rec, Previous: prev, Replaced: present}, nil
}

// takeOver moves what the new version of skill name keeps from the old one
// (in t's trash) into it. It runs after the commit point: a failure, or a
// crash before it, leaves the new version without them, which its checks
// then report (VENV_MISSING), and is logged.
func (d *Dir) takeOver(ctx context.Context, t *Txn, name string, keep []string) {
	for _, k := range keep {
		if err := d.Move(path.Join(t.Trash(), k), path.Join(name, k)); err != nil {
			d.Warn(ctx, "%s: the new version could not keep %s: %v", name, k, err)
		}
	}
}

// Remove removes skill name, whose lock the caller holds, once check allows
// it: the folder moves to the trash, the record is deleted (the commit
// point), the purge hook runs when purge is set, the trash is emptied. A
// failure before the commit point puts the folder and record back. It
// returns the record removed (nil: there was none); check decides what a
// missing skill is.
func (d *Dir) Remove(ctx context.Context, name string, purge bool, check Check, rep *Reporter) (*registry.Record, error) {
	if purge && d.purge == nil {
		return nil, errors.New("skillkit: purge asked but no purge hook is configured")
	}
	prev, present, err := d.checkReplace(ctx, name, check)
	if err != nil {
		return nil, err
	}
	t, err := d.Begin(ctx)
	if err != nil {
		return nil, err
	}
	defer t.End()
	rep.Step(StepRemove, 20, "removing %s", name)
	j := &journal{Op: string(OpUninstall), Name: name, Previous: prev, HadOld: present, Purge: purge}
	if present {
		// The files removed are kept, so that they can be restored.
		if j.History, err = d.removeVersion(ctx, name, prev, rep.Op()); err != nil {
			return nil, err
		}
	}
	if err := d.writeJournal(t, j); err != nil {
		return nil, err
	}
	var moved, deleteTried bool
	fail := func(err error) (*registry.Record, error) {
		return nil, t.undo(err, "removal", func() error {
			if moved {
				if err := d.Move(t.Trash(), name); err != nil {
					return err
				}
			}
			if deleteTried {
				return d.restoreRecord(context.WithoutCancel(ctx), name, prev)
			}
			return nil
		})
	}
	if err := t.Fault("u-journal"); err != nil {
		return fail(err)
	}
	if present {
		if err := d.Move(name, t.Trash()); err != nil {
			return fail(err)
		}
		moved = true
		if err := t.Fault("u-moved"); err != nil {
			return fail(err)
		}
	}
	if prev != nil {
		if err := d.signRemoval(ctx, prev); err != nil {
			return fail(err)
		}
		deleteTried = true
		if err := d.reg.Delete(ctx, name); err != nil {
			return fail(fmt.Errorf("skillkit: deleting the record: %w", err))
		}
	}
	// Committed: the skill is removed.
	if prev != nil {
		d.Audit(ctx, auditMessage(rep.Op()), *prev)
	}
	if err := d.Unmark(name); err != nil {
		d.Warn(ctx, "%v", err)
	}
	if err := t.Fault("u-unrecorded"); err != nil {
		if t.crashed {
			return prev, err
		}
		t.keep = true
		return prev, nil
	}
	d.recordHistory(ctx, t, j, "")
	rep.Step(StepRemove, 70, "removed %s", name)
	if purge {
		if err := d.purge(ctx, name); err != nil {
			return prev, fmt.Errorf("skillkit: %s is removed, but purging failed: %w", name, err)
		}
	}
	return prev, nil
}

// PlaceDir swaps staged (a slash path in t's staging folder) in as dst (a
// slash path in the skills folder, inside a skill whose lock the caller
// holds): the old one to t's trash, the new one into place, the trash
// emptied. If placing the new one fails, the old one goes back. A crash
// between the two renames leaves no dst (the next recovery empties the
// trash): missing, never half built. So does a failure to put the old one
// back, which keeps t's trash (and logs where) instead of emptying it.
func (d *Dir) PlaceDir(t *Txn, staged, dst string) error {
	if err := SyncTree(d.OSPath(staged)); err != nil {
		return fmt.Errorf("skillkit: syncing %s: %w", staged, err)
	}
	had, err := d.Exists(dst)
	if err != nil {
		return fmt.Errorf("skillkit: %w", err)
	}
	putBack := func(err error) error {
		if !had || t.crashed {
			return err
		}
		back := t.Fault("deps-put-back")
		if back == nil {
			back = d.Move(t.Trash(), dst)
		}
		if back != nil {
			// The old one is only in the trash now: End must not empty it.
			t.keep = true
			d.Warn(context.Background(), "skillkit: the old %s could not be put back; it is kept in %s: %v", dst, d.OSPath(t.Trash()), back)
			err = errors.Join(err, fmt.Errorf("skillkit: putting the old %s back failed (it is kept in %s): %w", dst, d.OSPath(t.Trash()), back))
		}
		return err
	}
	if had {
		if err := d.Move(dst, t.Trash()); err != nil {
			return err
		}
		if err := t.Fault("deps-old-moved"); err != nil {
			return putBack(err)
		}
	}
	if err := d.Move(staged, dst); err != nil {
		return putBack(err)
	}
	if had {
		if err := d.root.RemoveAll(t.Trash()); err != nil {
			d.Warn(context.Background(), "skillkit: leaving the old %s in the trash for the next operation: %v", dst, err)
		}
	}
	return nil
}

// checkReplace reads the record and folder of skill name and asks check
// whether they may be replaced or removed.
func (d *Dir) checkReplace(ctx context.Context, name string, check Check) (prev *registry.Record, present bool, err error) {
	if prev, err = d.Record(ctx, name); err != nil {
		return nil, false, err
	}
	if present, err = d.Exists(name); err != nil {
		return nil, false, fmt.Errorf("skillkit: %w", err)
	}
	if err := check(ctx, prev, present); err != nil {
		return nil, false, err
	}
	return prev, present, nil
}

// installID is the install id of rec, replacing prev (nil: no record) and a
// folder when present: secrets are sealed for it, so it says which install
// they belong to. An update or a reinstall from the same origin keeps the
// id; a fresh install, a skill written fresh by an agent and a replacement
// from another origin get a new one. A folder placed by hand has no record
// and no id: an agent's edit of it (recorded as local, without a URL) keeps
// none, so the secrets saved for it still open.
func installID(prev *registry.Record, present bool, rec registry.Record) string {
	switch {
	case prev != nil && SameOrigin(*prev, rec):
		return prev.InstallID
	case prev == nil && present && rec.Source == registry.SourceLocal && rec.URL == "":
		return ""
	}
	return registry.NewInstallID()
}

// auditMessage is the audit line of an operation that changed a skill.
func auditMessage(op Op) string {
	switch op {
	case OpUninstall:
		return "skill uninstalled"
	case OpCreate:
		return "skill created by an agent"
	case OpEdit:
		return "skill edited by an agent"
	case OpDelete:
		return "skill deleted by an agent"
	case OpSync:
		return "skill synced"
	case OpRollback:
		return "skill rolled back"
	}
	return "skill installed"
}

package installer

import (
	"context"
	"errors"
	"fmt"

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
	rep.done(err)
	return err
}

func (in *Installer) uninstall(ctx context.Context, name string, purge bool, rep *reporter) error {
	if purge && in.opt.purge == nil {
		return ErrNoPurge
	}
	unlock, err := in.holdName(ctx, name)
	if err != nil {
		return err
	}
	defer unlock()
	return in.remove(ctx, name, purge, rep, nil)
}

// remove uninstalls skill name, whose lock the caller holds. allow, when
// set, may refuse once the record and the folder are known.
func (in *Installer) remove(ctx context.Context, name string, purge bool, rep *reporter, allow func(prev *registry.Record, present bool) error) error {
	prev, err := in.getRecord(ctx, name)
	if err != nil {
		return err
	}
	present, err := in.exists(name)
	if err != nil {
		return fmt.Errorf("installer: %w", err)
	}
	if prev == nil && !present {
		return fmt.Errorf("%w: %s", ErrNotInstalled, name)
	}
	if allow != nil {
		if err := allow(prev, present); err != nil {
			return err
		}
	}
	o, err := in.begin(ctx)
	if err != nil {
		return err
	}
	defer o.end()
	rep.step(StepRemove, 20, "removing %s", name)
	j := &journal{Op: string(OpUninstall), Name: name, Previous: prev, HadOld: present, Purge: purge}
	if err := in.writeJournal(o, j); err != nil {
		return err
	}
	var moved, deleteTried bool
	fail := func(err error) error {
		if o.crashed {
			return err
		}
		var rb error
		if moved {
			rb = in.move(o.trash(), name)
		}
		if rb == nil && deleteTried {
			rb = in.restoreRecord(context.WithoutCancel(ctx), name, prev)
		}
		if rb != nil {
			o.keep = true
			return errors.Join(err, fmt.Errorf("installer: undoing the uninstall failed; the next New finishes it: %w", rb))
		}
		return err
	}
	if err := o.fault("u-journal"); err != nil {
		return fail(err)
	}
	if present {
		if err := in.move(name, o.trash()); err != nil {
			return fail(err)
		}
		moved = true
		if err := o.fault("u-moved"); err != nil {
			return fail(err)
		}
	}
	if prev != nil {
		deleteTried = true
		if err := in.opt.reg.Delete(ctx, name); err != nil {
			return fail(fmt.Errorf("installer: deleting the record: %w", err))
		}
	}
	// Committed: the skill is uninstalled.
	if prev != nil {
		in.audit(ctx, auditMessage(rep.op), *prev)
	}
	if err := o.fault("u-unrecorded"); err != nil {
		if o.crashed {
			return err
		}
		o.keep = true
		return nil
	}
	rep.step(StepRemove, 70, "removed %s", name)
	if purge {
		if err := in.opt.purge(ctx, name); err != nil {
			return fmt.Errorf("installer: %s is uninstalled, but purging failed: %w", name, err)
		}
	}
	return nil
}

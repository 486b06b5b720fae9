package installer

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/skillkit-go/skillkit/internal/atomicfile"
	"github.com/skillkit-go/skillkit/internal/filelock"
	"github.com/skillkit-go/skillkit/registry"
	"github.com/skillkit-go/skillkit/skill"
)

// journal is written into an operation's staging folder before it changes
// anything outside it, so that recovery knows what the operation was.
type journal struct {
	Version  int              `json:"version"`
	Op       string           `json:"op"` // "install" (updates too) or "uninstall"
	Name     string           `json:"name"`
	Record   *registry.Record `json:"record,omitempty"`   // install: the record written at the commit point
	Previous *registry.Record `json:"previous,omitempty"` // the record before, if any
	HadOld   bool             `json:"hadOld"`             // a skill folder was in place
	Purge    bool             `json:"purge,omitempty"`    // uninstall: purge was asked
}

const journalVersion = 1

func (in *Installer) writeJournal(o *op, j *journal) error {
	j.Version = journalVersion
	data, err := json.Marshal(j)
	if err != nil {
		return err
	}
	if err := atomicfile.WriteFile(in.root, o.staging(journalName), data, 0o644); err != nil {
		return fmt.Errorf("installer: writing the journal: %w", err)
	}
	return nil
}

func (in *Installer) readJournal(o *op) (*journal, error) {
	data, err := in.root.ReadFile(o.staging(journalName))
	if err != nil {
		return nil, err
	}
	var j journal
	if err := json.Unmarshal(data, &j); err != nil || j.Version != journalVersion || skill.ValidateKey(j.Name) != nil ||
		j.Op != string(OpInstall) && j.Op != string(OpUninstall) || j.Op == string(OpInstall) && j.Record == nil {
		return nil, fmt.Errorf("installer: the journal of operation %s is not one skillkit wrote", o.id)
	}
	return &j, nil
}

// rollbackInstall undoes a swap that failed before its commit point (in the
// failing process): the new version out, the old one back, the previous
// record restored if the write of the new one was tried.
func (in *Installer) rollbackInstall(ctx context.Context, o *op, j *journal, moved, placed, putTried bool) error {
	if placed {
		if err := in.move(j.Name, o.staging(treeName)); err != nil {
			return err
		}
		if err := o.fault("rollback-new-out"); err != nil {
			return err
		}
	}
	if moved {
		if err := in.move(o.trash(), j.Name); err != nil {
			return err
		}
		if err := o.fault("rollback-old-back"); err != nil {
			return err
		}
	}
	if putTried {
		return in.restoreRecord(ctx, j.Name, j.Previous)
	}
	return nil
}

// restoreRecord puts prev back, or removes the record when there was none.
func (in *Installer) restoreRecord(ctx context.Context, name string, prev *registry.Record) error {
	if prev != nil {
		return in.opt.reg.Put(ctx, *prev)
	}
	if err := in.opt.reg.Delete(ctx, name); err != nil && !errors.Is(err, registry.ErrNotFound) {
		return err
	}
	return nil
}

// recoverAll finishes or undoes the operations that died (their process
// crashed, or they could not undo a failure): those whose lock no one
// holds. Live operations, in this process or another, are left alone. An
// operation it cannot settle (a journal skillkit did not write, a rename
// the system refuses) is logged and left for the next try, so it never
// blocks the operations on other skills; the error is ctx's, or a failure
// to make the bookkeeping folders, read the staging folder or take its lock.
// Every operation starts here, so it also makes those folders.
func (in *Installer) recoverAll(ctx context.Context) error {
	if err := in.makeDirs(); err != nil {
		return err
	}
	c, err := filelock.Lock(ctx, in.path(createLock))
	if err != nil {
		return err
	}
	ids := map[string]bool{}
	for _, d := range []string{stagingDir, trashDir} {
		entries, err := fs.ReadDir(in.root.FS(), d)
		if err != nil {
			c.Unlock()
			return fmt.Errorf("installer: %w", err)
		}
		for _, e := range entries {
			if id := strings.TrimSuffix(e.Name(), ".lock"); isOpID(id) {
				ids[id] = true
			}
		}
	}
	type dead struct {
		id string
		h  *filelock.Handle
	}
	var deads []dead
	for id := range ids {
		h, err := filelock.TryLock(in.path(stagingDir, id+".lock"))
		if err != nil {
			c.Unlock()
			for _, d := range deads {
				d.h.Unlock()
			}
			return err
		}
		if h != nil {
			deads = append(deads, dead{id, h})
		}
	}
	c.Unlock()
	for _, d := range deads {
		err := in.recoverOp(ctx, &op{in: in, id: d.id, lock: d.h})
		d.h.Unlock()
		if errors.Is(err, errBusy) {
			continue
		}
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			in.warn(ctx, "installer: cannot settle operation %s yet: %v", d.id, err)
			continue
		}
		os.Remove(in.path(stagingDir, d.id+".lock"))
	}
	return nil
}

// errBusy: the skill of a dead operation is locked by a live one.
var errBusy = errors.New("installer: the skill is busy")

// isOpID reports whether s is an operation id: 16 lower-case hex digits.
func isOpID(s string) bool {
	return len(s) == 16 && isHex(s)
}

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// recoverOp settles one dead operation. Without a journal it never touched
// the skill: its leftovers go. With one, the state on disk says how far it
// got (see the package documentation).
func (in *Installer) recoverOp(ctx context.Context, o *op) error {
	j, err := in.readJournal(o)
	if errors.Is(err, fs.ErrNotExist) {
		return in.removeLeftovers(o)
	}
	if err != nil {
		return err
	}
	// A skill another operation is working on is settled later: waiting
	// here would make operations on other skills wait for it too.
	unlock, err := in.tryLockName(j.Name)
	if err != nil {
		return err
	}
	if unlock == nil {
		return errBusy
	}
	defer unlock()
	if j.Op == string(OpUninstall) {
		err = in.settleUninstall(ctx, o, j)
	} else {
		err = in.settleInstall(ctx, o, j)
	}
	if err != nil {
		return err
	}
	return in.removeLeftovers(o)
}

func (in *Installer) removeLeftovers(o *op) error {
	return errors.Join(in.root.RemoveAll(o.trash()), in.root.RemoveAll(o.staging()))
}

// settleInstall: while the new version is still staged, the swap is undone
// (the old version goes back if it was moved out, and the previous record
// if the journal's record was written); once it is in place, the
// swap is finished (its record written) — provided the folder in place is
// the one the journal fingerprinted and no one wrote another record since.
func (in *Installer) settleInstall(ctx context.Context, o *op, j *journal) error {
	staged, err := in.exists(o.staging(treeName))
	if err != nil {
		return err
	}
	trashed, present, err := in.swapState(o, j.Name)
	if err != nil {
		return err
	}
	if staged {
		if trashed && !present {
			if err := in.move(o.trash(), j.Name); err != nil {
				return err
			}
		}
		// The new version is out but its record may be in: the write took
		// effect although the store reported a failure, and the process
		// died undoing the swap. The journal's record is this operation's
		// own (its times are unique), so the previous one goes back.
		cur, err := in.getRecord(ctx, j.Name)
		if err != nil {
			return err
		}
		if sameRecord(cur, j.Record) {
			return in.restoreRecord(ctx, j.Name, j.Previous)
		}
		return nil
	}
	if !present {
		return nil
	}
	fp, err := in.fingerprintInstalled(ctx, j.Name)
	if err != nil || fp != j.Record.Fingerprint {
		return err // someone else's skill is in place now
	}
	cur, err := in.getRecord(ctx, j.Name)
	if err != nil {
		return err
	}
	if sameRecord(cur, j.Record) || !sameRecord(cur, j.Previous) {
		return nil
	}
	return in.opt.reg.Put(ctx, *j.Record)
}

// settleUninstall: once the skill folder was moved out (or there was
// none), the uninstall is finished: the record removed, unless someone
// wrote another since, and the purge hook run when asked.
func (in *Installer) settleUninstall(ctx context.Context, o *op, j *journal) error {
	trashed, present, err := in.swapState(o, j.Name)
	if err != nil {
		return err
	}
	if present && !trashed {
		return nil // never moved out: nothing happened
	}
	cur, err := in.getRecord(ctx, j.Name)
	if err != nil {
		return err
	}
	if cur != nil && !present && sameRecord(cur, j.Previous) {
		if err := in.opt.reg.Delete(ctx, j.Name); err != nil && !errors.Is(err, registry.ErrNotFound) {
			return err
		}
	}
	if j.Purge && in.opt.purge != nil && !present {
		return in.opt.purge(ctx, j.Name)
	}
	return nil
}

// swapState reports whether the operation's trash entry and the skill
// folder exist.
func (in *Installer) swapState(o *op, name string) (trashed, present bool, err error) {
	if trashed, err = in.exists(o.trash()); err == nil {
		present, err = in.exists(name)
	}
	return trashed, present, err
}

// sameRecord compares two records, either of which may be nil.
func sameRecord(a, b *registry.Record) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	x, y := *a, *b
	if !x.InstalledAt.Equal(y.InstalledAt) || !x.UpdatedAt.Equal(y.UpdatedAt) {
		return false
	}
	x.InstalledAt, x.UpdatedAt = y.InstalledAt, y.UpdatedAt // compared above
	return x == y
}

func syncDir(root *os.Root, dir string) error { return atomicfile.SyncDir(root, dir) }

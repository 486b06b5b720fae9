package skillsdir

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"strings"
	"time"

	"github.com/skillkit-go/skillkit/internal/atomicfile"
	"github.com/skillkit-go/skillkit/internal/filelock"
	"github.com/skillkit-go/skillkit/registry"
	"github.com/skillkit-go/skillkit/skill"
)

// journal is written into an operation's staging folder before it changes
// anything outside it, so that recovery knows what the operation was.
type journal struct {
	Version  int              `json:"version"`
	Op       string           `json:"op"` // "install" (updates too), "sync" (a version the registry records, placed) or "uninstall"
	Name     string           `json:"name"`
	Record   *registry.Record `json:"record,omitempty"`   // install: the record written at the commit point
	Previous *registry.Record `json:"previous,omitempty"` // the record before, if any
	HadOld   bool             `json:"hadOld"`             // a skill folder was in place
	Purge    bool             `json:"purge,omitempty"`    // uninstall: purge was asked
	// PlacedBefore is what the placed note of the skill held before the
	// swap ("": none) when the folder shares packages; nil in journals
	// written before swaps changed the note ahead of the rename.
	PlacedBefore *string `json:"placedBefore,omitempty"`
	// History are the versions the operation records in the skill's
	// history once it commits (their files already kept); nil in journals
	// written before skills had a history.
	History []Version `json:"history,omitempty"`
}

// swapSteps says how far a swap went, for its undo.
type swapSteps struct {
	noted    bool // the placed note names the new version
	moved    bool // the old version is in the trash
	placed   bool // the new version is in place
	putTried bool // the record's write was tried
}

const journalVersion = 1

func (d *Dir) writeJournal(t *Txn, j *journal) error {
	j.Version = journalVersion
	data, err := json.Marshal(j)
	if err != nil {
		return err
	}
	if err := atomicfile.WriteFile(d.root, t.Staging(journalName), data, 0o644); err != nil {
		return fmt.Errorf("skillkit: writing the journal: %w", err)
	}
	return nil
}

func (d *Dir) readJournal(t *Txn) (*journal, error) {
	data, err := d.root.ReadFile(t.Staging(journalName))
	if err != nil {
		return nil, err
	}
	var j journal
	if err := json.Unmarshal(data, &j); err != nil || j.Version != journalVersion || skill.ValidateKey(j.Name) != nil ||
		j.Op != string(OpInstall) && j.Op != string(OpSync) && j.Op != string(OpUninstall) || j.Op != string(OpUninstall) && j.Record == nil {
		return nil, fmt.Errorf("skillkit: the journal of operation %s is not one skillkit wrote", t.id)
	}
	return &j, nil
}

// rollbackInstall undoes a swap that failed before its commit point (in the
// failing process): the new version out, the old one back, the previous
// record restored if the write of the new one was tried.
func (d *Dir) rollbackInstall(ctx context.Context, t *Txn, j *journal, s swapSteps) error {
	if s.placed {
		if err := d.Move(j.Name, t.Staging(TreeName)); err != nil {
			return err
		}
		if err := t.Fault("rollback-new-out"); err != nil {
			return err
		}
	}
	if s.moved {
		if err := d.Move(t.Trash(), j.Name); err != nil {
			return err
		}
		if err := t.Fault("rollback-old-back"); err != nil {
			return err
		}
	}
	if s.noted {
		if err := d.restorePlaced(j); err != nil {
			return err
		}
	}
	if s.putTried {
		return d.restoreRecord(ctx, j.Name, j.Previous)
	}
	return nil
}

// restorePlaced puts back the placed note the journal's swap replaced.
func (d *Dir) restorePlaced(j *journal) error {
	if j.PlacedBefore == nil {
		return nil
	}
	if *j.PlacedBefore == "" {
		return d.Unmark(j.Name)
	}
	return d.writeNote(j.Name, *j.PlacedBefore)
}

// restoreRecord puts prev back, or removes the record when there was none.
func (d *Dir) restoreRecord(ctx context.Context, name string, prev *registry.Record) error {
	if prev != nil {
		return d.reg.Put(ctx, *prev)
	}
	if err := d.reg.Delete(ctx, name); err != nil && !errors.Is(err, registry.ErrNotFound) {
		return err
	}
	return nil
}

// Settle runs Recover when an operation left something in the staging or
// trash folder, so that reading a folder where nothing is left to settle
// writes nothing, not even a lock: a read-only folder can be read. Readers
// run it before they scan, so they never see what a crashed transaction
// left half done.
func (d *Dir) Settle(ctx context.Context) error {
	ids, err := d.opIDs()
	if err != nil || len(ids) == 0 {
		return err
	}
	return d.Recover(ctx)
}

// opIDs lists the operations that have something in the staging or the
// trash folder (live ones too); a folder that does not exist lists none.
func (d *Dir) opIDs() (map[string]bool, error) {
	ids := map[string]bool{}
	for _, folder := range []string{StagingDir, TrashDir} {
		entries, err := fs.ReadDir(d.root.FS(), folder)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("skillkit: %w", err)
		}
		for _, e := range entries {
			if id := strings.TrimSuffix(e.Name(), ".lock"); isOpID(id) {
				ids[id] = true
			}
		}
	}
	return ids, nil
}

// Recover finishes or undoes the operations that died (their process
// crashed, or they could not undo a failure): those whose lock no one
// holds. Live operations, in this process or another, are left alone. An
// operation it cannot settle (a journal skillkit did not write, a rename
// the system refuses) is logged and left for the next try, so it never
// blocks the operations on other skills; the error is ctx's, or a failure
// to make the bookkeeping folders, read the staging folder or take its lock.
// Every operation starts here, so it also makes those folders.
func (d *Dir) Recover(ctx context.Context) error {
	if err := d.MakeDirs(); err != nil {
		return err
	}
	c, err := filelock.Lock(ctx, d.OSPath(createLock))
	if err != nil {
		return err
	}
	ids, err := d.opIDs()
	if err != nil {
		c.Unlock()
		return err
	}
	d.removeStaleTemps(ctx)
	type dead struct {
		id string
		h  *filelock.Handle
	}
	var deads []dead
	for id := range ids {
		h, err := filelock.TryLock(d.OSPath(StagingDir, id+".lock"))
		if err != nil {
			c.Unlock()
			for _, dd := range deads {
				dd.h.Unlock()
			}
			return err
		}
		if h != nil {
			deads = append(deads, dead{id, h})
		}
	}
	c.Unlock()
	for _, dd := range deads {
		err := d.recoverOp(ctx, &Txn{d: d, id: dd.id, lock: dd.h})
		dd.h.Unlock()
		if errors.Is(err, errBusy) {
			continue
		}
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			d.Warn(ctx, "skillkit: cannot settle operation %s yet: %v", dd.id, err)
			continue
		}
		os.Remove(d.OSPath(StagingDir, dd.id+".lock"))
	}
	return nil
}

// staleTempAge is how old the temporary file of an atomic write in
// .skillhub must be for recovery to take it for one whose writer died: a
// live write takes milliseconds.
const staleTempAge = 10 * time.Minute

// removeStaleTemps removes the temporary files that writes killed before
// their rename left in .skillhub and its folders (lock.json, placed notes,
// origins, approvals, the replica's identity); a failure is only logged.
func (d *Dir) removeStaleTemps(ctx context.Context) {
	hub := path.Dir(StagingDir)
	folders := []string{hub}
	entries, err := fs.ReadDir(d.root.FS(), hub)
	for _, e := range entries {
		if e.IsDir() && path.Join(hub, e.Name()) != StagingDir && path.Join(hub, e.Name()) != TrashDir {
			folders = append(folders, path.Join(hub, e.Name()))
		}
	}
	for _, f := range folders {
		if err == nil {
			_, err = atomicfile.RemoveStale(d.root, f, staleTempAge)
		}
	}
	if err != nil {
		d.Warn(ctx, "skillkit: removing the leftovers of killed writes: %v", err)
	}
}

// errBusy: the skill of a dead operation is locked by a live one.
var errBusy = errors.New("skillkit: the skill is busy")

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
func (d *Dir) recoverOp(ctx context.Context, t *Txn) error {
	j, err := d.readJournal(t)
	if errors.Is(err, fs.ErrNotExist) {
		return d.removeLeftovers(t)
	}
	if err != nil {
		return err
	}
	// A skill another operation is working on is settled later: waiting
	// here would make operations on other skills wait for it too.
	unlock, err := d.tryLock(j.Name)
	if err != nil {
		return err
	}
	if unlock == nil {
		return errBusy
	}
	defer unlock()
	if j.Op == string(OpUninstall) {
		err = d.settleUninstall(ctx, t, j)
	} else {
		err = d.settleInstall(ctx, t, j)
	}
	if err != nil {
		return err
	}
	return d.removeLeftovers(t)
}

func (d *Dir) removeLeftovers(t *Txn) error {
	return errors.Join(d.root.RemoveAll(t.Trash()), d.root.RemoveAll(t.Staging()))
}

// settleInstall: while the new version is still staged, the swap is undone
// (the old version goes back if it was moved out, and the previous record
// if the journal's record was written); once it is in place, the
// swap is finished (its record written) — provided the folder in place is
// the one the journal fingerprinted and no one wrote another record since.
// A sync's swap writes no record: it is undone or finished on disk alone.
func (d *Dir) settleInstall(ctx context.Context, t *Txn, j *journal) error {
	staged, err := d.Exists(t.Staging(TreeName))
	if err != nil {
		return err
	}
	trashed, present, err := d.swapState(t, j.Name)
	if err != nil {
		return err
	}
	if staged {
		if trashed && !present {
			if err := d.Move(t.Trash(), j.Name); err != nil {
				return err
			}
		}
		if err := d.restorePlaced(j); err != nil {
			return err
		}
		// The new version is out but its record may be in: the write took
		// effect although the store reported a failure, and the process
		// died undoing the swap. The journal's record is this operation's
		// own (its times are unique), so the previous one goes back.
		if j.Op == string(OpSync) {
			return nil // a sync writes no record
		}
		cur, err := d.Record(ctx, j.Name)
		if err != nil {
			return err
		}
		if sameRecord(cur, j.Record) {
			return d.restoreRecord(ctx, j.Name, j.Previous)
		}
		return nil
	}
	if !present {
		return nil
	}
	fp, err := d.Fingerprint(ctx, j.Name)
	if err != nil || fp != j.Record.Fingerprint {
		return err // someone else's skill is in place now
	}
	// The new version is in place: the note names it, whether or not the
	// swap got to write it (journals of older versions wrote it last).
	if err := d.MarkPlacedInstall(j.Name, fp, j.Record.InstallID); err != nil {
		return err
	}
	d.recordHistory(ctx, t, j, fp)
	if j.Op == string(OpSync) {
		return nil
	}
	cur, err := d.Record(ctx, j.Name)
	if err != nil {
		return err
	}
	if sameRecord(cur, j.Record) || !sameRecord(cur, j.Previous) {
		return nil
	}
	return d.reg.Put(ctx, *j.Record)
}

// settleUninstall: once the skill folder was moved out (or there was
// none), the uninstall is finished: the record removed, unless someone
// wrote another since, and the purge hook run when asked.
func (d *Dir) settleUninstall(ctx context.Context, t *Txn, j *journal) error {
	trashed, present, err := d.swapState(t, j.Name)
	if err != nil {
		return err
	}
	if present && !trashed {
		return nil // never moved out: nothing happened
	}
	cur, err := d.Record(ctx, j.Name)
	if err != nil {
		return err
	}
	if cur != nil && !present && sameRecord(cur, j.Previous) {
		if err := d.reg.Delete(ctx, j.Name); err != nil && !errors.Is(err, registry.ErrNotFound) {
			return err
		}
	}
	if !present {
		d.recordHistory(ctx, t, j, "")
	}
	if j.Purge && d.purge != nil && !present {
		return d.purge(ctx, j.Name)
	}
	return nil
}

// recordHistory adds the versions of j's operation, committed, to the
// skill's history, once; live is the fingerprint of the files in place
// ("": none, or not known). A failure is logged: the operation happened,
// and its files stay kept until a later operation prunes them.
func (d *Dir) recordHistory(ctx context.Context, t *Txn, j *journal, live string) {
	if len(j.History) == 0 {
		return
	}
	if err := d.appendVersions(ctx, j.Name, t.id, j.History, live); err != nil {
		d.Warn(ctx, "skillkit: the history of %s could not record the %s: %v", j.Name, j.Op, err)
	}
}

// swapState reports whether the operation's trash entry and the skill
// folder exist.
func (d *Dir) swapState(t *Txn, name string) (trashed, present bool, err error) {
	if trashed, err = d.Exists(t.Trash()); err == nil {
		present, err = d.Exists(name)
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

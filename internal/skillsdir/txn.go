package skillsdir

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path"
	"sync"

	"github.com/skillkit-go/skillkit/internal/filelock"
)

// nameLocks serializes the goroutines of one Dir by skill name; the file
// lock under .skillhub/locks serializes processes (and other Dirs on the
// same folder).
type nameLocks struct {
	mu    sync.Mutex
	names map[string]*nameLock
}

type nameLock struct {
	ch   chan struct{} // holds a token while someone has the name
	refs int
}

// Hold is how the operations on one installed skill start: dead
// transactions settled (before any lock is held, since settling takes skill
// locks), then the skill's lock taken. The caller has checked the name
// (skill.ValidateKey at least): it becomes a file name.
func (d *Dir) Hold(ctx context.Context, name string) (unlock func(), err error) {
	if err := d.Recover(ctx); err != nil {
		return nil, err
	}
	return d.Lock(ctx, name)
}

// Lock takes skill name for the caller, waiting while another goroutine or
// process has it, until ctx is done.
func (d *Dir) Lock(ctx context.Context, name string) (unlock func(), err error) {
	return d.takeName(ctx, name, true)
}

// tryLock takes skill name if no one has it, without waiting; unlock is nil
// when someone does.
func (d *Dir) tryLock(name string) (unlock func(), err error) {
	return d.takeName(context.Background(), name, false)
}

func (d *Dir) takeName(ctx context.Context, name string, wait bool) (unlock func(), err error) {
	l := &d.names
	l.mu.Lock()
	if l.names == nil {
		l.names = map[string]*nameLock{}
	}
	nl := l.names[name]
	if nl == nil {
		nl = &nameLock{ch: make(chan struct{}, 1)}
		l.names[name] = nl
	}
	nl.refs++
	l.mu.Unlock()
	release := func() {
		l.mu.Lock()
		if nl.refs--; nl.refs == 0 {
			delete(l.names, name)
		}
		l.mu.Unlock()
	}
	if wait {
		select {
		case nl.ch <- struct{}{}:
		case <-ctx.Done():
			release()
			return nil, context.Cause(ctx)
		}
	} else {
		select {
		case nl.ch <- struct{}{}:
		default:
			release()
			return nil, nil
		}
	}
	lockFile := d.OSPath(LocksDir, name+".lock")
	var h *filelock.Handle
	if wait {
		h, err = filelock.Lock(ctx, lockFile)
	} else {
		h, err = filelock.TryLock(lockFile)
	}
	if err != nil || h == nil {
		<-nl.ch
		release()
		return nil, err
	}
	return func() {
		h.Unlock()
		<-nl.ch
		release()
	}, nil
}

// Txn is one transaction on the skills folder (an install, an update, a
// removal, an agent's write, a dependency build): its id names its staging
// folder and trash entry, and its lock file tells recovery it is alive.
type Txn struct {
	d       *Dir
	id      string
	lock    *filelock.Handle
	crashed bool // a test's simulated crash: leave everything as it is
	keep    bool // a rollback failed: leave the journal for recovery
	// fingerprint is the staged tree's, when the caller noted it
	// (SetFingerprint).
	fingerprint string
}

// Begin creates a transaction's staging folder, holding its lock. The
// creation lock makes "create the lock file, lock it, make the folder" one
// step for recovery, which takes the same lock while it decides which
// transactions are dead. The bookkeeping folders must exist (Recover, which
// every operation runs first, makes them).
func (d *Dir) Begin(ctx context.Context) (*Txn, error) {
	c, err := filelock.Lock(ctx, d.OSPath(createLock))
	if err != nil {
		return nil, err
	}
	defer c.Unlock()
	var b [8]byte
	rand.Read(b[:])
	id := hex.EncodeToString(b[:])
	h, err := filelock.Lock(ctx, d.OSPath(StagingDir, id+".lock"))
	if err != nil {
		return nil, err
	}
	if err := d.root.Mkdir(path.Join(StagingDir, id), DirPerm); err != nil {
		h.Unlock()
		os.Remove(d.OSPath(StagingDir, id+".lock"))
		return nil, fmt.Errorf("skillkit: %w", err)
	}
	return &Txn{d: d, id: id, lock: h}, nil
}

// Staging returns a slash path (in the skills folder) inside the
// transaction's staging folder.
func (t *Txn) Staging(elem ...string) string {
	return path.Join(append([]string{StagingDir, t.id}, elem...)...)
}

// StagingOS is Staging as an OS path.
func (t *Txn) StagingOS(elem ...string) string { return t.d.OSPath(t.Staging(elem...)) }

// Trash returns the slash path of the transaction's trash entry.
func (t *Txn) Trash() string { return path.Join(TrashDir, t.id) }

// SetFingerprint notes the fingerprint of the tree staged in t
// (Staging(TreeName)), which the caller computed, so that the swap need
// not hash the files again for the skill's history.
func (t *Txn) SetFingerprint(fp string) { t.fingerprint = fp }

// Keep leaves the transaction's staging folder and trash for recovery: a
// rollback failed, or the trash holds the only copy of something.
func (t *Txn) Keep() { t.keep = true }

// Crashed reports whether a test simulated a crash in this transaction.
func (t *Txn) Crashed() bool { return t.crashed }

// Fault calls the test hook at a point; after ErrSimulatedCrash the
// transaction leaves everything as a crash would.
func (t *Txn) Fault(point string) error {
	if t.d.Fault == nil {
		return nil
	}
	err := t.d.Fault(point)
	if errors.Is(err, ErrSimulatedCrash) {
		t.crashed = true
	}
	return err
}

// undo runs undo after err failed the transaction before its commit point,
// unless a test simulated a crash there, and returns err; when undo fails
// too, the transaction is kept for the next recovery and the error says
// so. The context undo uses must not be cancelled: the caller asked to
// stop, not to leave a half-done change.
func (t *Txn) undo(err error, what string, undo func() error) error {
	if t.crashed {
		return err
	}
	if uerr := undo(); uerr != nil {
		t.keep = true
		return errors.Join(err, fmt.Errorf("skillkit: undoing the %s failed; the next operation finishes it: %w", what, uerr))
	}
	return err
}

// End removes what the transaction left and releases its lock. After a
// simulated crash it only releases the lock, as the system would.
func (t *Txn) End() {
	if !t.crashed && !t.keep {
		t.d.root.RemoveAll(t.Trash())
		t.d.root.RemoveAll(t.Staging())
	}
	t.lock.Unlock()
	if !t.crashed && !t.keep {
		os.Remove(t.d.OSPath(StagingDir, t.id+".lock"))
	}
}

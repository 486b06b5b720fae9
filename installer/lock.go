package installer

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sync"

	"github.com/skillkit-go/skillkit/internal/filelock"
)

// Paths inside the skills folder.
const (
	stagingDir  = ".skillhub/staging" // staging/<id>/: one operation's work
	trashDir    = ".skillhub/trash"   // trash/<id>: the version an operation moved out
	locksDir    = ".skillhub/locks"   // locks/<name>.lock: one skill's operations
	createLock  = ".skillhub/staging/.lock"
	journalName = "journal.json"
	treeName    = "skill" // staging/<id>/skill: the checked skill
	cloneName   = "clone" // staging/<id>/clone: git's checkout
	homeName    = "home"  // staging/<id>/home: git's empty HOME
	dirPerm     = 0o755
)

// nameLocks serializes the goroutines of one Installer by skill name; the
// file lock under .skillhub/locks serializes processes (and other
// Installers on the same folder).
type nameLocks struct {
	mu    sync.Mutex
	names map[string]*nameLock
}

type nameLock struct {
	ch   chan struct{} // holds a token while someone has the name
	refs int
}

// holdName is how the operations on one installed skill start: the name
// checked, dead operations settled (before any lock is held, since settling
// takes skill locks), then the skill's lock taken.
func (in *Installer) holdName(ctx context.Context, name string) (unlock func(), err error) {
	if err := checkName(name); err != nil {
		return nil, err
	}
	if err := in.recoverAll(ctx); err != nil {
		return nil, err
	}
	return in.lockName(ctx, name)
}

// lockName takes skill name for the caller, waiting while another goroutine
// or process has it, until ctx is done.
func (in *Installer) lockName(ctx context.Context, name string) (unlock func(), err error) {
	return in.takeName(ctx, name, true)
}

// tryLockName takes skill name if no one has it, without waiting; unlock is
// nil when someone does.
func (in *Installer) tryLockName(name string) (unlock func(), err error) {
	return in.takeName(context.Background(), name, false)
}

func (in *Installer) takeName(ctx context.Context, name string, wait bool) (unlock func(), err error) {
	l := &in.names
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
	lockFile := in.path(locksDir, name+".lock")
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

// op is one install, update or uninstall: its id names its staging folder
// and trash entry, and its lock file tells recovery it is alive.
type op struct {
	in      *Installer
	id      string
	lock    *filelock.Handle
	crashed bool // a test's simulated crash: leave everything as it is
	keep    bool // a rollback failed: leave the journal for recovery
}

// begin creates the operation's staging folder, holding its lock. The
// creation lock makes "create the lock file, lock it, make the folder"
// one step for recovery, which takes the same lock while it decides which
// operations are dead.
func (in *Installer) begin(ctx context.Context) (*op, error) {
	c, err := filelock.Lock(ctx, in.path(createLock))
	if err != nil {
		return nil, err
	}
	defer c.Unlock()
	var b [8]byte
	rand.Read(b[:])
	id := hex.EncodeToString(b[:])
	h, err := filelock.Lock(ctx, in.path(stagingDir, id+".lock"))
	if err != nil {
		return nil, err
	}
	if err := in.root.Mkdir(path.Join(stagingDir, id), dirPerm); err != nil {
		h.Unlock()
		os.Remove(in.path(stagingDir, id+".lock"))
		return nil, fmt.Errorf("installer: %w", err)
	}
	return &op{in: in, id: id, lock: h}, nil
}

func (o *op) staging(elem ...string) string {
	return path.Join(append([]string{stagingDir, o.id}, elem...)...)
}

func (o *op) trash() string { return path.Join(trashDir, o.id) }

// end removes what the operation left and releases its lock. After a
// simulated crash it only releases the lock, as the system would.
func (o *op) end() {
	if !o.crashed && !o.keep {
		o.in.root.RemoveAll(o.trash())
		o.in.root.RemoveAll(o.staging())
	}
	o.lock.Unlock()
	if !o.crashed && !o.keep {
		os.Remove(o.in.path(stagingDir, o.id+".lock"))
	}
}

// path returns the OS path of a slash path inside the skills folder.
func (in *Installer) path(elem ...string) string {
	return filepath.Join(in.dir, filepath.FromSlash(path.Join(elem...)))
}

// exists reports whether p (a slash path in the skills folder) exists,
// without following a final symbolic link.
func (in *Installer) exists(p string) (bool, error) {
	_, err := in.root.Lstat(p)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	return err == nil, err
}

package registry

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"

	"github.com/skillkit-go/skillkit/internal/atomicfile"
	"github.com/skillkit-go/skillkit/internal/filelock"
	"github.com/skillkit-go/skillkit/internal/pkgerr"
	"github.com/skillkit-go/skillkit/skill"
)

// Paths inside a skills folder.
const (
	HubDir     = ".skillhub"           // skillkit's bookkeeping folder
	LockFile   = ".skillhub/lock.json" // what is installed
	OriginsDir = ".skillhub/origins"   // origins/<name>.json: where each came from
)

const (
	lockPath  = ".skillhub/.lock"  // the file writers and readers lock
	filePerm  = fs.FileMode(0o644) // lock.json and origin files
	dirPerm   = fs.FileMode(0o755) // .skillhub and origins
	originExt = ".json"
)

// FSStore is a [Store] in a skills folder's .skillhub/ (see the package comment
// for the format). It holds no open files; every call opens what it needs.
type FSStore struct {
	dir string
}

var (
	_ Store             = (*FSStore)(nil)
	_ CompareAndSwapper = (*FSStore)(nil)
)

// NewFSStore returns the store of the skills folder dir. Nothing is created until
// the first Put.
func NewFSStore(dir string) *FSStore {
	return &FSStore{dir: dir}
}

// Dir returns the skills folder.
func (s *FSStore) Dir() string { return s.dir }

// Get returns the record for name.
func (s *FSStore) Get(ctx context.Context, name string) (Record, error) {
	var rec Record
	err := s.read(ctx, func(root *os.Root, lf *lockFile) error {
		if _, ok := lf.skills[name]; !ok || skill.ValidateKey(name) != nil {
			return notFound(name)
		}
		var err error
		rec, err = s.record(root, lf, name)
		return err
	})
	return rec, err
}

// List returns every record sorted by name.
func (s *FSStore) List(ctx context.Context) ([]Record, error) {
	var out []Record
	err := s.read(ctx, func(root *os.Root, lf *lockFile) error {
		for name := range lf.skills {
			if err := ctx.Err(); err != nil {
				return err
			}
			rec, err := s.record(root, lf, name)
			if err != nil {
				return err
			}
			out = append(out, rec)
		}
		return nil
	})
	slices.SortFunc(out, func(a, b Record) int { return cmp.Compare(a.Name, b.Name) })
	if out == nil && err == nil {
		out = []Record{}
	}
	return out, err
}

// Put stores rec: its origin file first, then its lock.json entry, which is
// the commit point.
func (s *FSStore) Put(ctx context.Context, rec Record) error {
	if err := rec.Validate(); err != nil {
		return err
	}
	return s.write(ctx, func(root *os.Root, lf *lockFile) error {
		return s.store(root, lf, rec)
	})
}

// CompareAndSwap stores rec only if the stored record is still *old (none,
// with old nil). It holds the exclusive lock from the comparison to the
// write, so it is atomic across processes too.
func (s *FSStore) CompareAndSwap(ctx context.Context, old *Record, rec Record) error {
	if err := checkSwap(old, rec); err != nil {
		return err
	}
	return s.write(ctx, func(root *os.Root, lf *lockFile) error {
		current, err := s.lookup(root, lf, rec.Name)
		if err != nil {
			return err
		}
		if !swapAllowed(old, current) {
			return conflict(rec.Name)
		}
		return s.store(root, lf, rec)
	})
}

// CompareAndDelete removes the record of old.Name only if it is still old.
func (s *FSStore) CompareAndDelete(ctx context.Context, old Record) error {
	return s.write(ctx, func(root *os.Root, lf *lockFile) error {
		current, err := s.lookup(root, lf, old.Name)
		if err != nil {
			return err
		}
		if current == nil {
			return notFound(old.Name)
		}
		if !swapAllowed(&old, current) {
			return conflict(old.Name)
		}
		return s.remove(root, lf, old.Name)
	})
}

// lookup returns the record of name, or nil when there is none.
func (s *FSStore) lookup(root *os.Root, lf *lockFile, name string) (*Record, error) {
	if _, ok := lf.skills[name]; !ok || skill.ValidateKey(name) != nil {
		return nil, nil
	}
	rec, err := s.record(root, lf, name)
	if err != nil {
		return nil, err
	}
	return &rec, nil
}

// store writes rec's origin file, then its lock.json entry.
func (s *FSStore) store(root *os.Root, lf *lockFile, rec Record) error {
	entry, origin := split(rec)
	data, err := json.MarshalIndent(origin, "", "  ")
	if err != nil {
		return err
	}
	if err := atomicfile.WriteFile(root, originPath(rec.Name), append(data, '\n'), filePerm); err != nil {
		return pkgerr.Wrap("registry", err, "writing the origin of %s", rec.Name)
	}
	raw, err := json.Marshal(entry)
	if err != nil {
		return err
	}
	lf.skills[rec.Name] = raw
	return s.writeLock(root, lf)
}

// Delete removes the record: its lock.json entry, then its origin file.
func (s *FSStore) Delete(ctx context.Context, name string) error {
	return s.write(ctx, func(root *os.Root, lf *lockFile) error {
		if _, ok := lf.skills[name]; !ok || skill.ValidateKey(name) != nil {
			return notFound(name)
		}
		return s.remove(root, lf, name)
	})
}

// remove deletes name's lock.json entry, then its origin file.
func (s *FSStore) remove(root *os.Root, lf *lockFile, name string) error {
	delete(lf.skills, name)
	if err := s.writeLock(root, lf); err != nil {
		return err
	}
	if err := root.Remove(originPath(name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("registry: removing the origin of %s: %w", name, err)
	}
	return nil
}

func originPath(name string) string { return path.Join(OriginsDir, name+originExt) }

// read runs fn under the shared lock with lock.json decoded. A skills folder
// without .skillhub is an empty store. Where the lock file cannot be created
// (a read-only folder) it reads without the lock: the files are replaced
// atomically, so it can at worst see a record between its two writes.
func (s *FSStore) read(ctx context.Context, fn func(*os.Root, *lockFile) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	root, err := os.OpenRoot(s.dir)
	if errors.Is(err, fs.ErrNotExist) {
		return fn(nil, &lockFile{skills: map[string]json.RawMessage{}})
	}
	if err != nil {
		return fmt.Errorf("registry: %w", err)
	}
	defer root.Close()
	if _, err := root.Stat(HubDir); errors.Is(err, fs.ErrNotExist) {
		return fn(root, &lockFile{skills: map[string]json.RawMessage{}})
	}
	h, err := filelock.RLock(ctx, filepath.Join(s.dir, filepath.FromSlash(lockPath)))
	switch {
	case err == nil:
		defer h.Unlock()
	case ctx.Err() != nil:
		return err
	}
	lf, err := s.readLock(root)
	if err != nil {
		return err
	}
	return fn(root, lf)
}

// write runs fn under the exclusive lock, creating .skillhub/origins.
func (s *FSStore) write(ctx context.Context, fn func(*os.Root, *lockFile) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := os.MkdirAll(s.dir, dirPerm); err != nil {
		return fmt.Errorf("registry: %w", err)
	}
	root, err := os.OpenRoot(s.dir)
	if err != nil {
		return fmt.Errorf("registry: %w", err)
	}
	defer root.Close()
	if err := root.MkdirAll(OriginsDir, dirPerm); err != nil {
		return fmt.Errorf("registry: %w", err)
	}
	h, err := filelock.Lock(ctx, filepath.Join(s.dir, filepath.FromSlash(lockPath)))
	if err != nil {
		return fmt.Errorf("registry: %w", err)
	}
	defer h.Unlock()
	lf, err := s.readLock(root)
	if err != nil {
		return err
	}
	return fn(root, lf)
}

func (s *FSStore) readLock(root *os.Root) (*lockFile, error) {
	data, err := readLimited(root, LockFile)
	if errors.Is(err, fs.ErrNotExist) {
		return decodeLock(nil)
	}
	if err != nil {
		return nil, err
	}
	if len(bytes.TrimSpace(data)) == 0 {
		// lock.json is written whole (atomicfile): an empty one is damage,
		// not an empty registry, which would show every disabled skill
		// enabled.
		return nil, fmt.Errorf("%w: %s is empty; restore it from a backup, or delete it to record nothing", ErrCorrupt, LockFile)
	}
	return decodeLock(data)
}

func (s *FSStore) writeLock(root *os.Root, lf *lockFile) error {
	data, err := lf.encode()
	if err != nil {
		return err
	}
	return pkgerr.Wrap("registry", atomicfile.WriteFile(root, LockFile, data, filePerm), "writing %s", LockFile)
}

// record joins a lock entry with its origin file, if any.
func (s *FSStore) record(root *os.Root, lf *lockFile, name string) (Record, error) {
	e, err := lf.entry(name)
	if err != nil {
		return Record{}, err
	}
	if root == nil || skill.ValidateKey(name) != nil {
		return join(name, e, nil), nil
	}
	data, err := readLimited(root, originPath(name))
	if errors.Is(err, fs.ErrNotExist) {
		return join(name, e, nil), nil
	}
	if err != nil {
		return Record{}, err
	}
	o, err := decodeOrigin(data)
	if err != nil {
		return Record{}, pkgerr.Wrap("registry", err, "origin of %s", name)
	}
	return join(name, e, &o), nil
}

func readLimited(root *os.Root, name string) ([]byte, error) {
	f, err := root.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
	if err != nil {
		return nil, fmt.Errorf("registry: reading %s: %w", name, err)
	}
	if len(data) > MaxFileBytes {
		return nil, fmt.Errorf("%w: %s is over %d bytes", ErrCorrupt, name, MaxFileBytes)
	}
	return data, nil
}

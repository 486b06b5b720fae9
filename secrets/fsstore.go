package secrets

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/skillkit-go/skillkit/internal/atomicfile"
	"github.com/skillkit-go/skillkit/internal/filelock"
	"github.com/skillkit-go/skillkit/internal/pkgerr"
	"github.com/skillkit-go/skillkit/skill"
)

// Layout of [FSStore].
const (
	// StoreSubdir is where a skills folder keeps its secrets, relative to it.
	StoreSubdir = ".skillhub/secrets"
	// FileExt ends the name of every file that holds a sealed value.
	FileExt = ".sealed"
)

// FSStore is a [Store] in a folder, one file per value:
// DIR/<skill>/<VARIABLE>.sealed holds the sealed bytes as they are. Files
// are created 0600 and folders 0700; a value is replaced by writing a
// temporary file in the same folder, syncing it, renaming it over the old
// one and syncing the folder, so a crash leaves the old value or the new one.
// Temporary files start with a dot and are never listed. Every path is
// opened through an [os.Root] on DIR. DIR is created on the first Put.
//
// Several processes may share the folder. Writers (Put, Delete and the
// compare-and-swap methods) take an exclusive lock on DIR/.lock (flock on
// unix, LockFileEx on Windows), so a CompareAndSwap compares and writes
// with no other write in between, across processes; readers take no lock
// and see the old value or the new one. On a case-insensitive file system
// two variable names that differ only in case share a file; [Vault.Save]
// refuses such names.
type FSStore struct {
	dir string
}

var (
	_ Store             = (*FSStore)(nil)
	_ CompareAndSwapper = (*FSStore)(nil)
)

// storeLockFile is the file every writer of an FSStore locks.
const storeLockFile = ".lock"

// NewFSStore returns the store of the skills folder skillsDir, in its
// .skillhub/secrets folder ([StoreSubdir]). Nothing is created until the
// first Put.
func NewFSStore(skillsDir string) *FSStore {
	return &FSStore{dir: filepath.Join(skillsDir, filepath.FromSlash(StoreSubdir))}
}

// Dir returns the store's folder.
func (s *FSStore) Dir() string { return s.dir }

func valueFile(skillName, key string) string {
	return skillName + "/" + key + FileExt
}

// openRoot opens the store folder; with create it is made first.
// Without create and without the folder, ok is false and err nil.
func (s *FSStore) openRoot(create bool) (root *os.Root, ok bool, err error) {
	if create {
		if err := os.MkdirAll(s.dir, 0o700); err != nil {
			return nil, false, fmt.Errorf("secrets: %w", err)
		}
	}
	root, err = os.OpenRoot(s.dir)
	if errors.Is(err, fs.ErrNotExist) && !create {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("secrets: %w", err)
	}
	return root, true, nil
}

// Get implements [Store].
func (s *FSStore) Get(ctx context.Context, skillName, key string) ([]byte, error) {
	if err := begin(ctx, skillName, key); err != nil {
		return nil, err
	}
	root, ok, err := s.openRoot(false)
	if err != nil || !ok {
		return nil, notFoundOr(err, skillName, key)
	}
	defer root.Close()
	data, exists, err := readValue(root, skillName, key)
	if err == nil && !exists {
		err = notFound(skillName, key)
	}
	return data, err
}

// readValue reads a value file; exists is false when there is none.
func readValue(root *os.Root, skillName, key string) (data []byte, exists bool, err error) {
	f, err := root.Open(valueFile(skillName, key))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("secrets: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, false, fmt.Errorf("secrets: %w", err)
	}
	if !st.Mode().IsRegular() {
		return nil, false, fmt.Errorf("secrets: %s of skill %s is not a regular file", key, skillName)
	}
	data, err = io.ReadAll(io.LimitReader(f, MaxSealedLen+1))
	if err != nil {
		return nil, false, fmt.Errorf("secrets: %w", err)
	}
	if len(data) > MaxSealedLen {
		return nil, false, fmt.Errorf("%w: %s of skill %s is over %d bytes", ErrCannotOpen, key, skillName, MaxSealedLen)
	}
	return data, true, nil
}

func notFoundOr(err error, skillName, key string) error {
	if err != nil {
		return err
	}
	return notFound(skillName, key)
}

// Put implements [Store].
func (s *FSStore) Put(ctx context.Context, skillName, key string, sealed []byte) error {
	return s.write(ctx, skillName, key, true, func(root *os.Root) error {
		return writeValue(root, skillName, key, sealed)
	})
}

// Delete implements [Store].
func (s *FSStore) Delete(ctx context.Context, skillName, key string) error {
	return s.write(ctx, skillName, key, false, func(root *os.Root) error {
		return removeValue(root, skillName, key)
	})
}

// CompareAndSwap implements [CompareAndSwapper].
func (s *FSStore) CompareAndSwap(ctx context.Context, skillName, key string, old, sealed []byte) error {
	return s.write(ctx, skillName, key, true, func(root *os.Root) error {
		current, exists, err := readValue(root, skillName, key)
		if err != nil {
			return err
		}
		if !swapAllowed(old, current, exists) {
			return conflict(skillName, key)
		}
		return writeValue(root, skillName, key, sealed)
	})
}

// CompareAndDelete implements [CompareAndSwapper].
func (s *FSStore) CompareAndDelete(ctx context.Context, skillName, key string, old []byte) error {
	return s.write(ctx, skillName, key, false, func(root *os.Root) error {
		current, exists, err := readValue(root, skillName, key)
		if err != nil {
			return err
		}
		if !exists {
			return notFound(skillName, key)
		}
		if !swapAllowed(old, current, exists) {
			return conflict(skillName, key)
		}
		return removeValue(root, skillName, key)
	})
}

// write checks the names, opens the store folder (creating it when create is
// set; without it, a missing folder means the value is not there) and runs
// fn under the store's exclusive lock.
func (s *FSStore) write(ctx context.Context, skillName, key string, create bool, fn func(*os.Root) error) error {
	if err := begin(ctx, skillName, key); err != nil {
		return err
	}
	root, ok, err := s.openRoot(create)
	if err != nil || !ok {
		return notFoundOr(err, skillName, key)
	}
	defer root.Close()
	h, err := filelock.Lock(ctx, filepath.Join(s.dir, storeLockFile))
	if err != nil {
		return pkgerr.Wrap("secrets", err, "locking the store")
	}
	defer h.Unlock()
	return fn(root)
}

// writeValue replaces a value file atomically, creating the skill's folder.
func writeValue(root *os.Root, skillName, key string, sealed []byte) error {
	if err := root.Mkdir(skillName, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("secrets: %w", err)
	}
	return pkgerr.Wrap("secrets", atomicfile.WriteFile(root, path.Join(skillName, key+FileExt), sealed, 0o600), "writing %s of skill %s", key, skillName)
}

// removeValue removes a value file, and the skill's folder when it is left
// empty.
func removeValue(root *os.Root, skillName, key string) error {
	if err := root.Remove(valueFile(skillName, key)); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return notFound(skillName, key)
		}
		return fmt.Errorf("secrets: %w", err)
	}
	if err := atomicfile.SyncDir(root, skillName); err != nil {
		return pkgerr.Wrap("secrets", err, "removing %s of skill %s", key, skillName)
	}
	// Remove the skill's folder when it is empty; it fails harmlessly when
	// it is not.
	if root.Remove(skillName) == nil {
		return pkgerr.Wrap("secrets", atomicfile.SyncDir(root, "."), "removing the folder of skill %s", skillName)
	}
	return nil
}

// Keys implements [Store].
func (s *FSStore) Keys(ctx context.Context, skillName string) ([]string, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := skill.ValidateKey(skillName); err != nil {
		return nil, err
	}
	root, ok, err := s.openRoot(false)
	if err != nil || !ok {
		return nil, err
	}
	defer root.Close()
	return listKeys(root, skillName)
}

// listKeys returns the variable names of the value files in the skill's
// folder, sorted; nil when the folder does not exist.
func listKeys(root *os.Root, skillName string) ([]string, error) {
	entries, err := readDir(root, skillName)
	if err != nil {
		return nil, err
	}
	var keys []string
	for _, e := range entries {
		key, ok := strings.CutSuffix(e.Name(), FileExt)
		if ok && e.Type().IsRegular() && validateKeyName(key) == nil {
			keys = append(keys, key)
		}
	}
	slices.Sort(keys)
	return keys, nil
}

// Skills implements [Store].
func (s *FSStore) Skills(ctx context.Context) ([]string, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	root, ok, err := s.openRoot(false)
	if err != nil || !ok {
		return nil, err
	}
	defer root.Close()
	entries, err := readDir(root, ".")
	if err != nil {
		return nil, err
	}
	var skills []string
	for _, e := range entries {
		if !e.IsDir() || skill.ValidateKey(e.Name()) != nil {
			continue
		}
		keys, err := listKeys(root, e.Name())
		if err != nil {
			return nil, err
		}
		if len(keys) > 0 {
			skills = append(skills, e.Name())
		}
	}
	slices.Sort(skills)
	return skills, nil
}

// readDir lists a folder inside root; nil when it does not exist.
func readDir(root *os.Root, name string) ([]fs.DirEntry, error) {
	f, err := root.Open(name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("secrets: %w", err)
	}
	defer f.Close()
	entries, err := f.ReadDir(-1)
	if err != nil {
		return nil, fmt.Errorf("secrets: %w", err)
	}
	return entries, nil
}

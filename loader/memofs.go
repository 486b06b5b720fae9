package loader

import (
	"io/fs"
	"path"
	"slices"
	"sync"
	"sync/atomic"
)

// memoFS serves one skill's load: it answers ReadDir from the listings
// already read (discovery's, then its own), and answers Open and Stat of a
// name missing from a known listing with fs.ErrNotExist without asking the
// file system. skill.Load lists a folder, probes for skill.config.yaml and
// for each declared reference, and the stamp lists the sub-folders again;
// with the memo each folder is listed once per scan.
//
// The loaded Skill keeps the FS it was loaded from, so once the load is
// done the memo is sealed: from then on every call goes to the source FS,
// and the listings are dropped.
type memoFS struct {
	base   fs.FS
	sealed atomic.Bool
	mu     sync.Mutex
	dirs   map[string][]fs.DirEntry
}

var (
	_ fs.ReadDirFS  = (*memoFS)(nil)
	_ fs.StatFS     = (*memoFS)(nil)
	_ fs.ReadLinkFS = (*memoFS)(nil)
)

func newMemoFS(base fs.FS, dir string, entries []fs.DirEntry) *memoFS {
	m := &memoFS{base: base, dirs: map[string][]fs.DirEntry{}}
	if entries != nil {
		m.dirs[dir] = entries
	}
	return m
}

// seal ends the memo.
func (m *memoFS) seal() {
	m.sealed.Store(true)
	m.mu.Lock()
	m.dirs = nil
	m.mu.Unlock()
}

// known returns the memoized listing of dir.
func (m *memoFS) known(dir string) ([]fs.DirEntry, bool) {
	if m.sealed.Load() {
		return nil, false
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	e, ok := m.dirs[dir]
	return e, ok
}

// absent reports whether name is missing from its folder's known listing.
func (m *memoFS) absent(name string) bool {
	if name == "." || !fs.ValidPath(name) {
		return false
	}
	entries, ok := m.known(path.Dir(name))
	if !ok {
		return false
	}
	base := path.Base(name)
	return !slices.ContainsFunc(entries, func(e fs.DirEntry) bool { return e.Name() == base })
}

func notExist(op, name string) error {
	return &fs.PathError{Op: op, Path: name, Err: fs.ErrNotExist}
}

// Open opens name, or fails at once when a known listing lacks it.
func (m *memoFS) Open(name string) (fs.File, error) {
	if m.absent(name) {
		return nil, notExist("open", name)
	}
	return m.base.Open(name)
}

// Stat stats name, or fails at once when a known listing lacks it.
func (m *memoFS) Stat(name string) (fs.FileInfo, error) {
	if m.absent(name) {
		return nil, notExist("stat", name)
	}
	return fs.Stat(m.base, name)
}

// ReadDir answers from a known listing, else lists and remembers.
func (m *memoFS) ReadDir(name string) ([]fs.DirEntry, error) {
	if e, ok := m.known(name); ok {
		return slices.Clone(e), nil
	}
	if m.absent(name) {
		return nil, notExist("readdir", name)
	}
	entries, err := fs.ReadDir(m.base, name)
	if err == nil && !m.sealed.Load() {
		m.mu.Lock()
		if m.dirs != nil {
			m.dirs[name] = entries
		}
		m.mu.Unlock()
	}
	return entries, err
}

// ReadLink reads a link of the source FS.
func (m *memoFS) ReadLink(name string) (string, error) {
	if m.absent(name) {
		return "", notExist("readlink", name)
	}
	return fs.ReadLink(m.base, name)
}

// Lstat stats name without following a link.
func (m *memoFS) Lstat(name string) (fs.FileInfo, error) {
	if m.absent(name) {
		return nil, notExist("lstat", name)
	}
	return fs.Lstat(m.base, name)
}

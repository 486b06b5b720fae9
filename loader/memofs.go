package loader

import (
	"io/fs"
	"path"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/skillkit-go/skillkit/skill"
)

// memoFS serves one skill's load. It answers ReadDir from the listings
// already read (discovery's, then its own) and Open and Stat of a name
// missing from a known listing with fs.ErrNotExist without asking the file
// system, so each folder is listed once per scan; and it keeps the stamps
// of what the load read (each folder it listed, and the skill file and
// skill.config.yaml when they are opened), so the rescan stamp costs no
// system call of its own.
//
// The loaded Skill keeps the FS it was loaded from, so once the load is
// done the memo is sealed: from then on every call goes to the source's
// own FS (base), and the listings are dropped.
type memoFS struct {
	dir     string // the skill folder
	scan    scanFS // the scan's reader, until sealed
	base    fs.FS  // the source's FS
	shared  *listings
	settled int64 // see fileStamp.settle
	sealed  atomic.Bool
	mu      sync.Mutex
	dirs    map[string]dirMemo
	files   map[string]fileStamp // stamped when first stat'ed after opening
}

var (
	_ fs.ReadDirFS  = (*memoFS)(nil)
	_ fs.StatFS     = (*memoFS)(nil)
	_ fs.ReadLinkFS = (*memoFS)(nil)
)

// listings are the folder listings one scan read of one source, shared by
// discovery and the loads.
type listings struct {
	mu sync.Mutex
	m  map[string]dirMemo
}

func newListings() *listings { return &listings{m: map[string]dirMemo{}} }

func (l *listings) get(dir string) (dirMemo, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	m, ok := l.m[dir]
	return m, ok
}

func (l *listings) put(dir string, m dirMemo) {
	l.mu.Lock()
	l.m[dir] = m
	l.mu.Unlock()
}

func newMemoFS(scan scanFS, base fs.FS, shared *listings, settled int64, f *Found) *memoFS {
	m := &memoFS{dir: f.Dir, scan: scan, base: base, shared: shared, settled: settled, dirs: map[string]dirMemo{}, files: map[string]fileStamp{}}
	if f.entries != nil {
		m.dirs[f.Dir] = dirMemo{stat: f.stat, entries: f.entries}
	}
	for _, name := range []string{f.File, skill.ConfigFileName} {
		m.files[path.Join(f.Dir, name)] = fileStamp{}
	}
	return m
}

// seal ends the memo.
func (m *memoFS) seal() {
	m.sealed.Store(true)
	m.mu.Lock()
	m.dirs, m.files = nil, nil
	m.mu.Unlock()
}

// known returns the memoized listing of dir.
func (m *memoFS) known(dir string) ([]fs.DirEntry, bool) {
	if m.sealed.Load() {
		return nil, false
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if d, ok := m.dirs[dir]; ok {
		return d.entries, true
	}
	if m.shared != nil {
		if d, ok := m.shared.get(dir); ok {
			if m.inside(dir) { // a listing the skill depends on
				m.dirs[dir] = d
			}
			return d.entries, true
		}
	}
	return nil, false
}

// inside reports whether dir is the skill folder or lies below it.
func (m *memoFS) inside(dir string) bool {
	return dir == m.dir || m.dir == "." || strings.HasPrefix(dir, m.dir+"/")
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
	_, found := slices.BinarySearchFunc(entries, base, func(e fs.DirEntry, name string) int { return strings.Compare(e.Name(), name) })
	return !found
}

func notExist(op, name string) error {
	return &fs.PathError{Op: op, Path: name, Err: fs.ErrNotExist}
}

// reader is what serves a call: the scan's reader during the load, the
// source's FS after it.
func (m *memoFS) reader() fs.FS {
	if m.sealed.Load() {
		return m.base
	}
	return m.scan
}

// Open opens name, or fails at once when a known listing lacks it.
func (m *memoFS) Open(name string) (fs.File, error) {
	if m.absent(name) {
		return nil, notExist("open", name)
	}
	f, err := m.reader().Open(name)
	if err != nil || m.sealed.Load() {
		return f, err
	}
	m.mu.Lock()
	_, stamped := m.files[name]
	m.mu.Unlock()
	if stamped {
		return &stampedFile{File: f, memo: m, name: name}, nil
	}
	return f, nil
}

// stampedFile records the stamp of the first Stat of a file whose stamp
// the rescan needs: taken on the open file, before it is read.
type stampedFile struct {
	fs.File
	memo *memoFS
	name string
	done bool
}

func (f *stampedFile) Stat() (fs.FileInfo, error) {
	info, err := f.File.Stat()
	if err == nil && !f.done {
		f.done = true
		st := stampOf(info, nil)
		st.settle(f.memo.settled)
		f.memo.mu.Lock()
		if f.memo.files != nil {
			f.memo.files[f.name] = st
		}
		f.memo.mu.Unlock()
	}
	return info, err
}

// Stat stats name, or fails at once when a known listing lacks it.
func (m *memoFS) Stat(name string) (fs.FileInfo, error) {
	if m.absent(name) {
		return nil, notExist("stat", name)
	}
	return fs.Stat(m.reader(), name)
}

// ReadDir answers from a known listing, else lists and remembers.
func (m *memoFS) ReadDir(name string) ([]fs.DirEntry, error) {
	if e, ok := m.known(name); ok {
		return slices.Clone(e), nil
	}
	if m.absent(name) {
		return nil, notExist("readdir", name)
	}
	if m.sealed.Load() {
		return fs.ReadDir(m.base, name)
	}
	entries, st, err := m.scan.list(name)
	if err == nil {
		st.settle(m.settled)
		m.mu.Lock()
		if m.dirs != nil {
			m.dirs[name] = dirMemo{stat: st, entries: entries}
		}
		m.mu.Unlock()
	}
	return slices.Clone(entries), err
}

// ReadLink reads a link.
func (m *memoFS) ReadLink(name string) (string, error) {
	if m.absent(name) {
		return "", notExist("readlink", name)
	}
	return fs.ReadLink(m.reader(), name)
}

// Lstat stats name without following a link.
func (m *memoFS) Lstat(name string) (fs.FileInfo, error) {
	if m.absent(name) {
		return nil, notExist("lstat", name)
	}
	return fs.Lstat(m.reader(), name)
}

// stamp returns the stamp of the found folder f from what the load read:
// the skill file (stat'ed now if the load did not open it), the config when
// the folder holds one, and every sub-folder listed. tooMany when the file
// list may have been cut short (files is the number listed).
func (m *memoFS) stamp(f *Found, files int) stamp {
	m.mu.Lock()
	defer m.mu.Unlock()
	st := stamp{dir: f.stat, tooMany: files >= skill.DefaultMaxFiles || len(m.dirs) > maxStampDirs}
	for _, name := range []string{f.File, skill.ConfigFileName} {
		p := path.Join(f.Dir, name)
		fst := m.files[p]
		if !fst.ok {
			if name != f.File && !hasEntry(f.entries, name) {
				continue // no config, as the folder's listing shows
			}
			fst = m.scan.stamp(p)
			fst.settle(m.settled)
		}
		st.paths = append(st.paths, pathStamp{path: p, fileStamp: fst})
	}
	for dir, d := range m.dirs {
		if dir != f.Dir {
			st.paths = append(st.paths, pathStamp{path: dir, fileStamp: d.stat})
		}
	}
	return st
}

// hasEntry reports whether a sorted listing holds name.
func hasEntry(entries []fs.DirEntry, name string) bool {
	_, found := slices.BinarySearchFunc(entries, name, func(e fs.DirEntry, name string) int { return strings.Compare(e.Name(), name) })
	return found
}

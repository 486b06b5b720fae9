package loader

import (
	"io/fs"
	"path"
	"slices"
	"strings"
	"sync"

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
// The loaded Skill keeps the source's own FS, not the memo
// (skill.LoadOptions.KeepFS), so nothing uses the memo once the load is
// done; done then lets a one-shot scan drop the listings the load used.
type memoFS struct {
	dir     string // the skill folder
	scan    scanFS // the scan's reader
	shared  *listings
	settled int64 // see fileStamp.settle
	mu      sync.Mutex
	dirs    []memoDir      // a skill has few folders: a slice beats a map
	index   map[string]int // into dirs, once it is long
	files   [2]memoFile    // the skill file and skill.config.yaml
}

// maxScannedDirs: past this many folders, dirs gets an index.
const maxScannedDirs = 32

type memoDir struct {
	dir string
	dirMemo
}

// memoFile is a file whose stamp the rescan needs, stamped when first
// stat'ed after opening.
type memoFile struct {
	name string // in the skill's folder, memoFS.dir: joined when needed
	st   fileStamp
}

// is reports whether name is the slash path of file in folder dir, as
// path.Join would make it, without making it.
func is(name, dir, file string) bool {
	if dir == "." || dir == "" {
		return name == file
	}
	return len(name) == len(dir)+1+len(file) && name[len(dir)] == '/' &&
		strings.HasPrefix(name, dir) && strings.HasSuffix(name, file)
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
	// forget: a load, once done, drops the listings it used, so a scan
	// that keeps nothing for a rescan (Options.OneShot) does not hold
	// every listing until it ends. A later load that needs one (a nested
	// skill's) lists the folder again.
	forget bool
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

// drop forgets the listings of dirs.
func (l *listings) drop(dirs []memoDir) {
	l.mu.Lock()
	for _, d := range dirs {
		delete(l.m, d.dir)
	}
	l.mu.Unlock()
}

func newMemoFS(scan scanFS, shared *listings, settled int64, f *Found) *memoFS {
	m := &memoFS{dir: f.Dir, scan: scan, shared: shared, settled: settled}
	if f.entries != nil {
		m.dirs = append(m.dirs, memoDir{f.Dir, dirMemo{stat: f.stat, entries: f.entries}})
	}
	m.files[0].name = f.File
	m.files[1].name = skill.ConfigFileName
	return m
}

// lookup returns the memoized listing of dir; the caller holds mu.
func (m *memoFS) lookup(dir string) (dirMemo, bool) {
	if m.index != nil {
		i, ok := m.index[dir]
		if !ok {
			return dirMemo{}, false
		}
		return m.dirs[i].dirMemo, true
	}
	for _, d := range m.dirs {
		if d.dir == dir {
			return d.dirMemo, true
		}
	}
	return dirMemo{}, false
}

// remember adds a listing; the caller holds mu.
func (m *memoFS) remember(dir string, d dirMemo) {
	m.dirs = append(m.dirs, memoDir{dir, d})
	if m.index == nil && len(m.dirs) > maxScannedDirs {
		m.index = make(map[string]int, 2*len(m.dirs))
		for i, d := range m.dirs {
			m.index[d.dir] = i
		}
	} else if m.index != nil {
		m.index[dir] = len(m.dirs) - 1
	}
}

// file returns the slot of a file whose stamp the rescan needs, or nil.
func (m *memoFS) file(name string) *memoFile {
	for i := range m.files {
		if is(name, m.dir, m.files[i].name) {
			return &m.files[i]
		}
	}
	return nil
}

// done ends the load: a one-shot scan's listings that it used are dropped.
func (m *memoFS) done() {
	m.mu.Lock()
	if m.shared != nil && m.shared.forget {
		m.shared.drop(m.dirs)
	}
	m.dirs, m.index = nil, nil
	m.mu.Unlock()
}

// known returns the memoized listing of dir.
func (m *memoFS) known(dir string) ([]fs.DirEntry, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if d, ok := m.lookup(dir); ok {
		return d.entries, true
	}
	if m.shared != nil {
		if d, ok := m.shared.get(dir); ok {
			if m.inside(dir) { // a listing the skill depends on
				m.remember(dir, d)
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

// Open opens name, or fails at once when a known listing lacks it.
func (m *memoFS) Open(name string) (fs.File, error) {
	if m.absent(name) {
		return nil, notExist("open", name)
	}
	f, err := m.scan.Open(name)
	if err != nil {
		return f, err
	}
	if slot := m.file(name); slot != nil {
		return &stampedFile{File: f, memo: m, slot: slot}, nil
	}
	return f, nil
}

// stampedFile records the stamp of the first Stat of a file whose stamp
// the rescan needs: taken on the open file, before it is read.
type stampedFile struct {
	fs.File
	memo *memoFS
	slot *memoFile
	done bool
}

func (f *stampedFile) Stat() (fs.FileInfo, error) {
	info, err := f.File.Stat()
	if err == nil && !f.done {
		f.done = true
		st := stampOf(info, nil)
		st.settle(f.memo.settled)
		f.memo.mu.Lock()
		f.slot.st = st
		f.memo.mu.Unlock()
	}
	return info, err
}

// Stat stats name, or fails at once when a known listing lacks it.
func (m *memoFS) Stat(name string) (fs.FileInfo, error) {
	if m.absent(name) {
		return nil, notExist("stat", name)
	}
	return fs.Stat(m.scan, name)
}

// ReadDir answers from a known listing, else lists and remembers. The
// slices it returns are shared: skill.Load, its only caller, does not
// modify them.
func (m *memoFS) ReadDir(name string) ([]fs.DirEntry, error) {
	if e, ok := m.known(name); ok {
		return e, nil
	}
	if m.absent(name) {
		return nil, notExist("readdir", name)
	}
	entries, st, err := m.scan.list(name)
	if err == nil {
		st.settle(m.settled)
		m.mu.Lock()
		m.remember(name, dirMemo{stat: st, entries: entries})
		m.mu.Unlock()
	}
	return entries, err
}

// ReadLink reads a link.
func (m *memoFS) ReadLink(name string) (string, error) {
	if m.absent(name) {
		return "", notExist("readlink", name)
	}
	return fs.ReadLink(m.scan, name)
}

// Lstat stats name without following a link.
func (m *memoFS) Lstat(name string) (fs.FileInfo, error) {
	if m.absent(name) {
		return nil, notExist("lstat", name)
	}
	return fs.Lstat(m.scan, name)
}

// stamp returns the stamp of the found folder f from what the load read:
// the skill file (stat'ed now if the load did not open it), the config when
// the folder holds one, and every sub-folder listed. tooMany when the file
// list may have been cut short (files is the number listed).
func (m *memoFS) stamp(f *Found, files int) stamp {
	m.mu.Lock()
	defer m.mu.Unlock()
	st := stamp{dir: f.stat, tooMany: files >= skill.DefaultMaxFiles || len(m.dirs) > maxStampDirs,
		paths: make([]pathStamp, 0, len(m.files)+len(m.dirs))}
	for i, slot := range m.files {
		fst := slot.st
		if !fst.ok && i > 0 && !hasEntry(f.entries, skill.ConfigFileName) {
			continue // no config, as the folder's listing shows
		}
		p := path.Join(m.dir, slot.name)
		if !fst.ok {
			fst = m.scan.stamp(p)
			fst.settle(m.settled)
		}
		st.paths = append(st.paths, pathStamp{path: p, fileStamp: fst})
	}
	for _, d := range m.dirs {
		if d.dir != f.Dir {
			st.paths = append(st.paths, pathStamp{path: d.dir, fileStamp: d.stat})
		}
	}
	return st
}

// hasEntry reports whether a sorted listing holds name.
func hasEntry(entries []fs.DirEntry, name string) bool {
	_, found := slices.BinarySearchFunc(entries, name, func(e fs.DirEntry, name string) int { return strings.Compare(e.Name(), name) })
	return found
}

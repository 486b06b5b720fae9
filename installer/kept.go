package installer

import (
	"bytes"
	"io"
	"io/fs"
	"path"
	"sync"

	"github.com/skillkit-go/skillkit/scan"
)

// keptReads is the staging area as the scan and then the fingerprint read
// it. Both read every staged file; a file the scan reads to its end is kept
// in memory, and the fingerprint reads it from there, once, instead of from
// disk again. What the scan does not read whole (files past its limits),
// the fingerprint reads from disk. The scan's own budget, default
// scan.DefaultMaxTotalBytes, bounds what is kept.
//
// Files the extraction wrote and held (hold) are served from memory to
// every reader, the scan and the fingerprint, so neither reads them from
// disk; they count against the same bound.
type keptReads struct {
	fsys    fs.FS
	mu      sync.Mutex
	held    map[string]*heldFile
	kept    map[string]keptData
	bytes   int  // kept now
	stopped bool // the last reader reads: nothing more is kept
}

// keptData is a file as it was read: its content, and what Stat said of it
// when the reader asked (nil if it did not).
type keptData struct {
	data []byte
	info fs.FileInfo
}

// maxKeptBytes bounds what keptReads holds: the most the scan reads of a
// skill by default.
const maxKeptBytes = scan.DefaultMaxTotalBytes

func newKeptReads(fsys fs.FS) *keptReads {
	return &keptReads{fsys: fsys, kept: map[string]keptData{}}
}

// heldFile is a file as the extraction wrote it, and what Stat said of it
// once a reader asked.
type heldFile struct {
	data []byte
	info fs.FileInfo
}

// hold serves files, by slash path relative to folder dir, from memory to
// every reader; they must be what is on disk.
func (k *keptReads) hold(dir string, files map[string][]byte) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.held == nil {
		k.held = make(map[string]*heldFile, len(files))
	}
	for p, data := range files {
		k.held[path.Join(dir, p)] = &heldFile{data: data}
		k.bytes += len(data)
	}
}

// stopKeeping is called before the last reader: what it reads from disk
// would be copied for nobody.
func (k *keptReads) stopKeeping() {
	k.mu.Lock()
	k.stopped = true
	k.mu.Unlock()
}

// Open serves a kept file once, from memory; any other file is opened in
// fsys, and kept if it is read to its end before stopKeeping.
func (k *keptReads) Open(name string) (fs.File, error) {
	k.mu.Lock()
	if h, ok := k.held[name]; ok {
		k.mu.Unlock()
		return &keptFile{Reader: bytes.NewReader(h.data), name: name, held: h, k: k, fsys: k.fsys}, nil
	}
	kd, ok := k.kept[name]
	if ok {
		delete(k.kept, name)
		k.bytes -= len(kd.data)
	}
	stopped := k.stopped
	k.mu.Unlock()
	if ok {
		return &keptFile{Reader: bytes.NewReader(kd.data), name: name, info: kd.info, fsys: k.fsys}, nil
	}
	f, err := k.fsys.Open(name)
	if err != nil || stopped {
		return f, err
	}
	return &keepingFile{File: f, name: name, k: k}, nil
}

// keep keeps what was read of name, if there is room.
func (k *keptReads) keep(name string, kd keptData) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if _, ok := k.kept[name]; ok || k.bytes+len(kd.data) > maxKeptBytes {
		return
	}
	k.kept[name] = kd
	k.bytes += len(kd.data)
}

// The rest of fs.FS's interfaces, answered by fsys: WalkDir lists through
// ReadDir, and the skill's link checks and the fingerprint's links need
// ReadLink and Lstat.

func (k *keptReads) ReadDir(name string) ([]fs.DirEntry, error) { return fs.ReadDir(k.fsys, name) }
func (k *keptReads) Stat(name string) (fs.FileInfo, error)      { return fs.Stat(k.fsys, name) }
func (k *keptReads) ReadLink(name string) (string, error)       { return fs.ReadLink(k.fsys, name) }
func (k *keptReads) Lstat(name string) (fs.FileInfo, error)     { return fs.Lstat(k.fsys, name) }

// keepingFile copies what is read of a file; read to its end, the copy is
// kept.
type keepingFile struct {
	fs.File
	name    string
	k       *keptReads
	data    []byte
	info    fs.FileInfo
	dropped bool // past the room there is: not kept
}

func (f *keepingFile) Read(p []byte) (int, error) {
	n, err := f.File.Read(p)
	if !f.dropped {
		if len(f.data)+n > maxKeptBytes {
			f.data, f.dropped = nil, true
		} else {
			f.data = append(f.data, p[:n]...)
		}
	}
	if err == io.EOF && !f.dropped {
		f.k.keep(f.name, keptData{data: f.data, info: f.info})
		f.dropped = true // kept once
	}
	return n, err
}

// Stat sizes the copy when the reader asks for the size first (the scan
// does), so it is made in one allocation.
func (f *keepingFile) Stat() (fs.FileInfo, error) {
	st, err := f.File.Stat()
	if err == nil {
		f.info = st
	}
	if err == nil && f.data == nil && !f.dropped {
		if size := st.Size(); st.Mode().IsRegular() && size <= maxKeptBytes {
			f.data = make([]byte, 0, size)
		} else {
			f.dropped = true
		}
	}
	return st, err
}

// ReadDir lists a folder opened through keptReads.
func (f *keepingFile) ReadDir(n int) ([]fs.DirEntry, error) {
	if d, ok := f.File.(fs.ReadDirFile); ok {
		return d.ReadDir(n)
	}
	return nil, &fs.PathError{Op: "readdir", Path: f.name, Err: fs.ErrInvalid}
}

// keptFile is a kept or held file, served from memory.
type keptFile struct {
	*bytes.Reader
	name string
	info fs.FileInfo
	held *heldFile // a held file: info is asked of it
	k    *keptReads
	fsys fs.FS
}

// Stat answers from the kept file's Stat when the first reader asked for
// it (the scan does, and the fingerprint then takes the mode and size from
// it without a system call). A held file is stated on disk once, for its
// first reader, and answered from that after.
func (f *keptFile) Stat() (fs.FileInfo, error) {
	if f.held != nil {
		f.k.mu.Lock()
		info := f.held.info
		f.k.mu.Unlock()
		if info != nil {
			return info, nil
		}
		info, err := fs.Stat(f.fsys, f.name)
		if err == nil {
			f.k.mu.Lock()
			f.held.info = info
			f.k.mu.Unlock()
		}
		return info, err
	}
	if f.info != nil {
		return f.info, nil
	}
	return fs.Stat(f.fsys, f.name)
}
func (f *keptFile) Close() error { return nil }

package loader

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// dirFS reads a source folder on disk for one scan through a descriptor of
// the folder, opened when the scan starts. It answers as os.DirFS of the
// same folder would (links are followed, names are checked with
// fs.ValidPath), with fewer system calls and allocations: names are looked
// up from the descriptor, a folder is stamped with fstat on the descriptor
// that lists it, and a file is opened without registering it with the
// runtime's poller (os.Open tries, and fails, for every regular file). The
// scan closes it; skills keep the source's own FS.
type dirFS struct {
	root int
	dir  string // for error messages
	// unstamped: list takes no stamp (LoadAll keeps nothing for a rescan)
	unstamped bool
}

var (
	_ fs.ReadDirFS  = (*dirFS)(nil)
	_ fs.StatFS     = (*dirFS)(nil)
	_ fs.ReadLinkFS = (*dirFS)(nil)
)

// openDirFS opens dir for a scan; ok is false when it cannot, and the
// caller reads the source's FS instead.
func openDirFS(dir string) (*dirFS, bool) {
	fd, err := retry(func() (int, error) {
		return unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	})
	if err != nil {
		return nil, false
	}
	return &dirFS{root: fd, dir: dir}, true
}

func (d *dirFS) close() { unix.Close(d.root) }

// retry repeats a system call interrupted by a signal, as the os package
// does.
func retry[T any](call func() (T, error)) (T, error) {
	for {
		v, err := call()
		if !errors.Is(err, unix.EINTR) {
			return v, err
		}
	}
}

func (d *dirFS) pathError(op, name string, err error) error {
	return &fs.PathError{Op: op, Path: name, Err: err}
}

// at opens name below the root with flags.
func (d *dirFS) at(op, name string, flags int) (int, error) {
	if !fs.ValidPath(name) {
		return -1, d.pathError(op, name, fs.ErrInvalid)
	}
	fd, err := retry(func() (int, error) {
		return unix.Openat(d.root, name, flags|unix.O_CLOEXEC, 0)
	})
	if err != nil {
		return -1, d.pathError(op, name, err)
	}
	return fd, nil
}

// Open opens name. O_NONBLOCK keeps a named pipe from blocking the open;
// reads from regular files and folders ignore it.
func (d *dirFS) Open(name string) (fs.File, error) {
	fd, err := d.at("open", name, unix.O_RDONLY|unix.O_NONBLOCK)
	if err != nil {
		return nil, err
	}
	return &dirFile{fs: d, fd: fd, name: name}, nil
}

func (d *dirFS) stat(op, name string, flags int) (fs.FileInfo, error) {
	if !fs.ValidPath(name) {
		return nil, d.pathError(op, name, fs.ErrInvalid)
	}
	var st unix.Stat_t
	if _, err := retry(func() (struct{}, error) { return struct{}{}, unix.Fstatat(d.root, name, &st, flags) }); err != nil {
		return nil, d.pathError(op, name, err)
	}
	return newFileInfo(path.Base(name), &st), nil
}

// Stat stats name, following links.
func (d *dirFS) Stat(name string) (fs.FileInfo, error) { return d.stat("stat", name, 0) }

// Lstat stats name without following a link.
func (d *dirFS) Lstat(name string) (fs.FileInfo, error) {
	return d.stat("lstat", name, unix.AT_SYMLINK_NOFOLLOW)
}

// ReadLink reads the link name.
func (d *dirFS) ReadLink(name string) (string, error) {
	if !fs.ValidPath(name) {
		return "", d.pathError("readlink", name, fs.ErrInvalid)
	}
	for size := 256; ; size *= 2 {
		buf := make([]byte, size)
		n, err := retry(func() (int, error) { return unix.Readlinkat(d.root, name, buf) })
		if err != nil {
			return "", d.pathError("readlink", name, err)
		}
		if n < size {
			return string(buf[:n]), nil
		}
	}
}

// ReadDir lists a folder, sorted by name.
func (d *dirFS) ReadDir(name string) ([]fs.DirEntry, error) {
	entries, _, err := d.list(name)
	return entries, err
}

// stamp stats name, following links, for a rescan.
func (d *dirFS) stamp(name string) fileStamp {
	if !fs.ValidPath(name) {
		return fileStamp{}
	}
	var st unix.Stat_t
	if _, err := retry(func() (struct{}, error) { return struct{}{}, unix.Fstatat(d.root, name, &st, 0) }); err != nil {
		return fileStamp{}
	}
	return stampOfStat(&st)
}

// list lists a folder, sorted by name, and stamps it with fstat on the
// descriptor it lists, before reading the entries.
func (d *dirFS) list(name string) ([]fs.DirEntry, fileStamp, error) {
	fd, err := d.at("open", name, unix.O_RDONLY|unix.O_DIRECTORY)
	if err != nil {
		return nil, fileStamp{}, err
	}
	defer unix.Close(fd)
	var stamp fileStamp
	if !d.unstamped {
		var st unix.Stat_t
		if _, err := retry(func() (struct{}, error) { return struct{}{}, unix.Fstat(fd, &st) }); err != nil {
			return nil, fileStamp{}, d.pathError("stat", name, err)
		}
		stamp = stampOfStat(&st)
	}
	entries, err := d.readEntries(fd, name)
	if err != nil {
		return nil, fileStamp{}, d.pathError("readdirent", name, err)
	}
	return entries, stamp, nil
}

// direntBufs holds the buffers folders are read into.
var direntBufs = sync.Pool{New: func() any { b := make([]byte, 16<<10); return &b }}

// dirEntry is a folder entry as getdents reports it.
type dirEntry struct {
	fs   *dirFS
	dir  string
	name string
	typ  fs.FileMode
}

func (e *dirEntry) Name() string      { return e.name }
func (e *dirEntry) IsDir() bool       { return e.typ.IsDir() }
func (e *dirEntry) Type() fs.FileMode { return e.typ }
func (e *dirEntry) String() string    { return fs.FormatDirEntry(e) }

// Info stats the entry without following a link, as os.DirEntry's does,
// by its path on disk: the listing may outlive the scan's descriptor.
func (e *dirEntry) Info() (fs.FileInfo, error) {
	return os.Lstat(filepath.Join(e.fs.dir, filepath.FromSlash(e.dir), e.name))
}

// readEntries reads every entry of the open folder fd, the folder dir of d,
// sorted by name: the names in one string, the entries in one slice.
func (d *dirFS) readEntries(fd int, dir string) ([]fs.DirEntry, error) {
	bufp := direntBufs.Get().(*[]byte)
	defer direntBufs.Put(bufp)
	buf := *bufp
	type span struct {
		start, end int
		typ        byte
	}
	var names []byte
	var spans []span
	for {
		n, err := retry(func() (int, error) { return unix.Getdents(fd, buf) })
		if err != nil {
			return nil, err
		}
		if n <= 0 {
			break
		}
		if names == nil {
			names, spans = make([]byte, 0, n/2), make([]span, 0, n/24)
		}
		for off := 0; off < n; {
			// struct linux_dirent64: d_ino u64, d_off i64, d_reclen u16, d_type u8, d_name.
			reclen := int(*(*uint16)(unsafe.Pointer(&buf[off+16])))
			typ := buf[off+18]
			name := buf[off+19 : off+reclen]
			if i := slices.Index(name, 0); i >= 0 {
				name = name[:i]
			}
			off += reclen
			if string(name) == "." || string(name) == ".." {
				continue
			}
			start := len(names)
			names = append(names, name...)
			spans = append(spans, span{start, len(names), typ})
		}
	}
	var all string
	if len(names) > 0 {
		all = unsafe.String(&names[0], len(names)) // names is not written again
	}
	ents := make([]dirEntry, len(spans))
	out := make([]fs.DirEntry, len(spans))
	for i, r := range spans {
		ents[i] = dirEntry{fs: d, dir: dir, name: all[r.start:r.end]}
		out[i] = &ents[i]
		switch r.typ {
		case unix.DT_DIR:
			ents[i].typ = fs.ModeDir
		case unix.DT_LNK:
			ents[i].typ = fs.ModeSymlink
		case unix.DT_REG:
		case unix.DT_FIFO:
			ents[i].typ = fs.ModeNamedPipe
		case unix.DT_SOCK:
			ents[i].typ = fs.ModeSocket
		case unix.DT_CHR:
			ents[i].typ = fs.ModeDevice | fs.ModeCharDevice
		case unix.DT_BLK:
			ents[i].typ = fs.ModeDevice
		default: // DT_UNKNOWN: the file system does not say; ask.
			var st unix.Stat_t
			if err := unix.Fstatat(fd, ents[i].name, &st, unix.AT_SYMLINK_NOFOLLOW); err == nil {
				ents[i].typ = fileMode(&st).Type()
			}
		}
	}
	slices.SortFunc(out, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return out, nil
}

// dirFile is a file or folder opened by dirFS.
type dirFile struct {
	fs   *dirFS
	fd   int
	name string
	dir  []fs.DirEntry // a folder's entries not yet returned by ReadDir
	read bool          // ReadDir has listed the folder
}

func (f *dirFile) Stat() (fs.FileInfo, error) {
	var st unix.Stat_t
	if _, err := retry(func() (struct{}, error) { return struct{}{}, unix.Fstat(f.fd, &st) }); err != nil {
		return nil, f.fs.pathError("stat", f.name, err)
	}
	return newFileInfo(path.Base(f.name), &st), nil
}

func (f *dirFile) Read(b []byte) (int, error) {
	if len(b) == 0 {
		return 0, nil
	}
	n, err := retry(func() (int, error) { return unix.Read(f.fd, b) })
	if err != nil {
		return 0, f.fs.pathError("read", f.name, err)
	}
	if n == 0 {
		return 0, io.EOF
	}
	return n, nil
}

func (f *dirFile) ReadDir(n int) ([]fs.DirEntry, error) {
	if !f.read {
		entries, err := f.fs.readEntries(f.fd, f.name)
		if err != nil {
			return nil, f.fs.pathError("readdirent", f.name, err)
		}
		f.dir, f.read = entries, true
	}
	if n <= 0 {
		out := f.dir
		f.dir = nil
		return out, nil
	}
	if len(f.dir) == 0 {
		return nil, io.EOF
	}
	k := min(n, len(f.dir))
	out := f.dir[:k:k]
	f.dir = f.dir[k:]
	return out, nil
}

func (f *dirFile) Close() error {
	if f.fd < 0 {
		return f.fs.pathError("close", f.name, fs.ErrClosed)
	}
	err := unix.Close(f.fd)
	f.fd = -1
	return err
}

// fileInfo is an fs.FileInfo from a stat, with the stamp a rescan compares.
type fileInfo struct {
	name  string
	mtime time.Time
	st    fileStamp
}

func newFileInfo(name string, st *unix.Stat_t) *fileInfo {
	return &fileInfo{name: name, mtime: time.Unix(st.Mtim.Unix()), st: stampOfStat(st)}
}

func (fi *fileInfo) Name() string       { return fi.name }
func (fi *fileInfo) Size() int64        { return fi.st.size }
func (fi *fileInfo) Mode() fs.FileMode  { return fi.st.mode }
func (fi *fileInfo) ModTime() time.Time { return fi.mtime }
func (fi *fileInfo) IsDir() bool        { return fi.st.mode.IsDir() }
func (fi *fileInfo) Sys() any           { return nil }
func (fi *fileInfo) stamp() fileStamp   { return fi.st }

// fileMode is the fs.FileMode of a stat, as the os package makes it.
func fileMode(st *unix.Stat_t) fs.FileMode {
	mode := fs.FileMode(st.Mode & 0o777)
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFDIR:
		mode |= fs.ModeDir
	case unix.S_IFLNK:
		mode |= fs.ModeSymlink
	case unix.S_IFIFO:
		mode |= fs.ModeNamedPipe
	case unix.S_IFSOCK:
		mode |= fs.ModeSocket
	case unix.S_IFCHR:
		mode |= fs.ModeDevice | fs.ModeCharDevice
	case unix.S_IFBLK:
		mode |= fs.ModeDevice
	}
	if st.Mode&unix.S_ISUID != 0 {
		mode |= fs.ModeSetuid
	}
	if st.Mode&unix.S_ISGID != 0 {
		mode |= fs.ModeSetgid
	}
	if st.Mode&unix.S_ISVTX != 0 {
		mode |= fs.ModeSticky
	}
	return mode
}

// stampOfStat is the stamp of a stat.
func stampOfStat(st *unix.Stat_t) fileStamp {
	return fileStamp{size: st.Size, mtime: st.Mtim.Nano(), ctime: st.Ctim.Nano(), ino: st.Ino, mode: fileMode(st), ok: true}
}

//go:build unix

package osfs

import (
	"io"
	"io/fs"
	"os"
	"syscall"
)

// SkipPoller, added to the flags of os.OpenFile or os.Root.OpenFile for a
// regular file, tells the os package that the descriptor is non-blocking
// already, so it makes no fcntl calls to switch it, nor back when the
// poller refuses the file. Reads and writes of regular files ignore it.
const SkipPoller = syscall.O_NONBLOCK

const openFlags = os.O_RDONLY | SkipPoller

var (
	_ fs.StatFS     = readFS{}
	_ fs.ReadDirFS  = readFS{}
	_ fs.ReadFileFS = readFS{}
	_ fs.ReadLinkFS = readFS{}
)

func wrap(base fs.FS, open func(string) (*os.File, error)) fs.FS {
	return readFS{base: base, open: open}
}

// readFS serves Open and ReadFile with open, everything else with base.
type readFS struct {
	base fs.FS
	open func(name string) (*os.File, error)
}

// Open opens name for reading. The name is checked as the base FS checks
// it, so that an invalid name fails the same way.
func (r readFS) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	f, err := r.open(name)
	if err != nil {
		return nil, err
	}
	return f, nil
}

// ReadFile reads name whole, sized from its stat as [os.ReadFile] does.
func (r readFS) ReadFile(name string) ([]byte, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "readfile", Path: name, Err: fs.ErrInvalid}
	}
	f, err := r.open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	size := 512
	if st, err := f.Stat(); err == nil && st.Size() > 0 && int64(int(st.Size())) == st.Size() {
		size = int(st.Size()) + 1 // one more, so that the read at the end sees EOF
	}
	data := make([]byte, 0, size)
	for {
		n, err := f.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if err == io.EOF {
			return data, nil
		}
		if err != nil {
			return nil, err
		}
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
	}
}

// Stat stats name as the base FS does.
func (r readFS) Stat(name string) (fs.FileInfo, error) { return fs.Stat(r.base, name) }

// ReadDir lists name as the base FS does.
func (r readFS) ReadDir(name string) ([]fs.DirEntry, error) { return fs.ReadDir(r.base, name) }

// Lstat stats name without following a link, as the base FS does.
func (r readFS) Lstat(name string) (fs.FileInfo, error) { return fs.Lstat(r.base, name) }

// ReadLink reads the link name as the base FS does.
func (r readFS) ReadLink(name string) (string, error) { return fs.ReadLink(r.base, name) }

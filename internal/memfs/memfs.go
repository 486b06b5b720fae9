// Package memfs is a read-only [fs.FS] built from a list of files whose
// contents are produced on demand: the skill trees that skillkit fetches
// over the network (a site's discovery index, an MCP server) and the
// archives it reads without unpacking them to disk.
//
// A tree is fixed when it is built: its folders are the parents of its
// files, and its files have the sizes they were declared with. Reading a
// file calls its Open function; data longer or shorter than the declared
// size is an error at the end of the read, so a caller sees no more and no
// fewer bytes than [fs.FileInfo.Size] says. An FS is safe for concurrent use
// when the Open functions are.
package memfs

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"slices"
	"strings"
	"time"
)

// File is one file of a tree.
type File struct {
	// Path is a slash path relative to the root, in clean form (fs.ValidPath).
	Path string
	// Size is the file's length in bytes.
	Size int64
	// Exec marks an executable file (mode 0755 instead of 0644).
	Exec bool
	// Open returns the file's data.
	Open func() (io.ReadCloser, error)
}

// ErrSize is wrapped by the error of a read whose data is longer or
// shorter than the file's declared size.
var ErrSize = errors.New("memfs: data differs from the declared size")

type node struct {
	name     string
	file     *File
	children []*node // folders only, sorted by name
}

// FS is a read-only tree of files.
type FS struct {
	root *node
}

// New builds a tree of files. It refuses a path that is not valid
// (fs.ValidPath, "." excluded), that appears twice, or that is both a file
// and a folder.
func New(files []File) (*FS, error) {
	root := &node{name: "."}
	dirs := map[string]*node{".": root}
	var dir func(p string) (*node, error)
	dir = func(p string) (*node, error) {
		if n, ok := dirs[p]; ok {
			if n.file != nil {
				return nil, fmt.Errorf("memfs: %s is a file and a folder", p)
			}
			return n, nil
		}
		parent, err := dir(path.Dir(p))
		if err != nil {
			return nil, err
		}
		n := &node{name: path.Base(p)}
		parent.children = append(parent.children, n)
		dirs[p] = n
		return n, nil
	}
	for i := range files {
		f := &files[i]
		if f.Path == "." || !fs.ValidPath(f.Path) {
			return nil, fmt.Errorf("memfs: invalid path %q", f.Path)
		}
		if f.Size < 0 || f.Open == nil {
			return nil, fmt.Errorf("memfs: %s has no size or no data", f.Path)
		}
		if _, ok := dirs[f.Path]; ok {
			return nil, fmt.Errorf("memfs: %s appears twice", f.Path)
		}
		parent, err := dir(path.Dir(f.Path))
		if err != nil {
			return nil, err
		}
		n := &node{name: path.Base(f.Path), file: f}
		parent.children = append(parent.children, n)
		dirs[f.Path] = n
	}
	for _, n := range dirs {
		slices.SortFunc(n.children, func(a, b *node) int { return strings.Compare(a.name, b.name) })
	}
	return &FS{root: root}, nil
}

func (m *FS) lookup(op, name string) (*node, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: op, Path: name, Err: fs.ErrInvalid}
	}
	n := m.root
	if name == "." {
		return n, nil
	}
	for elem := range strings.SplitSeq(name, "/") {
		i, found := slices.BinarySearchFunc(n.children, elem, func(c *node, e string) int { return strings.Compare(c.name, e) })
		if !found || n.file != nil {
			return nil, &fs.PathError{Op: op, Path: name, Err: fs.ErrNotExist}
		}
		n = n.children[i]
	}
	return n, nil
}

// Open opens a file or folder of the tree.
func (m *FS) Open(name string) (fs.File, error) {
	n, err := m.lookup("open", name)
	if err != nil {
		return nil, err
	}
	if n.file == nil {
		return &dirFile{n: n, path: name}, nil
	}
	return &file{n: n, path: name}, nil
}

// Stat describes a file or folder without opening it.
func (m *FS) Stat(name string) (fs.FileInfo, error) {
	n, err := m.lookup("stat", name)
	if err != nil {
		return nil, err
	}
	return info{n}, nil
}

// ReadDir lists a folder, sorted by name.
func (m *FS) ReadDir(name string) ([]fs.DirEntry, error) {
	n, err := m.lookup("readdir", name)
	if err != nil {
		return nil, err
	}
	if n.file != nil {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: errors.New("not a folder")}
	}
	out := make([]fs.DirEntry, len(n.children))
	for i, c := range n.children {
		out[i] = fs.FileInfoToDirEntry(info{c})
	}
	return out, nil
}

// Files returns the paths of every file, sorted.
func (m *FS) Files() []string {
	var out []string
	var walk func(prefix string, n *node)
	walk = func(prefix string, n *node) {
		for _, c := range n.children {
			p := path.Join(prefix, c.name)
			if c.file != nil {
				out = append(out, p)
			} else {
				walk(p, c)
			}
		}
	}
	walk("", m.root)
	return out
}

type info struct{ n *node }

func (i info) Name() string { return i.n.name }
func (i info) Size() int64 {
	if i.n.file != nil {
		return i.n.file.Size
	}
	return 0
}
func (i info) Mode() fs.FileMode {
	switch {
	case i.n.file == nil:
		return fs.ModeDir | 0o755
	case i.n.file.Exec:
		return 0o755
	}
	return 0o644
}
func (i info) ModTime() time.Time { return time.Time{} }
func (i info) IsDir() bool        { return i.n.file == nil }
func (i info) Sys() any           { return nil }

// file reads a file's data, opened on the first Read, holding it to its
// declared size.
type file struct {
	n    *node
	path string
	rc   io.ReadCloser
	read int64
	err  error
}

func (f *file) Stat() (fs.FileInfo, error) { return info{f.n}, nil }

func (f *file) Read(p []byte) (int, error) {
	if f.err != nil {
		return 0, f.err
	}
	if f.rc == nil {
		rc, err := f.n.file.Open()
		if err != nil {
			f.err = &fs.PathError{Op: "read", Path: f.path, Err: err}
			return 0, f.err
		}
		f.rc = rc
	}
	n, err := f.rc.Read(p)
	f.read += int64(n)
	size := f.n.file.Size
	switch {
	case f.read > size:
		f.err = &fs.PathError{Op: "read", Path: f.path, Err: fmt.Errorf("%w: more than the %d bytes declared", ErrSize, size)}
		return 0, f.err
	case err == io.EOF && f.read < size:
		f.err = &fs.PathError{Op: "read", Path: f.path, Err: fmt.Errorf("%w: %d of the %d bytes declared", ErrSize, f.read, size)}
		return n, f.err
	case err != nil && err != io.EOF:
		f.err = &fs.PathError{Op: "read", Path: f.path, Err: err}
		return n, f.err
	}
	return n, err
}

func (f *file) Close() error {
	if f.rc != nil {
		return f.rc.Close()
	}
	return nil
}

type dirFile struct {
	n    *node
	path string
	off  int
}

func (d *dirFile) Stat() (fs.FileInfo, error) { return info{d.n}, nil }
func (d *dirFile) Read([]byte) (int, error) {
	return 0, &fs.PathError{Op: "read", Path: d.path, Err: errors.New("is a folder")}
}
func (d *dirFile) Close() error { return nil }

// ReadDir lists the folder as fs.ReadDirFile asks.
func (d *dirFile) ReadDir(n int) ([]fs.DirEntry, error) {
	rest := d.n.children[d.off:]
	if n > 0 && len(rest) == 0 {
		return nil, io.EOF
	}
	if n > 0 && n < len(rest) {
		rest = rest[:n]
	}
	d.off += len(rest)
	out := make([]fs.DirEntry, len(rest))
	for i, c := range rest {
		out[i] = fs.FileInfoToDirEntry(info{c})
	}
	return out, nil
}

package archive

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/skillkit-go/skillkit/internal/osfs"
	"golang.org/x/sync/errgroup"
)

// Modes of what is written, whatever the source says.
const (
	fileMode = 0o644
	execMode = 0o755
	dirMode  = 0o755
)

// chunk is how much is copied between two looks at the context.
const chunk = 64 << 10

// writer writes a checked tree into a destination through an os.Root and
// remembers what it created, so a failure can take it all back. Its files
// are written by several goroutines at once.
type writer struct {
	root *os.Root
	held *Held // nil: nothing is held

	mu   sync.Mutex
	top  map[string]bool     // top-level names created
	dirs map[string]*os.Root // open folders, by slash path
}

// filesPerTake is how many files, in a row, a goroutine takes at a time:
// neighbours share a folder, and creating files in one folder is
// serialised by the kernel, so goroutines do best in different runs.
const filesPerTake = 32

// writers is how many goroutines write the files of a tree: creating a
// file is mostly kernel work, which scales with the cores; a small tree is
// written by one.
func writers(files int) int {
	return max(1, min(runtime.GOMAXPROCS(0), maxWriters, files/filesPerTake))
}

const maxWriters = 4

// writeTree creates dirs (sorted, parents first) and files in dst, which must
// be an existing, empty folder. On error it removes everything it created.
// With concurrent false the files are written, and their sources opened and
// read, by one goroutine: for a source that may not be safe for concurrent
// use (an FS a caller implements). held, when not nil, receives what is
// written.
func writeTree(ctx context.Context, dst string, dirs []string, files []*entry, concurrent bool, held *Held) (err error) {
	root, err := os.OpenRoot(dst)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrDestination, err)
	}
	defer root.Close()
	if err := requireEmpty(root, dst); err != nil {
		return err
	}
	w := &writer{root: root, held: held, top: make(map[string]bool), dirs: make(map[string]*os.Root)}
	defer func() {
		w.closeDirs()
		if err != nil {
			err = errors.Join(err, w.removeAll())
		}
	}()
	for _, d := range dirs {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := root.Mkdir(d, dirMode); err != nil {
			return err
		}
		w.created(d)
		if err := root.Chmod(d, dirMode); err != nil { // the umask may have taken bits away
			return err
		}
	}
	n := 1
	if concurrent {
		n = writers(len(files))
	}
	return w.files(ctx, files, n)
}

// files writes files on n goroutines, each taking the next filesPerTake
// files in a row. The first error stops them all; it is the one returned.
func (w *writer) files(ctx context.Context, files []*entry, n int) error {
	g, ctx := errgroup.WithContext(ctx)
	var next atomic.Int64
	for range n {
		g.Go(func() error {
			buf := make([]byte, chunk)
			for {
				start := int(next.Add(filesPerTake)) - filesPerTake
				if start >= len(files) {
					return nil
				}
				for _, f := range files[start:min(start+filesPerTake, len(files))] {
					if err := ctx.Err(); err != nil {
						return err
					}
					if err := w.file(ctx, f, buf); err != nil {
						return err
					}
				}
			}
		})
	}
	return g.Wait()
}

func requireEmpty(root *os.Root, dst string) error {
	d, err := root.Open(".")
	if err != nil {
		return fmt.Errorf("%w: %w", ErrDestination, err)
	}
	defer d.Close()
	names, err := d.Readdirnames(1)
	switch {
	case err != nil && err != io.EOF:
		return fmt.Errorf("%w: %w", ErrDestination, err)
	case len(names) > 0:
		return fmt.Errorf("%w: %s is not empty", ErrDestination, dst)
	}
	return nil
}

func (w *writer) created(p string) {
	first, _, _ := strings.Cut(p, "/")
	w.mu.Lock()
	w.top[first] = true
	w.mu.Unlock()
}

// removeAll removes every top-level name created.
func (w *writer) removeAll() error {
	var errs []error
	for _, name := range slices.Sorted(maps.Keys(w.top)) {
		if err := w.root.RemoveAll(name); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// maxOpenDirs bounds the folders the writer keeps open.
const maxOpenDirs = 64

// sub returns a root open on folder dir (slash path, "" for the top), so a
// file is created with one openat instead of one per path element, and
// release, to call when done with it. Folders are opened from their
// parent's root and kept open, the first maxOpenDirs of them; one past
// those is opened for the file and closed by release. A kept folder is
// never closed before the end: another goroutine may be using it.
func (w *writer) sub(dir string) (r *os.Root, release func(), err error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.subLocked(dir)
}

func (w *writer) subLocked(dir string) (*os.Root, func(), error) {
	if dir == "" {
		return w.root, func() {}, nil
	}
	if r, ok := w.dirs[dir]; ok {
		return r, func() {}, nil
	}
	parent, base := path.Split(dir)
	pr, releaseParent, err := w.subLocked(strings.TrimSuffix(parent, "/"))
	if err != nil {
		return nil, nil, err
	}
	defer releaseParent()
	r, err := pr.OpenRoot(base)
	if err != nil {
		return nil, nil, err
	}
	if len(w.dirs) >= maxOpenDirs {
		return r, func() { r.Close() }, nil
	}
	w.dirs[dir] = r
	return r, func() {}, nil
}

func (w *writer) closeDirs() {
	for _, r := range w.dirs {
		r.Close()
	}
	clear(w.dirs)
}

// file writes one file through buf, counting the bytes it really gets.
func (w *writer) file(ctx context.Context, f *entry, buf []byte) error {
	dir, base := path.Split(f.path)
	r, release, err := w.sub(strings.TrimSuffix(dir, "/"))
	if err != nil {
		return err
	}
	defer release()
	mode := os.FileMode(fileMode)
	if f.exec {
		mode = execMode
	}
	out, err := r.OpenFile(base, os.O_WRONLY|os.O_CREATE|os.O_EXCL|osfs.SkipPoller, mode)
	if err != nil {
		return err
	}
	w.created(f.path)
	err = w.fill(ctx, out, f, buf)
	if err == nil {
		err = out.Chmod(mode) // the umask may have taken bits away
	}
	return errors.Join(err, out.Close())
}

// fill copies f's data into out in chunks of buf, refusing more bytes than
// declared and stopping when ctx is done.
func (w *writer) fill(ctx context.Context, out *os.File, f *entry, buf []byte) error {
	in, err := f.open()
	if err != nil {
		return &FileError{Path: f.name, Err: err}
	}
	defer in.Close()
	var n int64
	var kept []byte // what is held of f, when there is room for it
	if w.held.reserve(f.size) {
		kept = make([]byte, 0, f.size)
	}
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		k, rerr := in.Read(buf)
		if k > 0 {
			n += int64(k)
			// No file gets more than it declared, and the check refused
			// declarations that add up to more than the total: together
			// the two bound what is written.
			if n > f.size {
				return &FileError{Path: f.name, Err: fmt.Errorf("%w: the data is longer than the %d bytes declared", ErrSizeMismatch, f.size)}
			}
			if _, err := out.Write(buf[:k]); err != nil {
				return err
			}
			if kept != nil {
				kept = append(kept, buf[:k]...)
			}
		}
		switch {
		case rerr == io.EOF && n < f.size:
			return &FileError{Path: f.name, Err: fmt.Errorf("%w: the data ends after %d of the %d bytes declared", ErrSizeMismatch, n, f.size)}
		case rerr == io.EOF:
			if kept != nil {
				w.held.put(f.path, kept)
			}
			return nil
		case errors.Is(rerr, io.ErrUnexpectedEOF):
			return &FileError{Path: f.name, Err: fmt.Errorf("%w: the data ends before the %d bytes declared: %w", ErrSizeMismatch, f.size, rerr)}
		case rerr != nil:
			return &FileError{Path: f.name, Err: rerr}
		}
	}
}

// Held keeps the content of the files an extraction writes, up to Max
// bytes in all, so that what reads the extracted tree next (the security
// scan, the fingerprint) can take them from memory instead of reading them
// back from disk. A file that does not fit in what is left of Max is
// written all the same, and not held. Safe for the extraction's
// concurrent writers.
type Held struct {
	Max int64

	mu    sync.Mutex
	used  int64
	files map[string][]byte
}

// reserve takes room for size bytes, reporting whether there was some; a
// nil Held has none.
func (h *Held) reserve(size int64) bool {
	if h == nil {
		return false
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if size < 0 || h.used+size > h.Max {
		return false
	}
	h.used += size
	return true
}

func (h *Held) put(p string, data []byte) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.files == nil {
		h.files = make(map[string][]byte)
	}
	h.files[p] = data
}

// Files returns the files held, by slash path relative to the destination,
// each with exactly the bytes written to it. The data must not be
// modified.
func (h *Held) Files() map[string][]byte {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.files
}

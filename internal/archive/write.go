package archive

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path"
	"slices"
	"strings"

	"github.com/skillkit-go/skillkit/internal/osfs"
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
// remembers what it created, so a failure can take it all back.
type writer struct {
	root     *os.Root
	top      map[string]bool     // top-level names created
	dirs     map[string]*os.Root // open folders, by slash path
	buf      []byte
	total    int64
	maxTotal int64
}

// writeTree creates dirs (sorted, parents first) and files in dst, which must
// be an existing, empty folder. On error it removes everything it created.
func writeTree(ctx context.Context, dst string, dirs []string, files []*entry, maxTotal int64) (err error) {
	root, err := os.OpenRoot(dst)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrDestination, err)
	}
	defer root.Close()
	if err := requireEmpty(root, dst); err != nil {
		return err
	}
	w := &writer{root: root, top: make(map[string]bool), dirs: make(map[string]*os.Root), buf: make([]byte, chunk), maxTotal: maxTotal}
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
	for _, f := range files {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := w.file(ctx, f); err != nil {
			return err
		}
	}
	return nil
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
	w.top[first] = true
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
// file is created with one openat instead of one per path element. Folders
// are opened from their parent's root and kept open, at most maxOpenDirs at
// a time.
func (w *writer) sub(dir string) (*os.Root, error) {
	if dir == "" {
		return w.root, nil
	}
	if r, ok := w.dirs[dir]; ok {
		return r, nil
	}
	if len(w.dirs) >= maxOpenDirs {
		w.closeDirs()
	}
	parent, base := path.Split(dir)
	pr, err := w.sub(strings.TrimSuffix(parent, "/"))
	if err != nil {
		return nil, err
	}
	r, err := pr.OpenRoot(base)
	if err != nil {
		return nil, err
	}
	w.dirs[dir] = r
	return r, nil
}

func (w *writer) closeDirs() {
	for _, r := range w.dirs {
		r.Close()
	}
	clear(w.dirs)
}

// file writes one file, counting the bytes it really gets.
func (w *writer) file(ctx context.Context, f *entry) error {
	dir, base := path.Split(f.path)
	r, err := w.sub(strings.TrimSuffix(dir, "/"))
	if err != nil {
		return err
	}
	mode := os.FileMode(fileMode)
	if f.exec {
		mode = execMode
	}
	out, err := r.OpenFile(base, os.O_WRONLY|os.O_CREATE|os.O_EXCL|osfs.SkipPoller, mode)
	if err != nil {
		return err
	}
	w.created(f.path)
	err = w.fill(ctx, out, f)
	if err == nil {
		err = out.Chmod(mode) // the umask may have taken bits away
	}
	return errors.Join(err, out.Close())
}

// fill copies f's data into out in chunks, refusing more bytes than declared
// and stopping when ctx is done.
func (w *writer) fill(ctx context.Context, out *os.File, f *entry) error {
	in, err := f.open()
	if err != nil {
		return &FileError{Path: f.name, Err: err}
	}
	defer in.Close()
	var n int64
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		k, rerr := in.Read(w.buf)
		if k > 0 {
			n += int64(k)
			w.total += int64(k)
			switch {
			case n > f.size:
				return &FileError{Path: f.name, Err: fmt.Errorf("%w: the data is longer than the %d bytes declared", ErrSizeMismatch, f.size)}
			case w.total > w.maxTotal:
				return fmt.Errorf("%w: the files add up to more than %d bytes", ErrTotalTooLarge, w.maxTotal)
			}
			if _, err := out.Write(w.buf[:k]); err != nil {
				return err
			}
		}
		switch {
		case rerr == io.EOF && n < f.size:
			return &FileError{Path: f.name, Err: fmt.Errorf("%w: the data ends after %d of the %d bytes declared", ErrSizeMismatch, n, f.size)}
		case rerr == io.EOF:
			return nil
		case errors.Is(rerr, io.ErrUnexpectedEOF):
			return &FileError{Path: f.name, Err: fmt.Errorf("%w: the data ends before the %d bytes declared: %w", ErrSizeMismatch, f.size, rerr)}
		case rerr != nil:
			return &FileError{Path: f.name, Err: rerr}
		}
	}
}

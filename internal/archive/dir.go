package archive

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/skillkit-go/skillkit/internal/hardlink"
)

// CheckDir checks the folder src — a skill on disk that someone asks to
// install — against the rules of the package documentation. It walks the
// folder through an [os.Root] and never follows a link. The report is
// filled in as far as the check got; the error is its Err, the error
// opening src, or ctx's error.
func CheckDir(ctx context.Context, src string, lim *Limits) (Report, error) {
	c, root, err := checkDir(ctx, src, lim.resolve())
	if root != nil {
		root.Close()
	}
	return c.rep, err
}

// CopyDir checks the folder src as [CheckDir] does and, when the check
// passes, copies the skill it holds into dst, an existing empty folder,
// through [os.Root]s on both. A file that changed since the check (another
// file in its place, another size) stops the copy. On any error dst is left
// empty.
func CopyDir(ctx context.Context, src, dst string, lim *Limits) (Report, error) {
	l := lim.resolve()
	c, root, err := checkDir(ctx, src, l)
	if root != nil {
		defer root.Close()
	}
	if err != nil {
		return c.rep, err
	}
	return c.rep, writeTree(ctx, dst, c.rep.Dirs, c.files, l.MaxTotalBytes)
}

func checkDir(ctx context.Context, src string, l Limits) (*checker, *os.Root, error) {
	c := newChecker(l)
	root, err := os.OpenRoot(src)
	if err != nil {
		return c, nil, err
	}
	count := 0
	err = fs.WalkDir(root.FS(), ".", func(p string, d fs.DirEntry, err error) error {
		if p == "." {
			return err
		}
		if err != nil { // a folder that could not be listed, after it was added
			c.invalid(&entry{name: p}, fmt.Errorf("cannot list the folder: %w", err))
			return nil
		}
		if count++; count > l.MaxEntries {
			c.rep.SizeError = fmt.Errorf("%w: more than %d entries", ErrTooManyEntries, l.MaxEntries)
			return fs.SkipAll
		}
		if count%256 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		e := &entry{name: p, dir: d.IsDir()}
		info, err := d.Info()
		if err != nil {
			c.invalid(e, fmt.Errorf("cannot stat: %w", err))
			return skipIf(e.dir)
		}
		e.size, e.exec, e.problem = info.Size(), info.Mode().Perm()&0o111 != 0, diskProblem(info)
		e.open = func() (io.ReadCloser, error) { return openSame(root, p, info) }
		if !c.add(e) {
			return skipIf(e.dir)
		}
		return nil
	})
	if err != nil {
		return c, root, err
	}
	if count > l.MaxEntries {
		return c, root, c.rep.Err()
	}
	c.finish()
	return c, root, c.rep.Err()
}

func skipIf(dir bool) error {
	if dir {
		return fs.SkipDir
	}
	return nil
}

// diskProblem finds what is wrong with a folder item's kind.
func diskProblem(info fs.FileInfo) error {
	mode := info.Mode()
	if err := kindProblem(mode); err != nil {
		return err
	}
	switch {
	case !mode.IsRegular() && !mode.IsDir():
		return fmt.Errorf("%w: the entry is of kind %v", ErrNotRegular, mode.Type())
	case mode.IsRegular() && hardlink.Count(info) > 1:
		return fmt.Errorf("%w: the file has %d hard links", ErrLink, hardlink.Count(info))
	}
	return nil
}

// openSame opens p and makes sure it is still the file that was checked.
func openSame(root *os.Root, p string, checked fs.FileInfo) (io.ReadCloser, error) {
	f, err := root.Open(p)
	if err != nil {
		return nil, err
	}
	now, err := f.Stat()
	if err == nil && !os.SameFile(now, checked) {
		err = fmt.Errorf("%w: the file was replaced after it was checked", ErrSizeMismatch)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

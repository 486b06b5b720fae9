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
	return copyDir(ctx, newChecker(lim.resolve()), src, dst)
}

// CopyCheckout is [CopyDir] for a folder that is a git working tree: its
// top .git (the repository, or the file a linked worktree has instead) is
// left out and reported in Omitted, never copied. A .git anywhere below is
// refused, as CopyDir refuses it.
func CopyCheckout(ctx context.Context, src, dst string, lim *Limits) (Report, error) {
	c := newChecker(lim.resolve())
	c.checkout = true
	return copyDir(ctx, c, src, dst)
}

func copyDir(ctx context.Context, c *checker, src, dst string) (Report, error) {
	root, err := walkDir(ctx, c, src)
	if root != nil {
		defer root.Close()
	}
	if err != nil {
		return c.rep, err
	}
	return c.rep, writeTree(ctx, dst, c.rep.Dirs, c.files, true, nil)
}

// CopyFS checks the tree fsys holds — a skill fetched over the network and
// held in memory — as [CheckDir] checks a folder, and, when the check
// passes, writes it into dst, an existing empty folder. An entry fsys
// reports as a symbolic link, or as anything but a regular file or a
// folder, is refused. A file whose data turns out longer or shorter than
// its listed size stops the write. On any error dst is left empty.
func CopyFS(ctx context.Context, fsys fs.FS, dst string, lim *Limits) (Report, error) {
	l := lim.resolve()
	c := newChecker(l)
	err := walkTree(ctx, c, fsys, func(p string, info fs.FileInfo) (func() (io.ReadCloser, error), error) {
		return func() (io.ReadCloser, error) { return fsys.Open(p) }, kindOf(info)
	})
	if err != nil {
		return c.rep, err
	}
	return c.rep, writeTree(ctx, dst, c.rep.Dirs, c.files, false, nil)
}

func checkDir(ctx context.Context, src string, l Limits) (*checker, *os.Root, error) {
	c := newChecker(l)
	root, err := walkDir(ctx, c, src)
	return c, root, err
}

// walkDir walks the folder src through c; the caller closes the root,
// when not nil.
func walkDir(ctx context.Context, c *checker, src string) (*os.Root, error) {
	root, err := os.OpenRoot(src)
	if err != nil {
		return nil, err
	}
	err = walkTree(ctx, c, root.FS(), func(p string, info fs.FileInfo) (func() (io.ReadCloser, error), error) {
		return func() (io.ReadCloser, error) { return openSame(root, p, info) }, diskProblem(info)
	})
	return root, err
}

// walkTree feeds every item of fsys to c, then finishes the check. inspect
// says, for an item, how its data is read and what only its source can see
// wrong with it.
func walkTree(ctx context.Context, c *checker, fsys fs.FS, inspect func(p string, info fs.FileInfo) (func() (io.ReadCloser, error), error)) error {
	count := 0
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if p == "." {
			return err
		}
		if err != nil { // a folder that could not be listed, after it was added
			c.invalid(&entry{name: p}, fmt.Errorf("cannot list the folder: %w", err))
			return nil
		}
		if count++; count > c.lim.MaxEntries {
			c.rep.SizeError = fmt.Errorf("%w: more than %d entries", ErrTooManyEntries, c.lim.MaxEntries)
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
		e.size, e.exec = info.Size(), info.Mode().Perm()&0o111 != 0
		e.open, e.problem = inspect(p, info)
		if !c.add(e) {
			return skipIf(e.dir)
		}
		return nil
	})
	if err != nil {
		return err
	}
	if count > c.lim.MaxEntries {
		return c.rep.Err()
	}
	c.finish()
	return c.rep.Err()
}

func skipIf(dir bool) error {
	if dir {
		return fs.SkipDir
	}
	return nil
}

// kindOf refuses anything but a regular file or a folder.
func kindOf(info fs.FileInfo) error {
	mode := info.Mode()
	if err := kindProblem(mode); err != nil {
		return err
	}
	if !mode.IsRegular() && !mode.IsDir() {
		return fmt.Errorf("%w: the entry is of kind %v", ErrNotRegular, mode.Type())
	}
	return nil
}

// diskProblem finds what is wrong with a folder item's kind.
func diskProblem(info fs.FileInfo) error {
	if err := kindOf(info); err != nil {
		return err
	}
	if info.Mode().IsRegular() && hardlink.Count(info) > 1 {
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

package loader

import (
	"io/fs"
)

// scanFS is how one scan reads a source: through the source's FS, or, for a
// source on disk whose FS the loader made itself, through a reader of the
// same folder that costs fewer system calls (dirFS, Linux). It serves the
// scan only; skills keep the source's FS.
type scanFS interface {
	fs.ReadDirFS
	fs.StatFS
	fs.ReadLinkFS
	// list lists a folder, sorted by name, and stamps it before reading its
	// entries.
	list(dir string) ([]fs.DirEntry, fileStamp, error)
	// stamp stats name, following links; not ok when it cannot.
	stamp(name string) fileStamp
	close()
}

// openScanFS opens a source for one scan.
func openScanFS(src Source) scanFS {
	if src.Dir != "" && src.ownFS {
		if d, ok := openDirFS(src.Dir); ok {
			return d
		}
	}
	return plainFS{src.FS}
}

// openUnstampedFS opens a source for a scan that keeps nothing for a
// rescan (LoadAll, Options.OneShot): listing a folder takes no stamp.
func openUnstampedFS(src Source) scanFS {
	fsys := openScanFS(src)
	if d, ok := fsys.(*dirFS); ok {
		d.unstamped = true
	}
	return fsys
}

// plainFS reads a source through its FS.
type plainFS struct{ fsys fs.FS }

func (p plainFS) Open(name string) (fs.File, error)          { return p.fsys.Open(name) }
func (p plainFS) ReadDir(name string) ([]fs.DirEntry, error) { return fs.ReadDir(p.fsys, name) }
func (p plainFS) Stat(name string) (fs.FileInfo, error)      { return fs.Stat(p.fsys, name) }
func (p plainFS) Lstat(name string) (fs.FileInfo, error)     { return fs.Lstat(p.fsys, name) }
func (p plainFS) ReadLink(name string) (string, error)       { return fs.ReadLink(p.fsys, name) }
func (p plainFS) stamp(name string) fileStamp                { return stampOf(fs.Stat(p.fsys, name)) }
func (p plainFS) close()                                     {}

func (p plainFS) list(dir string) ([]fs.DirEntry, fileStamp, error) {
	st := stampOf(fs.Stat(p.fsys, dir))
	entries, err := fs.ReadDir(p.fsys, dir)
	return entries, st, err
}

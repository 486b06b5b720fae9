package loader

import (
	"io/fs"
	"path"
	"time"
)

// maxStampDirs caps the sub-folders a stamp records; a skill with more is
// reloaded on every rescan rather than tracked.
const maxStampDirs = 1000

// racyWindow: a file or folder changed less than this before the scan
// that stamped it may change again within the same tick of a coarse clock
// (file systems keep times to 1 or 2 s, or to the kernel's tick) and keep
// its stamp, so such a stamp proves nothing and the next rescan reads the
// skill or folder again, as git treats "racily clean" files.
const racyWindow = 2 * time.Second

// fileStamp is what a rescan compares of a file or folder: size, mode,
// modification time and, where the platform reports them (Linux), inode
// number and status change time, so a file replaced by another with the
// same size and modification time, or given an old modification time
// back, still differs.
type fileStamp struct {
	size  int64
	mtime int64 // 0: the file system keeps none, and the stamp proves nothing
	ctime int64
	ino   uint64
	mode  fs.FileMode
	ok    bool // the file existed
	// unproven: taken too close to a change (racyWindow), or without a
	// modification time; it never proves the file unchanged.
	unproven bool
}

func stampOf(info fs.FileInfo, err error) fileStamp {
	if err != nil {
		return fileStamp{}
	}
	if s, ok := info.(interface{ stamp() fileStamp }); ok {
		return s.stamp()
	}
	st := fileStamp{size: info.Size(), mode: info.Mode(), ok: true}
	if t := info.ModTime(); !t.IsZero() {
		st.mtime = t.UnixNano()
	}
	st.ino, st.ctime = sysStamp(info)
	return st
}

// settle marks the stamp unproven when it cannot prove anything: the file
// system keeps no modification time, or the file changed at or after
// settled (Unix nanoseconds): the start of the scan that took the stamp,
// less the loader's racy window.
func (st *fileStamp) settle(settled int64) {
	if st.mtime == 0 || max(st.mtime, st.ctime) >= settled {
		st.unproven = true
	}
}

// proves reports whether the stamp can prove its file unchanged.
func (st fileStamp) proves() bool { return st.ok && !st.unproven }

// same reports whether two stamps describe the same state of a file.
func (st fileStamp) same(o fileStamp) bool {
	return st.ok == o.ok && st.size == o.size && st.mtime == o.mtime && st.ctime == o.ctime && st.ino == o.ino && st.mode == o.mode
}

// pathStamp is the stamp of a path of the source.
type pathStamp struct {
	path string
	fileStamp
}

// stamp is a skill folder's state as far as its Skill depends on it: the
// folder's own stamp (its listing), and those of the skill file,
// skill.config.yaml when present and every sub-folder the load listed
// (the modification time of a folder changes when an entry is added,
// removed or renamed). Each was taken before what it covers was read, so a
// change during the load shows at the next rescan.
type stamp struct {
	dir     fileStamp
	paths   []pathStamp
	tooMany bool // too many sub-folders to track, or a file list cut short
}

// proves reports whether the stamp can prove the folder unchanged.
func (st *stamp) proves() bool {
	if st.tooMany || !st.dir.proves() || len(st.paths) == 0 {
		return false
	}
	for _, p := range st.paths {
		if !p.proves() {
			return false
		}
	}
	return true
}

// unchanged reports whether the found folder still matches the stamp,
// looking at no more than the stamp recorded: one stat per file and
// sub-folder (the folder's own stamp is discovery's, in f), none when
// change notifications vouch for every folder the stamp covers.
func (st *stamp) unchanged(fsys scanFS, f *Found, trusts trust) bool {
	if !f.stat.same(st.dir) {
		return false
	}
	if st.vouched(trusts, f.Dir) {
		return true
	}
	if !st.proves() {
		return false
	}
	for _, p := range st.paths {
		if !fsys.stamp(p.path).same(p.fileStamp) {
			return false
		}
	}
	return true
}

// trust tells a scan which folders of its source change notifications
// vouch for: watched since before the previous scan looked at them, with no
// notification since. Such a folder holds the listing the previous scan
// saw and its files keep their stamps, so the scan neither lists nor stats
// it. A nil trust vouches for nothing.
type trust func(dir string) bool

func (t trust) vouches(dir string) bool { return t != nil && t(dir) }

// vouched reports whether notifications vouch for the skill folder and for
// the folder of every path the stamp covers (a sub-folder for itself, a file
// for the folder holding it). It proves the skill unchanged even when the
// stamps themselves could not (taken too close to a change): they were
// taken while the folders were watched, so any later change was notified.
func (st *stamp) vouched(trusts trust, skillDir string) bool {
	if trusts == nil || st.tooMany || !trusts(skillDir) {
		return false
	}
	for _, p := range st.paths {
		if !trusts(p.folder()) {
			return false
		}
	}
	return true
}

// folder is the folder whose notifications cover the path: the path itself
// when it is a folder, else the folder holding it.
func (p pathStamp) folder() string {
	if p.mode.IsDir() {
		return p.path
	}
	return path.Dir(p.path)
}

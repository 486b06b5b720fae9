package loader

import (
	"io/fs"
	"path"
	"slices"

	"github.com/skillkit-go/skillkit/skill"
)

// maxStampDirs caps the sub-folders a stamp records; a skill with more is
// reloaded on every rescan rather than tracked.
const maxStampDirs = 1000

// fileStamp is what a rescan compares: size, modification time and mode.
type fileStamp struct {
	size  int64
	mtime int64 // 0: the file system keeps none, and the stamp proves nothing
	mode  fs.FileMode
	ok    bool // the file existed
}

func stampOf(info fs.FileInfo, err error) fileStamp {
	if err != nil {
		return fileStamp{}
	}
	st := fileStamp{size: info.Size(), mode: info.Mode(), ok: true}
	if t := info.ModTime(); !t.IsZero() {
		st.mtime = t.UnixNano()
	}
	return st
}

// stamp is a skill folder's state as far as its Skill depends on it: the
// skill file, skill.config.yaml and the folder listing (the folder's and
// every sub-folder's modification time, which changes when an entry is
// added, removed or renamed).
type stamp struct {
	file    fileStamp
	config  fileStamp
	dirs    []dirStamp // the folder itself first, then sub-folders
	tooMany bool
}

type dirStamp struct {
	rel string
	fileStamp
}

// entryStamp stamps a file by its folder entry, following a link.
func entryStamp(fsys fs.FS, dir string, entries []fs.DirEntry, name string) fileStamp {
	i := slices.IndexFunc(entries, func(e fs.DirEntry) bool { return e.Name() == name })
	if i < 0 {
		return fileStamp{}
	}
	if entries[i].Type()&fs.ModeSymlink != 0 {
		return stampOf(fs.Stat(fsys, path.Join(dir, name)))
	}
	return stampOf(entries[i].Info())
}

// takeStamp records the state of a found skill folder, before it is loaded,
// so a change during the load shows at the next rescan.
func takeStamp(fsys fs.FS, f *Found) stamp {
	st := stamp{
		file:   entryStamp(fsys, f.Dir, f.entries, f.File),
		config: entryStamp(fsys, f.Dir, f.entries, skill.ConfigFileName),
		dirs:   []dirStamp{{rel: ".", fileStamp: f.stat}},
	}
	var walk func(rel string, entries []fs.DirEntry)
	walk = func(rel string, entries []fs.DirEntry) {
		for _, e := range entries {
			if !e.IsDir() || skill.IsInfraDir(e.Name()) || st.tooMany {
				continue
			}
			if len(st.dirs) > maxStampDirs {
				st.tooMany = true
				return
			}
			sub := path.Join(rel, e.Name())
			st.dirs = append(st.dirs, dirStamp{rel: sub, fileStamp: stampOf(e.Info())})
			children, _ := fs.ReadDir(fsys, path.Join(f.Dir, sub))
			walk(sub, children)
		}
	}
	walk(".", f.entries)
	return st
}

// unchanged reports whether the folder still matches the stamp, looking at
// no more than the stamp recorded: one stat per recorded folder and file.
func (st *stamp) unchanged(fsys fs.FS, f *Found) bool {
	if st.tooMany || !st.file.ok || st.file.mtime == 0 {
		return false
	}
	if entryStamp(fsys, f.Dir, f.entries, f.File) != st.file ||
		entryStamp(fsys, f.Dir, f.entries, skill.ConfigFileName) != st.config {
		return false
	}
	if f.stat != st.dirs[0].fileStamp {
		return false
	}
	for _, d := range st.dirs[1:] {
		if stampOf(fs.Stat(fsys, path.Join(f.Dir, d.rel))) != d.fileStamp {
			return false
		}
	}
	return true
}

package loader

import (
	"io/fs"
	"syscall"
)

// sysStamp returns the inode number and status change time the os package
// keeps in a FileInfo, or zeros.
func sysStamp(info fs.FileInfo) (ino uint64, ctime int64) {
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		return st.Ino, st.Ctim.Nano()
	}
	return 0, 0
}

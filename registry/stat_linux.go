//go:build linux

package registry

import (
	"io/fs"
	"syscall"
)

// statKey is what the Verifier's cache compares of a file.
type statKey struct {
	size, mtime, ctime int64
	mode               fs.FileMode
	ino, dev           uint64
}

func statKeyOf(fi fs.FileInfo) statKey {
	k := statKey{size: fi.Size(), mtime: fi.ModTime().UnixNano(), mode: fi.Mode()}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		k.ctime = st.Ctim.Nano()
		k.ino, k.dev = uint64(st.Ino), uint64(st.Dev)
	}
	return k
}

//go:build unix

package archive

import (
	"io/fs"
	"syscall"
)

// linkCount returns how many hard links a file has.
func linkCount(info fs.FileInfo) uint64 {
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1
}

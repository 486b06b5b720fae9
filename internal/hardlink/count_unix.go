//go:build unix

package hardlink

import (
	"io/fs"
	"syscall"
)

// Count returns how many hard links (names) the file described by info has;
// 1 when info does not come from the operating system.
func Count(info fs.FileInfo) uint64 {
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1
}

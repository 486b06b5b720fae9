//go:build !unix

package hardlink

import "io/fs"

// Count returns 1: hard links are only counted on Unix.
func Count(fs.FileInfo) uint64 { return 1 }

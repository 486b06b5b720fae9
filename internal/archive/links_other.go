//go:build !unix

package archive

import "io/fs"

// linkCount returns 1: hard links are only counted on Unix.
func linkCount(fs.FileInfo) uint64 { return 1 }

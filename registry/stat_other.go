//go:build !linux

package registry

import "io/fs"

// statKey is what the Verifier's cache compares of a file.
type statKey struct {
	size, mtime int64
	mode        fs.FileMode
}

func statKeyOf(fi fs.FileInfo) statKey {
	return statKey{size: fi.Size(), mtime: fi.ModTime().UnixNano(), mode: fi.Mode()}
}

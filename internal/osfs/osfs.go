package osfs

import (
	"io/fs"
	"os"
)

// Dir is [os.DirFS] of dir, whose Open and ReadFile skip the poller.
func Dir(dir string) fs.FS {
	if dir == "" {
		return os.DirFS(dir) // which refuses every name
	}
	return wrap(os.DirFS(dir), func(name string) (*os.File, error) {
		return os.OpenFile(dir+string(os.PathSeparator)+name, openFlags, 0)
	})
}

// Root is r.FS(), whose Open and ReadFile skip the poller. The FS is valid
// as long as r is open.
func Root(r *os.Root) fs.FS {
	return wrap(r.FS(), func(name string) (*os.File, error) { return r.OpenFile(name, openFlags, 0) })
}

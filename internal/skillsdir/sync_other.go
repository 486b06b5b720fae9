//go:build !linux

package skillsdir

import (
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
)

// SyncTree makes the files written under dir durable before they are
// swapped in: an fsync of each file and folder (folders only where the
// system can sync them).
func SyncTree(dir string) error {
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && runtime.GOOS == "windows" {
			return nil
		}
		flag := os.O_RDONLY
		if !d.IsDir() && runtime.GOOS == "windows" {
			flag = os.O_RDWR // FlushFileBuffers needs write access
		}
		f, err := os.OpenFile(p, flag, 0)
		if err != nil {
			return err
		}
		err = f.Sync()
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		return err
	})
}

package secrets

import (
	"crypto/rand"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"runtime"
)

// writeFileAtomic replaces dir/name inside root with data, mode 0600: it
// writes a temporary file ".name.tmp-RANDOM" in the same folder, syncs it,
// renames it over dir/name and syncs the folder. On failure the temporary
// file is removed and dir/name is unchanged.
func writeFileAtomic(root *os.Root, dir, name string, data []byte) (err error) {
	tmp := path.Join(dir, "."+name+".tmp-"+rand.Text())
	f, err := root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return fmt.Errorf("secrets: %w", err)
	}
	defer func() {
		if err != nil {
			_ = root.Remove(tmp)
		}
	}()
	_, werr := f.Write(data)
	serr := f.Sync()
	cerr := f.Close()
	if err := errors.Join(werr, serr, cerr); err != nil {
		return fmt.Errorf("secrets: %w", err)
	}
	if err := root.Rename(tmp, path.Join(dir, name)); err != nil {
		return fmt.Errorf("secrets: %w", err)
	}
	return syncDir(root, dir)
}

// syncDir makes a rename or removal in the folder durable. Windows cannot
// sync a folder handle and makes renames durable on its own. A folder that
// is gone was emptied and removed by a concurrent Delete, which synced its
// parent: nothing is left to sync.
func syncDir(root *os.Root, dir string) error {
	if runtime.GOOS == "windows" {
		return nil
	}
	d, err := root.Open(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("secrets: %w", err)
	}
	serr := d.Sync()
	cerr := d.Close()
	if err := errors.Join(serr, cerr); err != nil {
		return fmt.Errorf("secrets: %w", err)
	}
	return nil
}

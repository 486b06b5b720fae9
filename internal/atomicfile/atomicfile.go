package atomicfile

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

// WriteFile atomically replaces the file name (a slash path relative to
// root) with data, with permissions perm. The folder holding name must exist.
func WriteFile(root *os.Root, name string, data []byte, perm fs.FileMode) (err error) {
	dir := path.Dir(name)
	tmp := path.Join(dir, "."+path.Base(name)+"."+randomSuffix()+".tmp")
	f, err := root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return fmt.Errorf("atomicfile: %w", err)
	}
	defer func() {
		if err != nil {
			f.Close()
			root.Remove(tmp)
		}
	}()
	if _, err = f.Write(data); err != nil {
		return fmt.Errorf("atomicfile: writing %s: %w", name, err)
	}
	if err = f.Sync(); err != nil {
		return fmt.Errorf("atomicfile: syncing %s: %w", name, err)
	}
	// OpenFile's perm is filtered by the umask; set it exactly.
	if err = f.Chmod(perm); err != nil && runtime.GOOS != "windows" {
		return fmt.Errorf("atomicfile: %w", err)
	}
	if err = f.Close(); err != nil {
		return fmt.Errorf("atomicfile: closing %s: %w", name, err)
	}
	if err = root.Rename(tmp, name); err != nil {
		return fmt.Errorf("atomicfile: %w", err)
	}
	return SyncDir(root, dir)
}

// WritePath is [WriteFile] for an OS path: it opens the file's folder as the
// root.
func WritePath(name string, data []byte, perm fs.FileMode) error {
	root, err := os.OpenRoot(filepath.Dir(name))
	if err != nil {
		return fmt.Errorf("atomicfile: %w", err)
	}
	defer root.Close()
	return WriteFile(root, filepath.Base(name), data, perm)
}

// SyncDir makes a rename or removal in folder dir of root durable. Windows
// cannot sync a folder and makes renames durable on its own. A folder that is
// gone was removed by someone else, who synced its parent: nothing is left to
// sync.
func SyncDir(root *os.Root, dir string) error {
	if runtime.GOOS == "windows" {
		return nil
	}
	d, err := root.Open(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("atomicfile: %w", err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, errors.ErrUnsupported) {
		return fmt.Errorf("atomicfile: syncing folder %s: %w", dir, err)
	}
	return nil
}

func randomSuffix() string {
	var b [8]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// RemoveStale removes from folder dir of root the temporary files of
// writes that died before their rename (the process was killed, the disk
// filled) and that are older than age: younger ones may belong to a write
// under way in another process. A missing folder has none. It returns how
// many it removed.
func RemoveStale(root *os.Root, dir string, age time.Duration) (int, error) {
	entries, err := fs.ReadDir(root.FS(), dir)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("atomicfile: %w", err)
	}
	n := 0
	for _, e := range entries {
		if !e.Type().IsRegular() || !isTemp(e.Name()) {
			continue
		}
		info, err := e.Info()
		if err != nil || time.Since(info.ModTime()) < age {
			continue
		}
		if err := root.Remove(path.Join(dir, e.Name())); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return n, fmt.Errorf("atomicfile: %w", err)
		}
		n++
	}
	return n, nil
}

// isTemp reports whether name is one WriteFile gives its temporary file:
// "." + the file's name + "." + 16 hex digits + ".tmp".
func isTemp(name string) bool {
	rest, ok := strings.CutSuffix(name, ".tmp")
	if !ok || !strings.HasPrefix(rest, ".") {
		return false
	}
	base, suffix, ok := cutLast(rest[1:], ".")
	if !ok || base == "" || len(suffix) != 16 {
		return false
	}
	_, err := hex.DecodeString(suffix)
	return err == nil && strings.ToLower(suffix) == suffix
}

func cutLast(s, sep string) (before, after string, ok bool) {
	i := strings.LastIndex(s, sep)
	if i < 0 {
		return s, "", false
	}
	return s[:i], s[i+len(sep):], true
}

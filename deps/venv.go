package deps

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"strings"
)

// maxRelocatedFile bounds the files relocateVenv rewrites; venv scripts
// are a few KiB.
const maxRelocatedFile = 4 << 20

// relocateVenv makes a venv built at the OS path from (dir, a slash path
// in root) work at the OS path to. The interpreter finds its prefix from
// where it runs, so the venv itself moves freely; what pip, uv and venv
// wrote as absolute paths are the console scripts' shebangs and the
// activate scripts in bin/ (Scripts\ on Windows), pyvenv.cfg's command
// line, and links pointing into the venv. Those are rewritten. Binary files
// (Windows' .exe launchers) are left as they are.
func relocateVenv(root *os.Root, dir, from, to string) error {
	olds := []string{from}
	if real, err := filepath.EvalSymlinks(from); err == nil && real != from {
		olds = append(olds, real)
	}
	bin := "bin"
	if runtime.GOOS == "windows" {
		bin = "Scripts"
	}
	entries, err := fs.ReadDir(root.FS(), path.Join(dir, bin))
	if err != nil {
		return err
	}
	names := []string{"pyvenv.cfg"}
	for _, e := range entries {
		names = append(names, path.Join(bin, e.Name()))
	}
	for _, name := range names {
		if err := relocateFile(root, path.Join(dir, name), olds, to); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
	}
	return nil
}

// relocateFile rewrites the old paths in one file or link.
func relocateFile(root *os.Root, name string, olds []string, to string) error {
	info, err := root.Lstat(name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if info.Mode()&fs.ModeSymlink != 0 {
		target, err := root.Readlink(name)
		if err != nil {
			return err
		}
		for _, old := range olds {
			if rest, ok := strings.CutPrefix(target, old); ok && (rest == "" || os.IsPathSeparator(rest[0])) {
				if err := root.Remove(name); err != nil {
					return err
				}
				return root.Symlink(to+rest, name)
			}
		}
		return nil
	}
	if !info.Mode().IsRegular() || info.Size() > maxRelocatedFile {
		return nil
	}
	data, err := root.ReadFile(name)
	if err != nil {
		return err
	}
	if bytes.IndexByte(data, 0) >= 0 {
		return nil
	}
	changed := data
	for _, old := range olds {
		changed = bytes.ReplaceAll(changed, []byte(old), []byte(to))
	}
	if bytes.Equal(changed, data) {
		return nil
	}
	return root.WriteFile(name, changed, info.Mode().Perm())
}

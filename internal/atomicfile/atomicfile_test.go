package atomicfile_test

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/skillkit-go/skillkit/internal/atomicfile"
)

func TestWriteFileReplacesAndLeavesNoTemp(t *testing.T) {
	dir := t.TempDir()
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	if err := root.Mkdir("sub", 0o755); err != nil {
		t.Fatal(err)
	}
	for _, content := range []string{"first", "second, longer", "3"} {
		if err := atomicfile.WriteFile(root, "sub/f.json", []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join(dir, "sub", "f.json"))
		if err != nil || string(got) != content {
			t.Fatalf("got %q, %v; want %q", got, err, content)
		}
	}
	entries, _ := os.ReadDir(filepath.Join(dir, "sub"))
	if len(entries) != 1 {
		t.Errorf("temporary files left: %v", entries)
	}
	if runtime.GOOS != "windows" {
		st, _ := os.Stat(filepath.Join(dir, "sub", "f.json"))
		if st.Mode().Perm() != 0o600 {
			t.Errorf("mode %v, want 0600", st.Mode().Perm())
		}
	}
}

func TestWriteFileCannotLeaveRoot(t *testing.T) {
	dir := t.TempDir()
	outside := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(dir, "link")); err != nil {
		t.Skip("no symlinks:", err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	if err := atomicfile.WriteFile(root, "link/x", []byte("x"), 0o644); err == nil {
		t.Fatal("wrote through a symlink leaving the root")
	}
	if err := atomicfile.WriteFile(root, "../x", []byte("x"), 0o644); err == nil {
		t.Fatal("wrote to ../x")
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Errorf("wrote outside: %v", entries)
	}
}

func TestWriteFileMissingFolder(t *testing.T) {
	root, err := os.OpenRoot(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	if err := atomicfile.WriteFile(root, "nope/f", []byte("x"), 0o644); err == nil {
		t.Fatal("no error for a missing folder")
	}
}

// Concurrent writers never leave a torn file: every read sees one whole
// version.
func TestConcurrentWritersAndReaders(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "f")
	versions := map[string]bool{}
	for i := range 8 {
		versions[fmt.Sprintf("%d-%0100d", i, i)] = true
	}
	if err := atomicfile.WritePath(name, []byte("0-"+fmt.Sprintf("%0100d", 0)), 0o644); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for v := range versions {
		wg.Go(func() {
			for range 20 {
				if err := atomicfile.WritePath(name, []byte(v), 0o644); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Go(func() {
		for range 200 {
			data, err := os.ReadFile(name)
			if err != nil {
				t.Error(err)
				return
			}
			if !versions[string(data)] {
				t.Errorf("torn read %q", data)
				return
			}
		}
	})
	wg.Wait()
}

// RemoveStale removes the temporary files of dead writes once they are
// old enough, and nothing else: not a young one (a write under way), not a
// file that only looks alike.
func TestRemoveStale(t *testing.T) {
	dir := t.TempDir()
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	old := time.Now().Add(-time.Hour)
	files := map[string]bool{ // name: removed
		".lock.json.0123456789abcdef.tmp": true,
		".x.fedcba9876543210.tmp":         true,
		".young.0123456789abcdef.tmp":     false,
		"lock.json":                       false,
		".lock.json.0123456789ABCDEF.tmp": false,
		".lock.json.0123.tmp":             false,
		"..0123456789abcdef.tmp":          false,
		"notes.tmp":                       false,
	}
	for name := range files {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(name, ".young") {
			if err := os.Chtimes(p, old, old); err != nil {
				t.Fatal(err)
			}
		}
	}
	n, err := atomicfile.RemoveStale(root, ".", 10*time.Minute)
	if err != nil || n != 2 {
		t.Fatalf("RemoveStale: %d, %v", n, err)
	}
	for name, removed := range files {
		if _, err := os.Stat(filepath.Join(dir, name)); os.IsNotExist(err) != removed {
			t.Errorf("%s: removed %v, want %v", name, os.IsNotExist(err), removed)
		}
	}
	if n, err := atomicfile.RemoveStale(root, "missing", time.Minute); n != 0 || err != nil {
		t.Fatalf("a missing folder: %d, %v", n, err)
	}
}

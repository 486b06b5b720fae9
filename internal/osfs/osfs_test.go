package osfs_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"

	"github.com/skillkit-go/skillkit/internal/fixture"
	"github.com/skillkit-go/skillkit/internal/osfs"
)

// tree writes a small skill folder and returns its path.
func tree(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	fixture.WriteTree(t, dir, map[string]string{
		"SKILL.md":             "---\nname: s\n---\nbody\n",
		"scripts/run.sh":       "echo hi\n",
		"references/a/deep.md": "deep\n",
		"empty.txt":            "",
	})
	return dir
}

var names = []string{"SKILL.md", "scripts/run.sh", "references/a/deep.md", "empty.txt"}

// Both FSes answer as a conforming fs.FS does, with every optional
// interface.
func TestConforms(t *testing.T) {
	dir := tree(t)
	if err := fstest.TestFS(osfs.Dir(dir), names...); err != nil {
		t.Errorf("Dir: %v", err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	if err := fstest.TestFS(osfs.Root(root), names...); err != nil {
		t.Errorf("Root: %v", err)
	}
}

func TestReadFile(t *testing.T) {
	dir := tree(t)
	big := make([]byte, 300<<10)
	for i := range big {
		big[i] = byte('a' + i%26)
	}
	if err := os.WriteFile(filepath.Join(dir, "big.txt"), big, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"big.txt", "empty.txt", "SKILL.md"} {
		want, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		got, err := fs.ReadFile(osfs.Dir(dir), name)
		if err != nil || string(got) != string(want) {
			t.Errorf("ReadFile(%s) = %d bytes, %v; want %d bytes", name, len(got), err, len(want))
		}
	}
	// A file under /proc reports size 0 and still has content.
	if got, err := fs.ReadFile(osfs.Dir("/proc/self"), "status"); err == nil && len(got) == 0 {
		t.Error("ReadFile of a file that reports size 0 returned nothing")
	}
}

// Names the os package refuses are refused the same way, and an empty Dir
// opens nothing (os.DirFS("") would otherwise become the file system root).
func TestRefuses(t *testing.T) {
	dir := tree(t)
	for _, name := range []string{"../x", "/etc/passwd", "a//b", "./SKILL.md", ""} {
		if _, err := osfs.Dir(dir).Open(name); !errors.Is(err, fs.ErrInvalid) {
			t.Errorf("Open(%q) = %v, want ErrInvalid", name, err)
		}
		if _, err := fs.ReadFile(osfs.Dir(dir), name); !errors.Is(err, fs.ErrInvalid) {
			t.Errorf("ReadFile(%q) = %v, want ErrInvalid", name, err)
		}
	}
	if _, err := osfs.Dir("").Open("etc/passwd"); err == nil {
		t.Error(`Dir("") opened etc/passwd`)
	}
}

// Root keeps os.Root's promise: a link out of the folder is not followed.
// Dir follows it, as os.DirFS does.
func TestLinks(t *testing.T) {
	dir := tree(t)
	outside := filepath.Join(t.TempDir(), "secret")
	if err := os.WriteFile(outside, []byte("key"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	if _, err := fs.ReadFile(osfs.Root(root), "link"); err == nil {
		t.Error("Root read a file outside its folder through a link")
	}
	if f, err := osfs.Root(root).Open("link"); err == nil {
		f.Close()
		t.Error("Root opened a file outside its folder through a link")
	}
	if got, err := fs.ReadFile(osfs.Dir(dir), "link"); err != nil || string(got) != "key" {
		t.Errorf("Dir read the link as %q, %v; os.DirFS follows it", got, err)
	}
}

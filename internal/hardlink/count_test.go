//go:build unix

package hardlink

import (
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"
)

func TestCount(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	if err := os.WriteFile(a, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	count := func(p string) uint64 {
		info, err := os.Lstat(p)
		if err != nil {
			t.Fatal(err)
		}
		return Count(info)
	}
	if n := count(a); n != 1 {
		t.Errorf("a file with one name: %d", n)
	}
	if err := os.Link(a, b); err != nil {
		t.Skip("cannot make hard links here:", err)
	}
	if n := count(a); n != 2 {
		t.Errorf("a file with two names: %d", n)
	}
	info, err := fstest.MapFS{"m": {Data: []byte("x")}}.Stat("m")
	if err != nil || Count(info) != 1 {
		t.Errorf("a file not from the operating system: %d, %v", Count(info), err)
	}
}

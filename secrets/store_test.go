package secrets_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"

	"github.com/skillkit-go/skillkit/secrets"
	"github.com/skillkit-go/skillkit/secrets/secretstest"
)

func TestMemStore(t *testing.T) {
	secretstest.TestStore(t, func(t *testing.T) secrets.Store { return &secrets.MemStore{} })
}

func TestFSStore(t *testing.T) {
	secretstest.TestStore(t, func(t *testing.T) secrets.Store {
		return secrets.NewFSStore(t.TempDir())
	})
}

func TestFSStoreLayoutAndModes(t *testing.T) {
	skills := t.TempDir()
	dir := filepath.Join(skills, ".skillhub", "secrets")
	s := secrets.NewFSStore(skills)
	if s.Dir() != dir {
		t.Fatalf("Dir = %s, want %s", s.Dir(), dir)
	}
	ctx := t.Context()
	if keys, err := s.Keys(ctx, "pdf"); err != nil || keys != nil {
		t.Fatalf("Keys before the folder exists: %v %v", keys, err)
	}
	if _, err := os.Stat(dir); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("reading created the folder: %v", err)
	}
	if err := s.Put(ctx, "pdf", "API_KEY", []byte("sealed")); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "pdf", "API_KEY.sealed")
	data, err := os.ReadFile(file)
	if err != nil || string(data) != "sealed" {
		t.Fatalf("%s: %q %v", file, data, err)
	}
	if runtime.GOOS != "windows" {
		for path, want := range map[string]fs.FileMode{dir: 0o700, filepath.Join(dir, "pdf"): 0o700, file: 0o600} {
			st, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			if st.Mode().Perm() != want {
				t.Errorf("%s: mode %v, want %v", path, st.Mode().Perm(), want)
			}
		}
	}
	entries, _ := os.ReadDir(filepath.Join(dir, "pdf"))
	if len(entries) != 1 {
		t.Errorf("a temporary file was left behind: %v", entries)
	}
}

func TestFSStoreIgnoresStrayFiles(t *testing.T) {
	s := secrets.NewFSStore(t.TempDir())
	dir := s.Dir()
	ctx := t.Context()
	if err := s.Put(ctx, "pdf", "API_KEY", []byte("sealed")); err != nil {
		t.Fatal(err)
	}
	// What a crash between creating and renaming a temporary file leaves,
	// and what people drop into folders.
	for _, name := range []string{"pdf/.API_KEY.sealed.tmp-XYZ", "pdf/README.md", "pdf/notes", ".DS_Store", "pdf/LD_PRELOAD.sealed"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "empty"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "pdf", "SUB.sealed"), 0o700); err != nil {
		t.Fatal(err)
	}
	keys, err := s.Keys(ctx, "pdf")
	if err != nil || !slices.Equal(keys, []string{"API_KEY"}) {
		t.Fatalf("Keys = %v, %v", keys, err)
	}
	skills, err := s.Skills(ctx)
	if err != nil || !slices.Equal(skills, []string{"pdf"}) {
		t.Fatalf("Skills = %v, %v", skills, err)
	}
	if _, err := s.Get(ctx, "pdf", "SUB"); err == nil {
		t.Fatal("Get of a folder succeeded")
	}
}

func TestFSStoreRefusesOversizedFile(t *testing.T) {
	s := secrets.NewFSStore(t.TempDir())
	dir := s.Dir()
	if err := os.MkdirAll(filepath.Join(dir, "pdf"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "pdf", "BIG.sealed"), make([]byte, secrets.MaxSealedLen+1), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Get(t.Context(), "pdf", "BIG"); !errors.Is(err, secrets.ErrCannotOpen) {
		t.Fatalf("an oversized file: %v", err)
	}
}

func TestFSStoreDoesNotFollowLinksOut(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links need privileges on Windows")
	}
	skills, outside := t.TempDir(), t.TempDir()
	s := secrets.NewFSStore(skills)
	if err := os.MkdirAll(s.Dir(), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(s.Dir(), "pdf")); err != nil {
		t.Fatal(err)
	}
	if err := s.Put(t.Context(), "pdf", "API_KEY", []byte("sealed")); err == nil {
		t.Fatal("Put wrote through a link that leaves the store")
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Fatalf("files written outside the store: %v", entries)
	}
}

package archive

import (
	"bytes"
	"compress/flate"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillkit-go/skillkit/internal/fixture"
	"github.com/skillkit-go/skillkit/internal/testcorpus"
	"github.com/skillkit-go/skillkit/registry"
)

// packBack packs dir, extracts the archive with the default limits into a
// fresh folder and returns the archive and that folder.
func packBack(t *testing.T, dir string) ([]byte, string) {
	t.Helper()
	var buf bytes.Buffer
	if err := Pack(t.Context(), &buf, dir); err != nil {
		t.Fatal(err)
	}
	_, stage := staging(t)
	if _, err := ExtractZip(t.Context(), bytes.NewReader(buf.Bytes()), int64(buf.Len()), stage, nil); err != nil {
		t.Fatalf("the packed archive does not extract: %v", err)
	}
	return buf.Bytes(), stage
}

func fingerprint(t *testing.T, dir string) string {
	t.Helper()
	fp, err := registry.Fingerprint(t.Context(), os.DirFS(dir), ".")
	if err != nil {
		t.Fatal(err)
	}
	return fp
}

// Every corpus skill, copied as an install copies it, packs into an
// archive that extracts to the same fingerprint, and packs the same bytes
// twice.
func TestPackCorpusRoundTrip(t *testing.T) {
	root, dirs := testcorpus.SkillDirs(t)
	packed := 0
	for _, d := range dirs {
		_, copied := staging(t)
		if _, err := CopyDir(t.Context(), filepath.Join(root, d), copied, nil); err != nil {
			continue // the install refuses it; nothing to pack
		}
		data, back := packBack(t, copied)
		if got, want := fingerprint(t, back), fingerprint(t, copied); got != want {
			t.Errorf("%s: the packed copy has fingerprint %s, the copy %s", d, got, want)
		}
		var again bytes.Buffer
		if err := Pack(t.Context(), &again, copied); err != nil || !bytes.Equal(again.Bytes(), data) {
			t.Errorf("%s: packing twice gave other bytes (%v)", d, err)
		}
		packed++
	}
	if packed < len(dirs)*9/10 {
		t.Fatalf("only %d of %d corpus skills were packed", packed, len(dirs))
	}
}

// Executable bits, empty folders and nested paths survive; infrastructure
// folders are left out, as the fingerprint leaves them out; a file that
// deflates past the ratio limit is stored, so the archive still extracts.
func TestPackKeepsWhatTheFingerprintCounts(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"SKILL.md":                  skillMD,
		"scripts/run.sh":            "#!/bin/sh\necho hi\n",
		"references/deep/a.md":      "a",
		".venv/bin/python":          "not packed",
		"node_modules/x/index.js":   "not packed",
		"sub/__pycache__/m.pyc":     "not packed",
		"assets/zeros.bin":          strings.Repeat("\x00", 900<<10),
		"assets/small-repeated.txt": strings.Repeat("ab", 10<<10),
	}
	fixture.WriteTree(t, dir, files)
	if err := os.Chmod(filepath.Join(dir, "scripts/run.sh"), 0o750); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "empty"), 0o700); err != nil {
		t.Fatal(err)
	}
	_, back := packBack(t, dir)
	if got, want := fingerprint(t, back), fingerprint(t, dir); got != want {
		t.Fatalf("fingerprint after the round trip %s, before %s", got, want)
	}
	info, err := os.Stat(filepath.Join(back, "scripts/run.sh"))
	if err != nil || info.Mode().Perm() != 0o755 {
		t.Errorf("run.sh: %v %v, want an executable 0755 file", info, err)
	}
	if info, err := os.Stat(filepath.Join(back, "empty")); err != nil || !info.IsDir() {
		t.Errorf("the empty folder is gone: %v", err)
	}
	for _, p := range []string{".venv", "node_modules", "sub/__pycache__"} {
		if _, err := os.Lstat(filepath.Join(back, p)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s was packed: %v", p, err)
		}
	}
}

// PackLevel at flate.BestSpeed gives an archive that extracts to the same
// fingerprint; a level flate does not know is an error, not a panic.
func TestPackLevel(t *testing.T) {
	dir := t.TempDir()
	fixture.WriteTree(t, dir, map[string]string{"SKILL.md": skillMD, "references/a.md": strings.Repeat("words and words ", 4000)})
	var fast bytes.Buffer
	if err := PackLevel(t.Context(), &fast, dir, flate.BestSpeed); err != nil {
		t.Fatal(err)
	}
	back := t.TempDir()
	if _, err := ExtractZip(t.Context(), bytes.NewReader(fast.Bytes()), int64(fast.Len()), back, nil); err != nil {
		t.Fatal(err)
	}
	if got, want := fingerprint(t, back), fingerprint(t, dir); got != want {
		t.Fatalf("fingerprint after the fast round trip %s, before %s", got, want)
	}
	if err := PackLevel(t.Context(), io.Discard, dir, 42); err == nil {
		t.Fatal("level 42 packed")
	}
}

// A symbolic link cannot be packed: the archive checks would refuse it on
// the way back, so Pack refuses it first and names it.
func TestPackRefusesLinks(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte(skillMD), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/etc/passwd", filepath.Join(dir, "link")); err != nil {
		t.Skip(err)
	}
	err := Pack(t.Context(), new(bytes.Buffer), dir)
	if !errors.Is(err, ErrPackLink) || !strings.Contains(err.Error(), "link") || !strings.HasPrefix(err.Error(), "archive: ") {
		t.Fatalf("Pack of a folder with a link: %v", err)
	}
}

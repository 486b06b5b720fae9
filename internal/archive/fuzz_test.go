package archive

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/skillkit-go/skillkit/skill"
)

// FuzzExtractZip: whatever the bytes, ExtractZip never panics, never writes
// outside the staging folder, never creates anything but regular files and
// folders with the promised modes, leaves the staging folder empty on
// error, writes exactly what its report lists on success, and agrees with
// CheckZip.
func FuzzExtractZip(f *testing.F) {
	f.Add(buildZip(f, zf{name: "SKILL.md", body: skillMD}, zf{name: "scripts/run.sh", body: "echo\n", mode: 0o755}, zf{name: "assets/"}))
	f.Add(buildZip(f, zf{name: "repo-main/SKILL.md", body: skillMD}, zf{name: "repo-main/a/b.md", body: "b", store: true}))
	for _, tc := range hostileZips() {
		r, size := tc.zip(f)
		if size > 4<<10 { // large seeds make minimizing slow

			continue
		}
		b := make([]byte, size)
		if _, err := r.ReadAt(b, 0); err != nil && err != io.EOF {
			f.Fatal(err)
		}
		f.Add(b)
	}
	lim := &Limits{MaxArchiveBytes: 1 << 20, MaxFileBytes: 64 << 10, MaxTotalBytes: 256 << 10, MaxEntries: 64}
	// One staging folder per worker, made once and emptied after each
	// input: creating folders per input made the file system, not the
	// code, the bottleneck.
	parent := f.TempDir()
	stage := filepath.Join(parent, "staging", "x")
	if err := os.MkdirAll(stage, 0o755); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		defer emptyFolder(t, stage)
		held := &Held{Max: 16 << 10} // room for some files, not all
		rep, err := ExtractZipFolderHeld(t.Context(), bytes.NewReader(data), int64(len(data)), "", stage, lim, held)
		_, checkErr := CheckZip(t.Context(), bytes.NewReader(data), int64(len(data)), lim)
		switch {
		case checkErr != nil && err == nil:
			t.Fatalf("CheckZip refused (%v), ExtractZip wrote", checkErr)
		case checkErr == nil && err != nil && !errors.Is(err, ErrSizeMismatch) && !errors.Is(err, ErrCorrupt):
			t.Fatalf("CheckZip passed, ExtractZip failed: %v", err)
		}

		var files, dirs []string
		walkErr := filepath.WalkDir(parent, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(stage, p)
			rel = filepath.ToSlash(rel)
			inStage := rel != "." && !strings.HasPrefix(rel, "../") && rel != ".."
			if !inStage {
				if p != parent && p != filepath.Dir(stage) && p != stage {
					t.Errorf("written outside the staging folder: %s", p)
				}
				return nil
			}
			info, err := d.Info()
			if err != nil {
				return err
			}
			switch mode := info.Mode(); {
			case mode.IsDir() && mode.Perm() == dirMode:
				dirs = append(dirs, rel)
			case mode.IsRegular() && (mode.Perm() == fileMode || mode.Perm() == execMode):
				files = append(files, rel)
			default:
				t.Errorf("%s has mode %v", rel, mode)
			}
			return nil
		})
		if walkErr != nil {
			t.Fatal(walkErr)
		}
		if err != nil {
			if len(files)+len(dirs) > 0 {
				t.Fatalf("left behind after %v: %q %q", err, files, dirs)
			}
			return
		}
		slices.Sort(files)
		slices.Sort(dirs)
		if !slices.Equal(files, rep.Valid) || !slices.Equal(dirs, rep.Dirs) {
			t.Fatalf("wrote files %q dirs %q, report says %q %q", files, dirs, rep.Valid, rep.Dirs)
		}
		if !slices.ContainsFunc(files, isSkillFile) {
			t.Fatalf("no SKILL.md among %q", files)
		}
		checkHeld(t, held, stage)
	})
}

// checkHeld: every file held is one written, with the bytes on disk, and
// all of them fit in held.Max.
func checkHeld(t *testing.T, held *Held, dst string) {
	t.Helper()
	total := 0
	for p, data := range held.Files() {
		total += len(data)
		disk, err := os.ReadFile(filepath.Join(dst, filepath.FromSlash(p)))
		if err != nil {
			t.Fatalf("held %s: %v", p, err)
		}
		if !bytes.Equal(disk, data) {
			t.Fatalf("held %s: %d bytes, %d on disk", p, len(data), len(disk))
		}
	}
	if int64(total) > held.Max {
		t.Fatalf("held %d bytes, over %d", total, held.Max)
	}
}

// emptyFolder removes everything inside dir.
func emptyFolder(t *testing.T, dir string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if err := os.RemoveAll(filepath.Join(dir, e.Name())); err != nil {
			t.Fatal(err)
		}
	}
}

// FuzzExtractZipFolder: whatever the bytes and the folder asked for,
// ExtractZipFolder writes only inside the staging folder, nothing on
// error, exactly what its report lists on success, with a SKILL.md at the
// top; it never passes an archive CheckZip refuses for its entries.
func FuzzExtractZipFolder(f *testing.F) {
	f.Add(buildZip(f, zf{name: "skills/a/SKILL.md", body: skillMD}, zf{name: "skills/a/run.sh", body: "echo\n", mode: 0o755}, zf{name: "skills/b/SKILL.md", body: skillMD}), "skills/a")
	f.Add(buildZip(f, zf{name: "a/SKILL.md", body: skillMD}, zf{name: "a/../b/SKILL.md", body: skillMD}), "a")
	f.Add(buildZip(f, zf{name: "x/SKILL.md", body: skillMD}), "x/")
	lim := &Limits{MaxArchiveBytes: 1 << 20, MaxFileBytes: 64 << 10, MaxTotalBytes: 256 << 10, MaxEntries: 64}
	parent := f.TempDir()
	stage := filepath.Join(parent, "staging", "x")
	if err := os.MkdirAll(stage, 0o755); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte, folder string) {
		if folder == "" || skill.CheckPath(folder) != nil {
			return // the installer passes clean folders only (cleanSubdir)
		}
		defer emptyFolder(t, stage)
		rep, err := ExtractZipFolder(t.Context(), bytes.NewReader(data), int64(len(data)), folder, stage, lim)
		check, _ := CheckZip(t.Context(), bytes.NewReader(data), int64(len(data)), lim)
		if err == nil && (len(check.Invalid) > 0 || check.SizeError != nil) {
			t.Fatalf("CheckZip found %v %v, ExtractZipFolder wrote", check.Invalid, check.SizeError)
		}
		var files []string
		walkErr := filepath.WalkDir(parent, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(stage, p)
			if rel == "." || rel == ".." || strings.HasPrefix(rel, "../") {
				if p != parent && p != filepath.Dir(stage) && p != stage {
					t.Errorf("written outside the staging folder: %s", p)
				}
				return nil
			}
			if !d.IsDir() {
				files = append(files, filepath.ToSlash(rel))
			}
			return nil
		})
		if walkErr != nil {
			t.Fatal(walkErr)
		}
		if err != nil {
			if len(files) > 0 {
				t.Fatalf("left behind after %v: %q", err, files)
			}
			return
		}
		slices.Sort(files)
		if !slices.Equal(files, rep.Valid) || !slices.ContainsFunc(files, isSkillFile) {
			t.Fatalf("wrote %q, report says %q", files, rep.Valid)
		}
	})
}

package installer

import (
	"bytes"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/skillkit-go/skillkit/scan"
)

// readName reads a file of fsys whole, or its first n bytes when n >= 0.
func readName(t *testing.T, fsys fs.FS, name string, n int) []byte {
	t.Helper()
	f, err := fsys.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var r io.Reader = f
	if n >= 0 {
		r = io.LimitReader(f, int64(n))
	}
	data, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// A file read to its end is served once more from memory, as it was read
// and stated; a file read in part is not kept.
func TestKeptReads(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("whole.md", "first")
	write("part.md", "first")
	k := newKeptReads(os.DirFS(dir))
	// As the scan reads: the size first, then everything.
	f, err := k.Open("whole.md")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Stat(); err != nil {
		t.Fatal(err)
	}
	if got, err := io.ReadAll(f); err != nil || string(got) != "first" {
		t.Fatalf("read %q, %v", got, err)
	}
	f.Close()
	if got := readName(t, k, "part.md", 2); string(got) != "fi" {
		t.Fatalf("read %q", got)
	}
	write("whole.md", "second")
	write("part.md", "second")
	f, err = k.Open("whole.md")
	if err != nil {
		t.Fatal(err)
	}
	if st, err := f.Stat(); err != nil || st.Size() != int64(len("first")) {
		t.Errorf("Stat of the kept file = %v, %v; want it as read, %d bytes", st, err, len("first"))
	}
	if got, _ := io.ReadAll(f); string(got) != "first" {
		t.Errorf("the second read of a file read whole got %q, want the kept %q", got, "first")
	}
	f.Close()
	if got := readName(t, k, "whole.md", -1); string(got) != "second" {
		t.Errorf("the third read got %q, want %q from disk: a kept file is served once", got, "second")
	}
	if got := readName(t, k, "part.md", -1); string(got) != "second" {
		t.Errorf("a file read in part was kept: %q", got)
	}
	// Both were just read whole from disk, and are kept in turn.
	if len(k.kept) != 2 || k.bytes != 2*len("second") {
		t.Errorf("%d files, %d bytes kept; want 2 files, %d bytes", len(k.kept), k.bytes, 2*len("second"))
	}
	// For the last reader, kept files are still served, and nothing more
	// is copied.
	k.stopKeeping()
	if got := readName(t, k, "whole.md", -1); string(got) != "second" {
		t.Errorf("a kept file after stopKeeping read %q", got)
	}
	write("third.md", "third")
	if got := readName(t, k, "third.md", -1); string(got) != "third" {
		t.Errorf("read %q", got)
	}
	if _, ok := k.kept["third.md"]; ok || k.bytes != len("second") {
		t.Errorf("%d bytes kept (third.md kept: %v) after stopKeeping; want only part.md's %d", k.bytes, ok, len("second"))
	}
}

// What is kept is bounded, in all and while a file is read: a file over
// the bound is read from disk every time and not copied past the bound,
// and a file that would take the kept bytes over it is not kept.
func TestKeptReadsBound(t *testing.T) {
	half := maxKeptBytes/2 + 1
	k := newKeptReads(fstest.MapFS{
		"big":   &fstest.MapFile{Data: bytes.Repeat([]byte("x"), maxKeptBytes+1)},
		"a":     &fstest.MapFile{Data: bytes.Repeat([]byte("a"), half)},
		"b":     &fstest.MapFile{Data: bytes.Repeat([]byte("b"), half)},
		"small": &fstest.MapFile{Data: []byte("small")},
	})
	f, err := k.Open("big")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(io.Discard, f); err != nil {
		t.Fatal(err)
	}
	if kf := f.(*keepingFile); kf.data != nil || !kf.dropped {
		t.Errorf("%d bytes of a file over the bound copied", len(kf.data))
	}
	f.Close()
	for _, name := range []string{"a", "b", "small"} {
		readName(t, k, name, -1)
	}
	_, big := k.kept["big"]
	_, b := k.kept["b"]
	if big || b || k.bytes != half+len("small") {
		t.Errorf("%d bytes kept (big %v, b %v); want a and small, %d bytes", k.bytes, big, b, half+len("small"))
	}
}

// The rest of the file system is the wrapped one's: listings, stats, links.
func TestKeptReadsPassesThrough(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "sub", "a.md"), []byte("a"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("a.md", filepath.Join(dir, "sub", "link")); err != nil {
		t.Fatal(err)
	}
	k := newKeptReads(os.DirFS(dir))
	if err := fstest.TestFS(k, "sub/a.md", "sub/link"); err != nil {
		t.Error(err)
	}
	if target, err := fs.ReadLink(k, "sub/link"); err != nil || target != "a.md" {
		t.Errorf("ReadLink = %q, %v", target, err)
	}
	if st, err := fs.Lstat(k, "sub/link"); err != nil || st.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("Lstat = %v, %v; want a link", st, err)
	}
}

// statCounter counts the Stat calls a file system answers.
type statCounter struct {
	fs.FS
	stats int
}

func (s *statCounter) Stat(name string) (fs.FileInfo, error) {
	s.stats++
	return fs.Stat(s.FS, name)
}

// Held files are served from memory to every reader, before and after
// stopKeeping, and stated on disk once; they count against the bound.
func TestKeptReadsHeld(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "tree"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "tree", "run.sh"), []byte("on disk"), 0o755); err != nil {
		t.Fatal(err)
	}
	sc := &statCounter{FS: os.DirFS(dir)}
	k := newKeptReads(sc)
	k.hold("tree", map[string][]byte{"run.sh": []byte("held")})
	if k.bytes != len("held") {
		t.Errorf("%d bytes counted, want %d", k.bytes, len("held"))
	}
	for i := range 3 {
		if i == 2 {
			k.stopKeeping()
		}
		f, err := k.Open("tree/run.sh")
		if err != nil {
			t.Fatal(err)
		}
		st, err := f.Stat()
		if err != nil || st.Mode().Perm() != 0o755 {
			t.Fatalf("Stat = %v, %v; want the file's mode on disk", st, err)
		}
		if got, _ := io.ReadAll(f); string(got) != "held" {
			t.Errorf("read %d got %q, want the held bytes", i, got)
		}
		f.Close()
	}
	if sc.stats != 1 {
		t.Errorf("%d stats on disk, want 1", sc.stats)
	}
}

// An install from a ZIP archive, whose scan and fingerprint read what the
// extraction held, scans the bytes written (a piped installer in a
// reference is found) and records the fingerprint of the files on disk.
func TestInstallZipHeld(t *testing.T) {
	archive := writeZip(t, map[string]string{
		"SKILL.md":             skillMD("held", "A skill whose reference pipes an installer."),
		"references/setup.md":  pipedInstaller,
		"references/other.md":  strings.Repeat("plain words\n", 100),
		"scripts/tool_0001.py": "print('hello')\n",
	})
	in, err := openFolder(filepath.Join(t.TempDir(), "skills"))
	if err != nil {
		t.Fatal(err)
	}
	defer in.dir.Close()
	res, err := in.Install(t.Context(), Source{ZipFile: archive}, &InstallOptions{Confirmed: true})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(res.Scan.Findings, func(f scan.Finding) bool { return f.File == "references/setup.md" }) {
		t.Errorf("the scan did not read the held reference: %+v", res.Scan.Findings)
	}
	if want := fingerprintDir(t, in.dir.OSPath("held")); res.Record.Fingerprint != want {
		t.Errorf("recorded %s, the files on disk hash to %s", res.Record.Fingerprint, want)
	}
}

// The scan of a ZIP install reads what the extraction held, not the staged
// files again: a staged file rewritten on disk after the extraction (only
// a test can reach the staging folder) does not change what the scan saw.
func TestInstallZipScansHeldBytes(t *testing.T) {
	archive := writeZip(t, map[string]string{
		"SKILL.md":            skillMD("held", "A skill whose reference pipes an installer."),
		"references/setup.md": pipedInstaller,
	})
	in, err := openFolder(filepath.Join(t.TempDir(), "skills"))
	if err != nil {
		t.Fatal(err)
	}
	defer in.dir.Close()
	rewritten := false
	in.dir.Fault = func(point string) error {
		if point != "check" {
			return nil
		}
		return filepath.WalkDir(in.dir.Path(), func(p string, d fs.DirEntry, err error) error {
			if err == nil && d.Name() == "setup.md" && strings.Contains(filepath.ToSlash(p), "/references/") {
				// Same size and time: what the fingerprint's checks see of
				// a file stays as the extraction left it.
				info, err := os.Stat(p)
				if err != nil {
					return err
				}
				plain := strings.Repeat("x", int(info.Size())-1) + "\n"
				if err := os.WriteFile(p, []byte(plain), 0o644); err != nil {
					return err
				}
				rewritten = true
				return os.Chtimes(p, info.ModTime(), info.ModTime())
			}
			return err
		})
	}
	res, err := in.Install(t.Context(), Source{ZipFile: archive}, &InstallOptions{Confirmed: true})
	if err != nil {
		t.Fatal(err)
	}
	if !rewritten {
		t.Fatal("the staged reference was not found")
	}
	if !slices.ContainsFunc(res.Scan.Findings, func(f scan.Finding) bool { return f.File == "references/setup.md" }) {
		t.Errorf("the scan read the staged file again, not the extraction's bytes: %+v", res.Scan.Findings)
	}
}

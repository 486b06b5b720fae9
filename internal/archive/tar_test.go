package archive

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"errors"
	"io/fs"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
)

// tf is one entry for buildTarGz; a zero typ is a regular file.
type tf struct {
	name string
	body string
	typ  byte
	link string
	mode int64
}

func buildTarGz(t testing.TB, files ...tf) []byte {
	t.Helper()
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	w := tar.NewWriter(gz)
	for _, f := range files {
		h := &tar.Header{Name: f.name, Typeflag: f.typ, Linkname: f.link, Mode: f.mode}
		if h.Typeflag == 0 {
			h.Typeflag = tar.TypeReg
		}
		if h.Mode == 0 {
			h.Mode = 0o644
		}
		if h.Typeflag == tar.TypeReg {
			h.Size = int64(len(f.body))
		}
		if err := w.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		if h.Size > 0 {
			if _, err := w.Write([]byte(f.body)); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := gz.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestReadTarGz(t *testing.T) {
	data := buildTarGz(t,
		tf{name: "./", typ: tar.TypeDir, mode: 0o755},
		tf{name: "./SKILL.md", body: skillMD},
		tf{name: "./scripts/", typ: tar.TypeDir, mode: 0o755},
		tf{name: "./scripts/run.sh", body: "echo\n", mode: 0o755},
		tf{name: "./node_modules/x.js", body: "x"},
	)
	fsys, rep, err := ReadTarGz(t.Context(), bytes.NewReader(data), nil)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"SKILL.md", "scripts/run.sh"}, rep.Valid); diff != "" {
		t.Errorf("valid (-want +got):\n%s", diff)
	}
	if len(rep.Omitted) != 1 {
		t.Errorf("omitted %v, want node_modules", rep.Omitted)
	}
	if err := fstest.TestFS(fsys, "SKILL.md", "scripts/run.sh"); err != nil {
		t.Fatal(err)
	}
	if st, _ := fs.Stat(fsys, "scripts/run.sh"); st.Mode().Perm() != 0o755 {
		t.Errorf("run.sh mode %v, want executable", st.Mode())
	}
	// The wrapper folder of a release tarball is unwrapped, as in a ZIP.
	fsys, rep, err = ReadTarGz(t.Context(), bytes.NewReader(buildTarGz(t, tf{name: "pkg/SKILL.md", body: skillMD})), nil)
	if err != nil || rep.Unwrapped != "pkg" {
		t.Fatalf("wrapped: %v, unwrapped %q", err, rep.Unwrapped)
	}
	if b, err := fs.ReadFile(fsys, "SKILL.md"); err != nil || string(b) != skillMD {
		t.Errorf("SKILL.md: %q %v", b, err)
	}
}

func TestReadTarGzRefuses(t *testing.T) {
	skill := tf{name: "SKILL.md", body: skillMD}
	big := strings.Repeat("a", 200<<10)
	for _, tc := range []struct {
		name  string
		data  []byte
		lim   *Limits
		want  error
		fsErr bool // the whole archive is refused before entries are judged
	}{
		{"symlink", buildTarGz(t, skill, tf{name: "x", typ: tar.TypeSymlink, link: "/etc/passwd"}), nil, ErrLink, false},
		{"hard link", buildTarGz(t, skill, tf{name: "x", typ: tar.TypeLink, link: "SKILL.md"}), nil, ErrLink, false},
		{"fifo", buildTarGz(t, skill, tf{name: "x", typ: tar.TypeFifo}), nil, ErrNotRegular, false},
		{"device", buildTarGz(t, skill, tf{name: "x", typ: tar.TypeChar}), nil, ErrNotRegular, false},
		{"dot dot", buildTarGz(t, skill, tf{name: "../x", body: "x"}), nil, ErrUnsafePath, false},
		{"absolute", buildTarGz(t, skill, tf{name: "/etc/x", body: "x"}), nil, ErrUnsafePath, false},
		{"git", buildTarGz(t, skill, tf{name: ".git/config", body: "x"}), nil, ErrReservedName, false},
		{"duplicate", buildTarGz(t, skill, skill), nil, ErrCollision, false},
		{"case collision", buildTarGz(t, skill, tf{name: "skill.md", body: skillMD}), nil, ErrCollision, false},
		{"no SKILL.md", buildTarGz(t, tf{name: "a.md", body: "a"}), nil, ErrNoSkillFile, false},
		{"file too large", buildTarGz(t, skill, tf{name: "big", body: big}), &Limits{MaxFileBytes: 100 << 10}, ErrFileTooLarge, false},
		{"too many entries", buildTarGz(t, skill, tf{name: "a", body: "a"}, tf{name: "b", body: "b"}), &Limits{MaxEntries: 2}, ErrTooManyEntries, true},
		{"total", buildTarGz(t, skill, tf{name: "a", body: big}, tf{name: "b", body: big}), &Limits{MaxTotalBytes: 300 << 10}, ErrTotalTooLarge, true},
		{"ratio", buildTarGz(t, skill, tf{name: "a", body: big}), &Limits{MaxRatio: 10}, ErrRatio, true},
		{"archive too large", buildTarGz(t, skill, tf{name: "a", body: big}), &Limits{MaxArchiveBytes: 100}, ErrArchiveTooLarge, true},
		{"not gzip", []byte("not an archive"), nil, ErrNotTarGz, true},
		{"truncated", buildTarGz(t, skill, tf{name: "a", body: big})[:300], nil, ErrCorrupt, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fsys, _, err := ReadTarGz(t.Context(), bytes.NewReader(tc.data), tc.lim)
			if !errors.Is(err, tc.want) {
				t.Fatalf("err = %v, want %v", err, tc.want)
			}
			if fsys != nil {
				t.Error("a file system came back with the error")
			}
			var fe *FileError
			if !tc.fsErr && tc.want != ErrNoSkillFile && !errors.As(err, &fe) {
				t.Errorf("%v names no entry", err)
			}
		})
	}
}

// The tar stream is bounded even where tar.Reader skips data: a refused
// entry of 100 MB of zeros (a few hundred KB compressed) is not read to
// its end.
func TestReadTarGzBoundsSkippedData(t *testing.T) {
	var buf bytes.Buffer
	gz, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	w := tar.NewWriter(gz)
	const size = 100 << 20
	if err := w.WriteHeader(&tar.Header{Name: "huge", Typeflag: tar.TypeReg, Size: size, Mode: 0o644}); err != nil {
		t.Fatal(err)
	}
	zeros := make([]byte, 1<<20)
	for range size / len(zeros) {
		w.Write(zeros)
	}
	w.WriteHeader(&tar.Header{Name: "SKILL.md", Typeflag: tar.TypeReg, Size: int64(len(skillMD)), Mode: 0o644})
	w.Write([]byte(skillMD))
	w.Close()
	gz.Close()
	_, _, err := ReadTarGz(t.Context(), bytes.NewReader(buf.Bytes()), &Limits{MaxTotalBytes: 1 << 20, MaxEntries: 10})
	if !errors.Is(err, ErrTotalTooLarge) {
		t.Fatalf("err = %v, want ErrTotalTooLarge", err)
	}
}

func TestReadZip(t *testing.T) {
	data := buildZip(t, zf{name: "repo-main/SKILL.md", body: skillMD}, zf{name: "repo-main/a/b.md", body: "b"})
	fsys, rep, err := ReadZip(t.Context(), bytes.NewReader(data), int64(len(data)), nil)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Unwrapped != "repo-main" {
		t.Errorf("unwrapped %q", rep.Unwrapped)
	}
	if err := fstest.TestFS(fsys, "SKILL.md", "a/b.md"); err != nil {
		t.Fatal(err)
	}
	bad := buildZip(t, zf{name: "SKILL.md", body: skillMD}, zf{name: "../x", body: "x"})
	if fsys, _, err := ReadZip(t.Context(), bytes.NewReader(bad), int64(len(bad)), nil); !errors.Is(err, ErrUnsafePath) || fsys != nil {
		t.Errorf("zip-slip: %v", err)
	}
}

// CopyFS writes a tree held in memory through the same checks as a folder:
// an entry the file system calls a link is refused, and the write is
// exactly the report's valid files.
func TestCopyFS(t *testing.T) {
	_, stage := staging(t)
	good := fstest.MapFS{
		"SKILL.md":         {Data: []byte(skillMD)},
		"scripts/run.sh":   {Data: []byte("echo"), Mode: 0o755},
		".venv/bin/python": {Data: []byte("x")},
	}
	rep, err := CopyFS(t.Context(), good, stage, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{". drwxr-xr-x 0", "SKILL.md -rw-r--r-- 60", "scripts drwxr-xr-x 0", "scripts/run.sh -rwxr-xr-x 4"}
	if diff := cmp.Diff(want, snapshot(t, stage)); diff != "" {
		t.Errorf("written (-want +got):\n%s", diff)
	}
	if len(rep.Omitted) != 1 {
		t.Errorf("omitted %v", rep.Omitted)
	}
	for name, fsys := range map[string]fstest.MapFS{
		"link":   {"SKILL.md": {Data: []byte(skillMD)}, "x": {Data: []byte("/etc"), Mode: fs.ModeSymlink}},
		"pipe":   {"SKILL.md": {Data: []byte(skillMD)}, "x": {Mode: fs.ModeNamedPipe}},
		"git":    {"SKILL.md": {Data: []byte(skillMD)}, ".git/config": {Data: []byte("x")}},
		"nofile": {"a.md": {Data: []byte("a")}},
	} {
		_, stage := staging(t)
		if _, err := CopyFS(t.Context(), fsys, stage, nil); err == nil {
			t.Errorf("%s: copied", name)
		}
		if got := snapshot(t, stage); len(got) > 1 {
			t.Errorf("%s: left %v", name, got)
		}
	}
}

// FuzzReadTarGz: whatever the bytes, ReadTarGz never panics, and what it
// accepts is a tree of valid paths whose files read back at their listed
// sizes, within the limits, agreeing with its report.
func FuzzReadTarGz(f *testing.F) {
	f.Add(buildTarGz(f, tf{name: "./", typ: tar.TypeDir}, tf{name: "./SKILL.md", body: skillMD}, tf{name: "./a/b.sh", body: "echo", mode: 0o755}))
	f.Add(buildTarGz(f, tf{name: "SKILL.md", body: skillMD}, tf{name: "x", typ: tar.TypeSymlink, link: "../../etc"}))
	f.Add(buildTarGz(f, tf{name: "w/SKILL.md", body: skillMD}, tf{name: "w/../../x", body: "x"}))
	lim := &Limits{MaxArchiveBytes: 1 << 20, MaxFileBytes: 64 << 10, MaxTotalBytes: 256 << 10, MaxEntries: 64}
	f.Fuzz(func(t *testing.T, data []byte) {
		fsys, rep, err := ReadTarGz(t.Context(), bytes.NewReader(data), lim)
		if err != nil {
			if fsys != nil {
				t.Fatal("a file system came back with an error")
			}
			return
		}
		var files []string
		var total int64
		walkErr := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			b, err := fs.ReadFile(fsys, p)
			if err != nil {
				return err
			}
			if int64(len(b)) > lim.MaxFileBytes {
				t.Errorf("%s: %d bytes", p, len(b))
			}
			total += int64(len(b))
			files = append(files, p)
			return nil
		})
		if walkErr != nil {
			t.Fatal(walkErr)
		}
		if total > lim.MaxTotalBytes || total != rep.Bytes {
			t.Errorf("read %d bytes, report says %d", total, rep.Bytes)
		}
		slices.Sort(files) // WalkDir's order is per folder; Valid's is by whole path
		if diff := cmp.Diff(rep.Valid, files); diff != "" {
			t.Errorf("files (-report +read):\n%s", diff)
		}
	})
}

// servedFS lists the files of listed but serves the data of served where it
// has a file of that name: a file system whose files change between the
// check and the copy.
type servedFS struct{ listed, served fstest.MapFS }

func (s servedFS) Open(name string) (fs.File, error) {
	if _, ok := s.served[name]; ok {
		return s.served.Open(name)
	}
	return s.listed.Open(name)
}

// TestCopyFSRefusesDataOfAnotherSize: a file whose data is longer or
// shorter than the size listed when it was checked stops the copy with
// ErrSizeMismatch, and nothing is left in the destination.
func TestCopyFSRefusesDataOfAnotherSize(t *testing.T) {
	listed := fstest.MapFS{"SKILL.md": {Data: []byte(skillMD)}, "notes.md": {Data: []byte("short")}}
	for name, data := range map[string]string{"longer": "short, and then a great deal more", "shorter": "sh"} {
		_, stage := staging(t)
		fsys := servedFS{listed: listed, served: fstest.MapFS{"notes.md": {Data: []byte(data)}}}
		if _, err := CopyFS(t.Context(), fsys, stage, nil); !errors.Is(err, ErrSizeMismatch) {
			t.Errorf("%s: err = %v, want ErrSizeMismatch", name, err)
		}
		if got := snapshot(t, stage); len(got) > 1 {
			t.Errorf("%s: left %v", name, got)
		}
	}
}

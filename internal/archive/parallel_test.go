package archive

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"testing/fstest"
	"time"
)

// fillers returns n small files in folders of their own, named so that
// they sort around the entry under test.
func fillers(t testing.TB, prefix string, n int) []raw {
	var out []raw
	for i := range n {
		out = append(out, deflated(t, fmt.Sprintf("%s%03d/f.md", prefix, i), []byte(fmt.Sprintf("file %d\n", i))))
	}
	return out
}

// Trees of many files are written by several goroutines; the tree on disk
// is the archive's, file for file, across more folders than the writer
// keeps open.
func TestExtractManyFoldersInParallel(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		t.Skip("one CPU: the files are written by one goroutine")
	}
	files := []zf{{name: "SKILL.md", body: skillMD}}
	for d := range maxOpenDirs + 40 {
		for f := range 3 {
			files = append(files, zf{name: fmt.Sprintf("refs/d%03d/f%d.md", d, f), body: strings.Repeat(fmt.Sprintf("%d/%d ", d, f), 50)})
		}
	}
	if writers(len(files)-1) < 2 {
		t.Fatalf("%d files are written by one goroutine", len(files))
	}
	b := buildZip(t, files...)
	_, stage := staging(t)
	if _, err := ExtractZip(t.Context(), bytes.NewReader(b), int64(len(b)), stage, nil); err != nil {
		t.Fatal(err)
	}
	tree := readTree(t, stage)
	for _, f := range files {
		if got, want := tree[f.name], "-rw-r--r-- "+f.body; got != want {
			t.Fatalf("%s = %.40q, want %.40q", f.name, got, want)
		}
	}
	n := 0
	for _, v := range tree {
		if !strings.HasPrefix(v, "d") {
			n++
		}
	}
	if n != len(files) {
		t.Errorf("%d files on disk, want %d", n, len(files))
	}
}

// A refusal met by one writer stops the others, and everything any of
// them wrote is removed: the destination is left empty, the parent as it
// was, and the error names the entry.
func TestRefusalWhileWritingInParallel(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		t.Skip("one CPU: the files are written by one goroutine")
	}
	cases := []struct {
		name  string
		bad   func(testing.TB) raw
		want  error
		entry string
	}{
		{"size lies short", func(t testing.TB) raw {
			r := deflated(t, "m/short.md", bytes.Repeat([]byte("abc "), 500))
			r.fh.UncompressedSize64 = 4000
			return r
		}, ErrSizeMismatch, "m/short.md"},
		{"bad checksum", func(t testing.TB) raw {
			r := deflated(t, "m/notes.md", []byte("hello, world"))
			r.fh.CRC32 ^= 1
			return r
		}, ErrCorrupt, "m/notes.md"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			entries := append([]raw{skillRaw(t)}, fillers(t, "a", 150)...)
			entries = append(entries, tc.bad(t))
			entries = append(entries, fillers(t, "z", 150)...)
			b := rawZip(t, entries...)
			parent, stage := staging(t)
			before := snapshot(t, parent)
			_, err := ExtractZip(t.Context(), bytes.NewReader(b), int64(len(b)), stage, nil)
			if !errors.Is(err, tc.want) {
				t.Fatalf("error %v, want %v", err, tc.want)
			}
			var fe *FileError
			if !errors.As(err, &fe) || fe.Path != tc.entry {
				t.Errorf("error %q does not name %q", err, tc.entry)
			}
			left, rerr := os.ReadDir(stage)
			if rerr != nil || len(left) > 0 {
				t.Errorf("the destination holds %d names after the refusal (%v)", len(left), rerr)
			}
			if after := snapshot(t, parent); !slices.Equal(before, after) {
				t.Errorf("the parent folder changed: %d names before, %d after", len(before), len(after))
			}
		})
	}
}

// serialFS fails the test when two of its files are open at once.
type serialFS struct {
	fstest.MapFS
	open    atomic.Int32
	overlap atomic.Bool
}

type serialFile struct {
	fs.File
	fsys *serialFS
}

func (f serialFile) Close() error { f.fsys.open.Add(-1); return f.File.Close() }

func (s *serialFS) Open(name string) (fs.File, error) {
	f, err := s.MapFS.Open(name)
	if err != nil {
		return nil, err
	}
	if st, err := f.Stat(); err == nil && st.IsDir() {
		return f, nil
	}
	if s.open.Add(1) > 1 {
		s.overlap.Store(true)
	}
	time.Sleep(100 * time.Microsecond) // long enough for another writer to get here
	return serialFile{f, s}, nil
}

// CopyFS reads an FS a caller implements (a Remote's) from one goroutine:
// fs.FS promises nothing about concurrent use.
func TestCopyFSReadsFromOneGoroutine(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		t.Skip("one CPU")
	}
	fsys := &serialFS{MapFS: fstest.MapFS{"SKILL.md": {Data: []byte(skillMD)}}}
	for i := range 300 {
		fsys.MapFS[fmt.Sprintf("refs/d%02d/f%03d.md", i/10, i)] = &fstest.MapFile{Data: []byte("x\n")}
	}
	_, stage := staging(t)
	if _, err := CopyFS(t.Context(), fsys, stage, nil); err != nil {
		t.Fatal(err)
	}
	if fsys.overlap.Load() {
		t.Error("two files of the FS were open at once")
	}
	if n := len(readTree(t, stage)); n < 301 {
		t.Errorf("%d entries written", n)
	}
}

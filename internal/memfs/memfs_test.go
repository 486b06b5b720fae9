package memfs_test

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"github.com/skillkit-go/skillkit/internal/memfs"
)

func data(s string) func() (io.ReadCloser, error) {
	return func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader([]byte(s))), nil }
}

func TestFS(t *testing.T) {
	m, err := memfs.New([]memfs.File{
		{Path: "SKILL.md", Size: 5, Open: data("hello")},
		{Path: "references/a.md", Size: 1, Open: data("a")},
		{Path: "scripts/run.sh", Size: 2, Exec: true, Open: data("#!")},
		{Path: "references/deep/b.md", Size: 0, Open: data("")},
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := fstest.TestFS(m, "SKILL.md", "references/a.md", "references/deep/b.md", "scripts/run.sh"); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"SKILL.md", "references/a.md", "references/deep/b.md", "scripts/run.sh"}, m.Files()); diff != "" {
		t.Errorf("Files (-want +got):\n%s", diff)
	}
	st, err := fs.Stat(m, "scripts/run.sh")
	if err != nil || st.Mode() != 0o755 {
		t.Errorf("run.sh: %v %v, want mode 0755", st, err)
	}
}

// A file whose data is not its declared size fails the read: no caller
// ever sees bytes the declaration did not promise.
func TestDeclaredSize(t *testing.T) {
	m, err := memfs.New([]memfs.File{
		{Path: "long", Size: 2, Open: data("abc")},
		{Path: "short", Size: 4, Open: data("abc")},
		{Path: "fails", Size: 1, Open: func() (io.ReadCloser, error) { return nil, errors.New("boom") }},
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"long", "short"} {
		if _, err := fs.ReadFile(m, name); !errors.Is(err, memfs.ErrSize) {
			t.Errorf("%s: %v, want ErrSize", name, err)
		}
	}
	if _, err := fs.ReadFile(m, "fails"); err == nil || errors.Is(err, memfs.ErrSize) {
		t.Errorf("fails: %v, want the Open error", err)
	}
}

func TestNewRefuses(t *testing.T) {
	for name, files := range map[string][]memfs.File{
		"dot":          {{Path: ".", Open: data("")}},
		"dotdot":       {{Path: "../x", Open: data("")}},
		"absolute":     {{Path: "/x", Open: data("")}},
		"twice":        {{Path: "a", Open: data("")}, {Path: "a", Open: data("")}},
		"file as dir":  {{Path: "a", Open: data("")}, {Path: "a/b", Open: data("")}},
		"dir as file":  {{Path: "a/b", Open: data("")}, {Path: "a", Open: data("")}},
		"no data":      {{Path: "a"}},
		"negative len": {{Path: "a", Size: -1, Open: data("")}},
	} {
		if _, err := memfs.New(files); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

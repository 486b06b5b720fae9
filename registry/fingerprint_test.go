package registry_test

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/skillkit-go/skillkit/diagnostics"
	"github.com/skillkit-go/skillkit/internal/testcorpus"
	"github.com/skillkit-go/skillkit/registry"
	"github.com/skillkit-go/skillkit/skill"
)

func baseTree() fstest.MapFS {
	return fstest.MapFS{
		"s/SKILL.md":            {Data: []byte("---\nname: s\ndescription: d\n---\nbody\n")},
		"s/scripts/run.sh":      {Data: []byte("#!/bin/sh\necho hi\n"), Mode: 0o755},
		"s/references/a.md":     {Data: []byte("a")},
		"s/references/a-b.md":   {Data: []byte("ab")},
		"s/link":                {Data: []byte("references/a.md"), Mode: fs.ModeSymlink},
		"s/.venv/bin/python":    {Data: []byte("binary")},
		"s/node_modules/x/i.js": {Data: []byte("js")},
		"s/sub/.git/HEAD":       {Data: []byte("ref")},
		"s/__pycache__/m.pyc":   {Data: []byte("pyc")},
	}
}

func fp(t *testing.T, fsys fs.FS, dir string) string {
	t.Helper()
	got, err := registry.Fingerprint(t.Context(), fsys, dir)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(got, "sha256:") || len(got) != len("sha256:")+64 {
		t.Fatalf("fingerprint %q", got)
	}
	return got
}

func TestFingerprintCountsWhatMatters(t *testing.T) {
	base := fp(t, baseTree(), "s")
	if again := fp(t, baseTree(), "s"); again != base {
		t.Fatal("not deterministic")
	}
	tests := []struct {
		name   string
		change func(fstest.MapFS)
		same   bool
	}{
		{"content", func(m fstest.MapFS) { m["s/references/a.md"] = &fstest.MapFile{Data: []byte("A")} }, false},
		{"path", func(m fstest.MapFS) {
			m["s/references/c.md"] = m["s/references/a.md"]
			delete(m, "s/references/a.md")
		}, false},
		{"executable bit", func(m fstest.MapFS) { m["s/scripts/run.sh"].Mode = 0o644 }, false},
		{"executable by others only", func(m fstest.MapFS) { m["s/scripts/run.sh"].Mode = 0o645 }, true},
		{"executable by the group only", func(m fstest.MapFS) { m["s/scripts/run.sh"].Mode = 0o654 }, true},
		{"new file", func(m fstest.MapFS) { m["s/new.txt"] = &fstest.MapFile{} }, false},
		{"empty folder", func(m fstest.MapFS) { m["s/empty"] = &fstest.MapFile{Mode: fs.ModeDir} }, true},
		{"link target", func(m fstest.MapFS) { m["s/link"].Data = []byte("references/a-b.md") }, false},
		{"link into file", func(m fstest.MapFS) { m["s/link"] = &fstest.MapFile{Data: []byte("references/a.md")} }, false},
		{"linked file content", func(m fstest.MapFS) { m["s/references/a.md"].Data = []byte("a") }, true},
		{".venv", func(m fstest.MapFS) { m["s/.venv/lib/x.py"] = &fstest.MapFile{Data: []byte("x")} }, true},
		{"node_modules", func(m fstest.MapFS) { m["s/node_modules/x/i.js"].Data = []byte("other") }, true},
		{".git deep", func(m fstest.MapFS) { m["s/sub/.git/HEAD"].Data = []byte("other") }, true},
		{"__pycache__", func(m fstest.MapFS) { delete(m, "s/__pycache__/m.pyc") }, true},
		{".skillhub", func(m fstest.MapFS) { m["s/.skillhub/lock.json"] = &fstest.MapFile{Data: []byte("{}")} }, true},
		{"outside the folder", func(m fstest.MapFS) { m["other/SKILL.md"] = &fstest.MapFile{} }, true},
		// Framing: moving a byte between a path and content must change it.
		{"framing", func(m fstest.MapFS) {
			delete(m, "s/references/a-b.md")
			m["s/references/a-b.m"] = &fstest.MapFile{Data: []byte("dab")}
		}, false},
	}
	for _, tt := range tests {
		m := baseTree()
		tt.change(m)
		if got := fp(t, m, "s") == base; got != tt.same {
			t.Errorf("%s: same fingerprint = %v, want %v", tt.name, got, tt.same)
		}
	}
}

// The same tree on disk and in memory has the same fingerprint, and a
// symbolic link on disk counts as its target text, not what it points to.
func TestFingerprintDiskEqualsMemory(t *testing.T) {
	dir := t.TempDir()
	m := baseTree()
	for name, f := range m {
		p := filepath.Join(dir, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if f.Mode&fs.ModeSymlink != 0 {
			if err := os.Symlink(string(f.Data), p); err != nil {
				t.Skip("no symlinks:", err)
			}
			continue
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
		perm := f.Mode.Perm()
		if perm == 0 {
			perm = 0o644
		}
		if err := os.Chmod(p, perm); err != nil {
			t.Fatal(err)
		}
	}
	if runtime.GOOS == "windows" {
		m["s/scripts/run.sh"].Mode = 0o644 // no executable bit on Windows
	}
	if disk, mem := fp(t, os.DirFS(dir), "s"), fp(t, m, "s"); disk != mem {
		t.Errorf("disk %s != memory %s", disk, mem)
	}
	sub := fp(t, os.DirFS(filepath.Join(dir, "s")), ".")
	if sub != fp(t, m, "s") {
		t.Error("fingerprint of the folder as the root differs")
	}
}

func TestFingerprintErrors(t *testing.T) {
	if _, err := registry.Fingerprint(t.Context(), fstest.MapFS{}, "missing"); err == nil {
		t.Error("no error for a missing folder")
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := registry.Fingerprint(ctx, baseTree(), "s"); err == nil {
		t.Error("no error for a canceled context")
	}
	// A file listed as regular that is a folder once open changed while it
	// was hashed.
	swapped := swappedFS{baseTree(), "s/references/a.md", &fstest.MapFile{Mode: fs.ModeDir}}
	if _, err := registry.Fingerprint(t.Context(), swapped, "s"); err == nil || !strings.Contains(err.Error(), "changed while it was hashed") {
		t.Errorf("file swapped for a folder: err %v, want a change while hashed", err)
	}
}

// swappedFS lists name as in MapFS, but opens it as swap.
type swappedFS struct {
	fstest.MapFS
	name string
	swap *fstest.MapFile
}

func (s swappedFS) Open(name string) (fs.File, error) {
	if name != s.name {
		return s.MapFS.Open(name)
	}
	return fstest.MapFS{name: s.swap}.Open(name)
}

// Every corpus skill has a fingerprint, the same on disk and copied into
// memory.
func TestFingerprintCorpus(t *testing.T) {
	root, dirs := testcorpus.SkillDirs(t)
	disk := os.DirFS(root)
	seen := map[string]string{}
	for _, dir := range dirs {
		got := fp(t, disk, dir)
		if other, dup := seen[got]; dup {
			t.Errorf("%s and %s share a fingerprint", dir, other)
		}
		seen[got] = dir
	}
	// One skill with sub-folders, copied into memory.
	dir := dirs[0]
	m := fstest.MapFS{}
	fs.WalkDir(disk, dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			data, _ := fs.ReadFile(disk, p)
			info, _ := d.Info()
			m[path.Join("copy", strings.TrimPrefix(p, dir+"/"))] = &fstest.MapFile{Data: data, Mode: info.Mode()}
		}
		return nil
	})
	if fp(t, m, "copy") != fp(t, disk, dir) {
		t.Errorf("%s: copy differs", dir)
	}
}

func TestFingerprintChecker(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "pdf"), 0o755)
	os.WriteFile(filepath.Join(dir, "pdf", "SKILL.md"), []byte("---\nname: pdf\ndescription: PDFs\n---\nbody\n"), 0o644)
	s, _ := skill.Load(os.DirFS(dir), "pdf", &skill.LoadOptions{DiskRoot: dir})
	store := new(registry.MemStore)
	check := registry.FingerprintChecker{Store: store}
	if d := check.Check(t.Context(), s); d != nil {
		t.Errorf("no record: %v", d)
	}
	sum := fp(t, os.DirFS(dir), "pdf")
	store.Put(t.Context(), registry.Record{Name: "pdf", Fingerprint: sum, Enabled: true})
	if d := check.Check(t.Context(), s); d != nil {
		t.Errorf("unchanged: %v", d)
	}
	os.WriteFile(filepath.Join(dir, "pdf", "notes.md"), []byte("edited by hand"), 0o644)
	d := check.Check(t.Context(), s)
	if len(d) != 1 || d[0].Code != diagnostics.FingerprintChanged || d[0].Level != diagnostics.Info ||
		d[0].Detail["recorded"] != sum || d[0].Skill != "pdf" {
		t.Errorf("after an edit: %v", d)
	}
	store.Put(t.Context(), registry.Record{Name: "pdf", Fingerprint: "e3b0c44298fc1c14", Enabled: true})
	if d := check.Check(t.Context(), s); d != nil {
		t.Errorf("a fingerprint of another scheme is not compared: %v", d)
	}
}

func ExampleFingerprint() {
	skillFolder := fstest.MapFS{
		"pdf/SKILL.md":          {Data: []byte("---\nname: pdf\ndescription: Work with PDF files.\n---\n")},
		"pdf/scripts/fill.sh":   {Data: []byte("#!/bin/sh\n"), Mode: 0o755},
		"pdf/.venv/bin/python3": {Data: []byte("not counted")},
	}
	sum, err := registry.Fingerprint(context.Background(), skillFolder, "pdf")
	if err != nil {
		panic(err)
	}
	fmt.Println(sum[:7], len(sum))
	// Output: sha256: 71
}

// A record the store cannot read is said (READ_ERROR), not taken as no
// record.
func TestFingerprintCheckerReportsAnUnreadableRecord(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "pdf"), 0o755)
	os.WriteFile(filepath.Join(dir, "pdf", "SKILL.md"), []byte("---\nname: pdf\ndescription: PDFs\n---\nbody\n"), 0o644)
	s, _ := skill.Load(os.DirFS(dir), "pdf", &skill.LoadOptions{DiskRoot: dir})
	store := registry.NewFSStore(dir)
	if err := store.Put(t.Context(), registry.Record{Name: "pdf", Fingerprint: fp(t, os.DirFS(dir), "pdf"), Enabled: true}); err != nil {
		t.Fatal(err)
	}
	// Break every file the store wrote: a damaged registry.
	filepath.WalkDir(filepath.Join(dir, ".skillhub"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			os.WriteFile(p, []byte("{not json"), 0o644)
		}
		return nil
	})
	if _, err := store.Get(t.Context(), "pdf"); err == nil {
		t.Fatal("the test needs a record the store cannot read")
	}
	d := registry.FingerprintChecker{Store: store}.Check(t.Context(), s)
	if len(d) != 1 || d[0].Code != diagnostics.ReadError || d[0].Skill != "pdf" {
		t.Fatalf("unreadable record: %v", d)
	}
}

// A fingerprint is stored in records and compared with later ones, so its
// format does not change: this value was computed before the fingerprint
// stopped taking a stat per file in its walk, and must stay.
func TestFingerprintIsStable(t *testing.T) {
	const want = "sha256:08b30317b13c7770ea198981c16bb996f8d71bc833a72dd731ff8df22d863c50"
	if got := fp(t, baseTree(), "s"); got != want {
		t.Errorf("fingerprint %s, want %s: every recorded skill would look changed", got, want)
	}
}

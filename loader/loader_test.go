package loader_test

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/skillkit-go/skillkit/diagnostics"
	"github.com/skillkit-go/skillkit/internal/testcorpus"
	"github.com/skillkit-go/skillkit/loader"
)

func TestDiscoveryRules(t *testing.T) {
	m := mapSkills(
		"top",                      // depth 1
		"group/inner",              // depth 2
		"a/b/c/d/e/deep",           // depth 6: found
		"a/b/c/d/e/f/too-deep",     // depth 7: cut
		".hidden/secret",           // dot folder
		"node_modules/pkg",         // node_modules
		".skillhub/cache",          // .skillhub
		"top/nested",               // below a skill: not searched
		"group/__pycache__/cached", // infra folder
	)
	m["lower/skill.md"] = &fstest.MapFile{Data: []byte(skillMD("lower"))}
	m["notes/readme.txt"] = &fstest.MapFile{Data: []byte("no skill here")}
	l := newLoader(t, nil, loader.Source{Name: "mem", FS: m})
	snap := l.Snapshot()
	wantNames(t, names(snap), "deep@mem:a/b/c/d/e/deep", "inner@mem:group/inner", "lower@mem:lower", "top@mem:top")
	diags := snap.Diagnostics()
	only(t, diags, diagnostics.SkillFileLowercase, 1)
	cut := only(t, diags, diagnostics.LimitReached, 1)
	if len(cut) == 1 && (cut[0].Detail["limit"] != "max_depth" || !slices.Equal(cut[0].Detail["skipped"].([]string), []string{"a/b/c/d/e/f/too-deep/SKILL.md"}) ||
		!slices.Equal(cut[0].Detail["folders"].([]string), []string{"a/b/c/d/e/f/too-deep"})) {
		t.Errorf("depth cut = %+v", cut[0])
	}
	// The skill past the depth limit is named, not loaded.
	if nl := snap.NotLoaded(); !slices.ContainsFunc(nl, func(n loader.NotLoaded) bool {
		return n.Path == "a/b/c/d/e/f/too-deep" && n.Code == diagnostics.LimitReached
	}) {
		t.Errorf("not loaded: %+v", nl)
	}
	if s, _ := l.Get("lower"); s.File != "skill.md" {
		t.Errorf("lower file = %q", s.File)
	}
}

// A source that is itself a skill folder holds that one skill.
func TestSourceIsASkillFolder(t *testing.T) {
	dir := writeSkill(t, t.TempDir(), "solo", "solo")
	l := newLoader(t, nil, loader.Source{Name: "one", Dir: dir})
	s, ok := l.Get("solo")
	if !ok || s.DiskDir != dir || s.Dir != "." {
		t.Fatalf("got %+v %v", s, ok)
	}
}

// The same name in three sources: the first source wins; within a source the
// first path in sorted order wins; every loser is named with its winner.
func TestCollisionsAcrossThreeSources(t *testing.T) {
	work, user := t.TempDir(), t.TempDir()
	writeSkill(t, work, "pdf", "pdf")
	writeSkill(t, work, "a/dup", "dup")
	writeSkill(t, work, "b/dup", "dup")
	writeSkill(t, user, "pdf", "pdf")
	writeSkill(t, user, "user-only", "user-only")
	l := newLoader(t, nil,
		loader.Source{Name: "workspace", Dir: work, Writable: true},
		loader.Source{Name: "user", Dir: user},
		bundled(t))
	snap := l.Snapshot()
	wantNames(t, names(snap), "bundled-only@bundled:bundled-only", "dup@workspace:a/dup", "pdf@workspace:pdf", "user-only@user:user-only")
	coll := only(t, snap.Diagnostics(), diagnostics.NameCollision, 3)
	want := map[string][2]string{ // loser path -> winner path, loser source
		filepath.Join(work, "b", "dup"): {filepath.Join(work, "a", "dup"), "workspace"},
		filepath.Join(user, "pdf"):      {filepath.Join(work, "pdf"), "user"},
		"pdf":                           {filepath.Join(work, "pdf"), "bundled"},
	}
	for _, d := range coll {
		w, ok := want[d.Path]
		if !ok || d.Detail["winner_path"] != w[0] || d.Detail["loser_source"] != w[1] ||
			d.Detail["winner_source"] != "workspace" || d.Detail["loser_path"] != d.Path || d.Level != diagnostics.Warning {
			t.Errorf("collision %v %v", d, d.Detail)
		}
	}
	pdf, _ := l.Get("pdf")
	if pdf.DiskDir != filepath.Join(work, "pdf") || !filepath.IsAbs(pdf.DiskDir) {
		t.Errorf("pdf disk dir %q", pdf.DiskDir)
	}
	if b, _ := l.Get("bundled-only"); b.DiskDir != "" {
		t.Errorf("an embedded skill has a disk dir: %q", b.DiskDir)
	} else if body, err := b.Body(); err != nil || body != "Bundled only." {
		t.Errorf("embedded body %q %v", body, err)
	}
	if srcs := l.Sources(); !srcs[0].Writable || srcs[1].Writable || srcs[0].Dir != work {
		t.Errorf("sources %+v", srcs)
	}
}

// A relative Dir becomes absolute, and skills get absolute disk folders.
func TestRelativeDirBecomesAbsolute(t *testing.T) {
	root := t.TempDir()
	writeSkill(t, root, "rel", "rel")
	t.Chdir(root)
	l := newLoader(t, nil, loader.Source{Name: "here", Dir: "."})
	s, ok := l.Get("rel")
	if !ok || !filepath.IsAbs(s.DiskDir) || s.DiskDir != filepath.Join(root, "rel") {
		t.Fatalf("%+v", s)
	}
}

func TestInvalidSources(t *testing.T) {
	for _, srcs := range [][]loader.Source{
		{{Name: "", Dir: "x"}},
		{{Name: "a"}},
		{{Name: "a", Dir: "x"}, {Name: "a", Dir: "y"}},
	} {
		if _, err := loader.New(t.Context(), srcs, nil, nil); !errors.Is(err, loader.ErrInvalidSource) {
			t.Errorf("%+v: %v", srcs, err)
		}
	}
}

// A source folder that does not exist yet holds no skills and says nothing;
// once created, a rescan finds its skills.
func TestMissingSourceAppears(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "later")
	l := newLoader(t, nil, loader.Source{Name: "later", Dir: dir})
	if l.Snapshot().Len() != 0 || len(l.Snapshot().Diagnostics()) != 0 {
		t.Fatalf("%v %v", names(l.Snapshot()), l.Snapshot().Diagnostics())
	}
	writeSkill(t, dir, "x", "x")
	ch, err := l.Rescan(t.Context())
	if err != nil || !slices.Equal(ch.Added, []string{"x"}) {
		t.Fatalf("%+v %v", ch, err)
	}
}

func TestUnreadableFolder(t *testing.T) {
	if os.Getuid() == 0 {
		t.Skip("root reads every folder")
	}
	root := t.TempDir()
	writeSkill(t, root, "locked/inner", "inner")
	os.Chmod(filepath.Join(root, "locked"), 0)
	t.Cleanup(func() { os.Chmod(filepath.Join(root, "locked"), 0o755) })
	l := newLoader(t, nil, loader.Source{Name: "s", Dir: root})
	only(t, l.Snapshot().Diagnostics(), diagnostics.ReadError, 1)
}

func TestLimits(t *testing.T) {
	t.Run("DefaultMaxSkills", func(t *testing.T) {
		var paths []string
		for i := range loader.DefaultMaxSkills + 5 {
			paths = append(paths, fmt.Sprintf("s%03d", i))
		}
		l := newLoader(t, nil, loader.Source{Name: "m", FS: mapSkills(paths...)})
		if n := l.Snapshot().Len(); n != loader.DefaultMaxSkills {
			t.Errorf("%d skills, want %d", n, loader.DefaultMaxSkills)
		}
		d := only(t, l.Snapshot().Diagnostics(), diagnostics.LimitReached, 1)
		if len(d) == 1 && (d[0].Detail["limit"] != "max_skills" ||
			!slices.Equal(d[0].Detail["skipped"].([]string), []string{"m:s200", "m:s201", "m:s202", "m:s203", "m:s204"})) {
			t.Errorf("%v", d[0].Detail)
		}
	})
	t.Run("MaxSkillsAcrossSourcesAfterCollisions", func(t *testing.T) {
		// Collisions do not use up places: the limit counts skills loaded.
		a := mapSkills("x")
		b := mapSkills("w", "x", "y", "z")
		l := newLoader(t, &loader.Options{MaxSkills: 3}, loader.Source{Name: "a", FS: a}, loader.Source{Name: "b", FS: b})
		wantNames(t, names(l.Snapshot()), "w@b:w", "x@a:x", "y@b:y")
		d := only(t, l.Snapshot().Diagnostics(), diagnostics.LimitReached, 1)
		if len(d) == 1 && !slices.Equal(d[0].Detail["skipped"].([]string), []string{"b:z"}) {
			t.Errorf("%v", d[0].Detail)
		}
		only(t, l.Snapshot().Diagnostics(), diagnostics.NameCollision, 1)
	})
	t.Run("MaxDirs", func(t *testing.T) {
		m := mapSkills("a/one", "b/two", "c/three")
		l := newLoader(t, &loader.Options{MaxDirs: 4}, loader.Source{Name: "m", FS: m})
		// Visited: ".", "a", "a/one", "b"; left: "b/two", "c".
		wantNames(t, names(l.Snapshot()), "one@m:a/one")
		d := only(t, l.Snapshot().Diagnostics(), diagnostics.LimitReached, 1)
		if len(d) == 1 && (d[0].Detail["limit"] != "max_dirs" || !slices.Equal(d[0].Detail["skipped"].([]string), []string{"b/two", "c"})) {
			t.Errorf("%v", d[0].Detail)
		}
	})
	t.Run("MaxDepth", func(t *testing.T) {
		l := newLoader(t, &loader.Options{MaxDepth: 1}, loader.Source{Name: "m", FS: mapSkills("one", "a/two")})
		wantNames(t, names(l.Snapshot()), "one@m:one")
		only(t, l.Snapshot().Diagnostics(), diagnostics.LimitReached, 1)
	})
	t.Run("MaxFileBytes", func(t *testing.T) {
		m := mapSkills("small")
		m["big/SKILL.md"] = &fstest.MapFile{Data: []byte(skillMD("big", "metadata:\n  pad: \""+strings.Repeat("x", 2000)+"\""))}
		l := newLoader(t, &loader.Options{MaxFileBytes: 1000}, loader.Source{Name: "m", FS: m})
		wantNames(t, names(l.Snapshot()), "small@m:small")
		d := only(t, l.Snapshot().Diagnostics(), diagnostics.FileTooLarge, 1)
		if len(d) == 1 && d[0].Path != "big/SKILL.md" {
			t.Errorf("%v", d[0])
		}
		// The default admits it.
		l = newLoader(t, nil, loader.Source{Name: "m", FS: m})
		wantNames(t, names(l.Snapshot()), "big@m:big", "small@m:small")
	})
	t.Run("DefaultMaxDirs", func(t *testing.T) {
		m := fstest.MapFS{}
		for i := range loader.DefaultMaxDirs + 10 {
			m[fmt.Sprintf("d%d/x.txt", i)] = &fstest.MapFile{}
		}
		l := newLoader(t, nil, loader.Source{Name: "m", FS: m})
		d := only(t, l.Snapshot().Diagnostics(), diagnostics.LimitReached, 1)
		if len(d) == 1 && d[0].Detail["value"] != loader.DefaultMaxDirs {
			t.Errorf("%v", d[0].Detail)
		}
	})
}

// Every corpus skill loads, but one: openai's skill-creator collides with
// anthropics' (an earlier path in sorted order).
func TestCorpus(t *testing.T) {
	root, dirs := testcorpus.SkillDirs(t)
	l := newLoader(t, &loader.Options{MaxSkills: 1000}, loader.Source{Name: "corpus", Dir: root})
	snap := l.Snapshot()
	coll := only(t, snap.Diagnostics(), diagnostics.NameCollision, 1)
	if snap.Len()+len(coll) != len(dirs) {
		t.Errorf("%d skills + %d collisions, %d folders", snap.Len(), len(coll), len(dirs))
	}
	if len(coll) == 1 && (!strings.HasSuffix(coll[0].Detail["winner_path"].(string), filepath.FromSlash("anthropics__skills/skill-creator")) ||
		!strings.HasSuffix(coll[0].Path, filepath.FromSlash("openai__skills/skill-creator"))) {
		t.Errorf("%v", coll[0].Detail)
	}
	for _, s := range snap.Skills() {
		if !filepath.IsAbs(s.DiskDir) || s.Source != "corpus" {
			t.Errorf("%s: disk dir %q source %q", s.Name, s.DiskDir, s.Source)
		}
		if got, ok := snap.ResolveByPath(filepath.Join(s.DiskDir, "SKILL.md")); !ok || got != s {
			t.Errorf("%s: ResolveByPath of its SKILL.md", s.Name)
		}
	}
	if d := snap.Diagnostics().WithCode(diagnostics.LimitReached, diagnostics.ReadError, diagnostics.SymlinkEscape); d != nil {
		t.Errorf("unexpected: %v", d)
	}
	// The default limit of 200 cuts the corpus, and says which skills.
	l = newLoader(t, nil, loader.Source{Name: "corpus", Dir: root})
	d := only(t, l.Snapshot().Diagnostics(), diagnostics.LimitReached, 1)
	if l.Snapshot().Len() != 200 || len(d) == 1 && len(d[0].Detail["skipped"].([]string)) != len(dirs)-201 {
		t.Errorf("%d skills; %v", l.Snapshot().Len(), d)
	}
}

// failingDirFS fails to list one folder, as a folder the process may not
// read does (a test run as root reads every folder on disk).
type failingDirFS struct {
	fstest.MapFS
	dir string
}

func (f failingDirFS) ReadDir(name string) ([]fs.DirEntry, error) {
	if name == f.dir {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrPermission}
	}
	return f.MapFS.ReadDir(name)
}

// A folder that cannot be listed is named by READ_ERROR, not skipped in
// silence, and the rest of the source still loads.
func TestUnlistableFolderNamed(t *testing.T) {
	m := mapSkills("open/pdf", "locked/inner")
	l := newLoader(t, nil, loader.Source{Name: "s", FS: failingDirFS{MapFS: m, dir: "locked"}})
	wantNames(t, names(l.Snapshot()), "pdf@s:open/pdf")
	d := only(t, l.Snapshot().Diagnostics(), diagnostics.ReadError, 1)
	if d[0].Path != "locked" || !strings.Contains(d[0].Message, "permission") {
		t.Errorf("%+v", d[0])
	}
}

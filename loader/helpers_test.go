package loader_test

import (
	"embed"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/skillkit-go/skillkit/diagnostics"
	"github.com/skillkit-go/skillkit/loader"
	"github.com/skillkit-go/skillkit/registry"
	"github.com/skillkit-go/skillkit/skill"
)

//go:embed testdata/bundled
var bundledFS embed.FS

// bundled is the embedded source: skills pdf and bundled-only.
func bundled(t testing.TB) loader.Source {
	sub, err := fs.Sub(bundledFS, "testdata/bundled")
	if err != nil {
		t.Fatal(err)
	}
	return loader.Source{Name: "bundled", FS: sub}
}

// skillMD returns a SKILL.md declaring name, with extra frontmatter lines.
func skillMD(name string, extra ...string) string {
	fm := "name: " + name + "\ndescription: The " + name + " skill.\n"
	for _, e := range extra {
		fm += e + "\n"
	}
	return "---\n" + fm + "---\n# " + name + "\n\nInstructions.\n"
}

// writeSkill writes rel/SKILL.md under root on disk.
func writeSkill(t testing.TB, root, rel, name string, extra ...string) string {
	t.Helper()
	dir := filepath.Join(root, filepath.FromSlash(rel))
	writeFile(t, filepath.Join(dir, "SKILL.md"), skillMD(name, extra...))
	return dir
}

func writeFile(t testing.TB, name, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func symlink(t testing.TB, target, link string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Skip("symbolic links unavailable:", err)
	}
}

// mapSkills builds a MapFS holding a skill at each path, named after its
// folder.
func mapSkills(paths ...string) fstest.MapFS {
	m := fstest.MapFS{}
	for _, p := range paths {
		name := p[strings.LastIndex(p, "/")+1:]
		m[p+"/SKILL.md"] = &fstest.MapFile{Data: []byte(skillMD(name))}
	}
	return m
}

func newLoader(t testing.TB, opts *loader.Options, sources ...loader.Source) *loader.Loader {
	t.Helper()
	return newLoaderWith(t, nil, opts, sources...)
}

// newLoaderWith is newLoader with a registry.
func newLoaderWith(t testing.TB, reg registry.Store, opts *loader.Options, sources ...loader.Source) *loader.Loader {
	t.Helper()
	l, err := loader.New(t.Context(), sources, reg, opts)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// names lists the snapshot's skills as "name@source:dir".
func names(s *loader.Snapshot) []string {
	var out []string
	for _, sk := range s.Skills() {
		out = append(out, fmt.Sprintf("%s@%s:%s", sk.Name, sk.Source, sk.Dir))
	}
	return out
}

func skillNames(skills []*skill.Skill) []string {
	var out []string
	for _, s := range skills {
		out = append(out, s.Name)
	}
	return out
}

func wantNames(t testing.TB, got []string, want ...string) {
	t.Helper()
	if !slices.Equal(got, want) && !(len(got) == 0 && len(want) == 0) {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

// only returns the diagnostics with the code, failing unless there are n.
func only(t testing.TB, diags diagnostics.List, code diagnostics.Code, n int) diagnostics.List {
	t.Helper()
	got := diags.WithCode(code)
	if len(got) != n {
		t.Errorf("%d %s diagnostics, want %d:\n%v", len(got), code, n, diags)
	}
	return got
}

func skillDirFS(dir string) fs.FS { return os.DirFS(dir) }

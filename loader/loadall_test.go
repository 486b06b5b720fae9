package loader_test

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/skillkit-go/skillkit/diagnostics"
	"github.com/skillkit-go/skillkit/internal/testcorpus"
	"github.com/skillkit-go/skillkit/loader"
	"github.com/skillkit-go/skillkit/skill"
)

// countingFS counts the listings of each folder.
type countingFS struct {
	fs.FS
	mu    sync.Mutex
	lists map[string]int
}

func (c *countingFS) ReadDir(name string) ([]fs.DirEntry, error) {
	c.mu.Lock()
	c.lists[name]++
	c.mu.Unlock()
	return fs.ReadDir(c.FS, name)
}

// loadEach is what LoadAll replaces: Discover, then skill.Load of each
// folder found on its own.
func loadEach(t *testing.T, root string, opts *loader.Options) ([]*skill.Skill, diagnostics.List) {
	t.Helper()
	found, diags := loader.Discover(t.Context(), loader.Source{Name: "s", Dir: root}, opts)
	var skills []*skill.Skill
	for _, f := range found {
		s, d := skill.Load(os.DirFS(root), f.Dir, &skill.LoadOptions{Strict: opts.Strict, DiskRoot: root})
		skills = append(skills, s)
		diags = append(diags, d...)
	}
	return skills, diags
}

func sameJSON(t *testing.T, what string, got, want any) {
	t.Helper()
	g, err := json.Marshal(got)
	if err != nil {
		t.Fatal(err)
	}
	w, err := json.Marshal(want)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(string(w), string(g)); d != "" {
		t.Errorf("%s differ (-Discover and skill.Load +LoadAll):\n%s", what, d)
	}
}

// LoadAll loads every folder discovery finds, colliding and nested ones
// included, as Discover followed by skill.Load does, listing each folder
// once.
func TestLoadAll(t *testing.T) {
	root := t.TempDir()
	writeSkill(t, root, "a", "pdf")
	writeSkill(t, root, "b", "pdf") // the same name: both are loaded
	outer := writeSkill(t, root, "outer", "outer")
	writeSkill(t, outer, "inner", "inner")
	writeFile(t, filepath.Join(outer, "references", "deep", "x.md"), "x")
	writeFile(t, filepath.Join(root, "broken", "SKILL.md"), "no frontmatter")
	writeSkill(t, root, ".hidden/c", "c")
	opts := &loader.Options{MaxSkills: loader.Unlimited, MaxDirs: loader.Unlimited, MaxDepth: loader.Unlimited, NestedSkills: true, Strict: true}

	found, skills, diags := loader.LoadAll(t.Context(), loader.Source{Name: "s", Dir: root}, opts)
	wantSkills, wantDiags := loadEach(t, root, opts)
	if len(found) != len(skills) || len(found) != 5 {
		t.Fatalf("%d found, %d skills, want 5 each", len(found), len(skills))
	}
	sameJSON(t, "skills", skills, wantSkills)
	sameJSON(t, "diagnostics", diags, wantDiags)

	counting := &countingFS{FS: os.DirFS(root), lists: map[string]int{}}
	loader.LoadAll(t.Context(), loader.Source{Name: "s", FS: counting}, opts)
	for dir, n := range counting.lists {
		if n != 1 {
			t.Errorf("%s listed %d times", dir, n)
		}
	}
	if counting.lists["outer/references/deep"] != 1 {
		t.Errorf("listings %v", counting.lists)
	}
}

// On the corpus, LoadAll gives what Discover and skill.Load give, strict
// and lenient.
func TestLoadAllCorpus(t *testing.T) {
	root := testcorpus.Dir(t)
	for _, strict := range []bool{false, true} {
		opts := &loader.Options{MaxSkills: loader.Unlimited, MaxDirs: loader.Unlimited, MaxDepth: loader.Unlimited, NestedSkills: true, Strict: strict}
		_, skills, diags := loader.LoadAll(t.Context(), loader.Source{Name: "s", Dir: root}, opts)
		wantSkills, wantDiags := loadEach(t, root, opts)
		sameJSON(t, "skills", skills, wantSkills)
		sameJSON(t, "diagnostics", diags, wantDiags)
	}
}

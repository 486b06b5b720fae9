package loader_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/skillkit-go/skillkit/internal/testcorpus"
	"github.com/skillkit-go/skillkit/loader"
	"github.com/skillkit-go/skillkit/skill"
)

// retainedPerSkill is the live heap a loader of n generated skills holds,
// per skill.
func retainedPerSkill(t testing.TB, dir string, n int, opts *loader.Options) float64 {
	before := testcorpus.LiveHeap()
	l, err := loader.New(t.Context(), []loader.Source{{Name: "gen", Dir: dir}}, nil, opts)
	if err != nil || l.Snapshot().Len() != n {
		t.Fatal(err, l.Snapshot().Diagnostics())
	}
	after := testcorpus.LiveHeap()
	runtime.KeepAlive(l)
	return float64(int64(after)-int64(before)) / float64(n)
}

func TestOneShotRetainsOnlyTheSkills(t *testing.T) {
	const n = 1000
	dir := t.TempDir()
	if err := testcorpus.Generate(dir, n); err != nil {
		t.Fatal(err)
	}
	oneShot := &loader.Options{MaxSkills: loader.Unlimited, MaxDirs: loader.Unlimited, OneShot: true}
	kept := retainedPerSkill(t, dir, n, noLimits())
	shot := retainedPerSkill(t, dir, n, oneShot)
	t.Logf("retained per skill: %.0f bytes, %.0f one-shot", kept, shot)
	// What a generated skill's Skill holds (its struct, frontmatter text,
	// file list, folder paths) is about 2,000 bytes; the rescan state
	// (listings, stamps, per-folder results) about 1,300 more. Anything
	// else a one-shot loader starts to keep per skill crosses the budget.
	const budget = 2150
	if shot > budget {
		t.Errorf("a one-shot loader keeps %.0f bytes per skill, over the budget of %d", shot, budget)
	}
	if kept-shot < 800 {
		t.Errorf("a one-shot loader keeps %.0f bytes per skill, a rescanning one %.0f: the rescan state should be gone", shot, kept)
	}
}

func TestOneShotRescanReportsChanges(t *testing.T) {
	dir := t.TempDir()
	if err := testcorpus.Generate(dir, 30); err != nil {
		t.Fatal(err)
	}
	opts := &loader.Options{OneShot: true}
	l, err := loader.New(t.Context(), []loader.Source{{Name: "gen", Dir: dir}}, nil, opts)
	if err != nil {
		t.Fatal(err)
	}
	ch, err := l.Rescan(t.Context())
	if err != nil || !ch.Empty() {
		t.Fatalf("nothing changed, yet: %+v %v", ch, err)
	}
	edited := filepath.Join(dir, "group-000", "skill-00003", "SKILL.md")
	writeFile(t, edited, "---\nname: skill-00003\ndescription: Edited by hand.\n---\nbody\n")
	writeFile(t, filepath.Join(dir, "group-000", "new-one", "SKILL.md"), "---\nname: new-one\ndescription: Added.\n---\nbody\n")
	if err := os.RemoveAll(filepath.Join(dir, "group-000", "skill-00007")); err != nil {
		t.Fatal(err)
	}
	ch, err = l.Rescan(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	want := loader.Changes{Added: []string{"new-one"}, Removed: []string{"skill-00007"}, Modified: []string{"skill-00003"}}
	if diff := cmp.Diff(want, ch); diff != "" {
		t.Errorf("changes (-want +got):\n%s", diff)
	}
	// The same skills as a loader that keeps its rescan state sees.
	full, err := loader.New(t.Context(), []loader.Source{{Name: "gen", Dir: dir}}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(skillJSON(t, full.Snapshot().Skills()), skillJSON(t, l.Snapshot().Skills())); diff != "" {
		t.Errorf("one-shot skills differ (-full +one-shot):\n%s", diff)
	}
}

// skillJSON is how skills compare: their JSON form, one per skill.
func skillJSON(t *testing.T, skills []*skill.Skill) []string {
	t.Helper()
	var out []string
	for _, s := range skills {
		b, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, string(b))
	}
	return out
}

func TestOneShotScanDropsListingsOfLoadedSkills(t *testing.T) {
	dir := t.TempDir()
	if err := testcorpus.Generate(dir, 40); err != nil {
		t.Fatal(err)
	}
	l, err := loader.New(t.Context(), []loader.Source{{Name: "gen", Dir: dir}}, nil, &loader.Options{OneShot: true})
	if err != nil {
		t.Fatal(err)
	}
	left, err := loader.ScanListings(l)
	if err != nil {
		t.Fatal(err)
	}
	// Each skill's folder and its references/ are dropped once it is
	// loaded; the folders above the skills stay until the scan ends.
	if diff := cmp.Diff([]string{".", "group-000"}, left); diff != "" {
		t.Errorf("listings held at the end of a one-shot scan (-want +got):\n%s", diff)
	}
}

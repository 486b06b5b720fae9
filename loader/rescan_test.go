package loader_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/skillkit-go/skillkit/loader"
	"github.com/skillkit-go/skillkit/skill"
)

// touch moves a file's modification time forward, as an edit a moment later
// would, so tests do not depend on the clock's resolution.
func touch(t *testing.T, name string) {
	t.Helper()
	st, err := os.Stat(name)
	if err != nil {
		t.Fatal(err)
	}
	later := st.ModTime().Add(2 * time.Second)
	if err := os.Chtimes(name, later, later); err != nil {
		t.Fatal(err)
	}
}

func rescan(t *testing.T, l *loader.Loader) loader.Changes {
	t.Helper()
	ch, err := l.Rescan(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	return ch
}

func wantChanges(t *testing.T, got loader.Changes, added, removed, modified []string) {
	t.Helper()
	if !slices.Equal(got.Added, added) || !slices.Equal(got.Removed, removed) || !slices.Equal(got.Modified, modified) {
		t.Errorf("changes %+v, want added %v removed %v modified %v", got, added, removed, modified)
	}
}

func TestRescan(t *testing.T) {
	root := t.TempDir()
	writeSkill(t, root, "keep", "keep")
	writeSkill(t, root, "edit", "edit")
	writeSkill(t, root, "gone", "gone")
	writeSkill(t, root, "move", "move")
	writeSkill(t, root, "refs", "refs")
	writeFile(t, filepath.Join(root, "refs", "references", "deep", "a.md"), "a")
	l := newLoader(t, nil, loader.Source{Name: "s", Dir: root})
	before := l.Snapshot()
	keep, _ := before.Get("keep")

	wantChanges(t, rescan(t, l), nil, nil, nil)
	if again, _ := l.Get("keep"); again != keep {
		t.Error("an unchanged skill was loaded again")
	}

	// Add, edit, delete and rename.
	writeSkill(t, root, "new", "new")
	writeFile(t, filepath.Join(root, "edit", "SKILL.md"), "---\nname: edit\ndescription: Edited.\n---\nNew body.\n")
	touch(t, filepath.Join(root, "edit", "SKILL.md"))
	os.RemoveAll(filepath.Join(root, "gone"))
	os.Rename(filepath.Join(root, "move"), filepath.Join(root, "moved"))
	// A file added two folders down in a skill changes its file list.
	writeFile(t, filepath.Join(root, "refs", "references", "deep", "b.md"), "b")
	touch(t, filepath.Join(root, "refs", "references", "deep"))
	wantChanges(t, rescan(t, l), []string{"new"}, []string{"gone"}, []string{"edit", "move", "refs"})

	snap := l.Snapshot()
	if e, _ := snap.Get("edit"); e.Description != "Edited." {
		t.Errorf("edit: %q", e.Description)
	}
	if m, _ := snap.Get("move"); m.Dir != "moved" {
		t.Errorf("move: %q", m.Dir)
	}
	if r, _ := snap.Get("refs"); !slices.Equal(r.Files, []string{"references/deep/a.md", "references/deep/b.md"}) {
		t.Errorf("refs files %v", r.Files)
	}
	if k, _ := snap.Get("keep"); k != keep {
		t.Error("keep was reloaded")
	}
	// The old snapshot is untouched.
	if _, ok := before.Get("new"); ok || before.Len() != 5 {
		t.Error("the previous snapshot changed")
	}

	// A skill.config.yaml appearing makes it a compute skill.
	writeFile(t, filepath.Join(root, "keep", "skill.config.yaml"), "runtime: bash\n")
	wantChanges(t, rescan(t, l), nil, nil, []string{"keep"})
	if k, _ := l.Get("keep"); k.Class != skill.ClassComputeToolkit {
		t.Errorf("keep class %s", k.Class)
	}
	// A skill becoming invalid disappears, with its diagnostic.
	writeFile(t, filepath.Join(root, "keep", "SKILL.md"), "no frontmatter")
	wantChanges(t, rescan(t, l), nil, []string{"keep"}, nil)
	if !l.Snapshot().Diagnostics().ForSkill("keep").HasErrors() {
		t.Error("no error for the broken skill")
	}
	// Infrastructure folders do not count: a new .venv changes nothing.
	// (Creating it changes the skill folder's listing, so "new" is read
	// again, and found the same.)
	newSkill, _ := l.Get("new")
	writeFile(t, filepath.Join(root, "new", ".venv", "bin", "python"), "")
	writeFile(t, filepath.Join(root, "new", ".venv", "lib", "x.py"), "")
	wantChanges(t, rescan(t, l), nil, nil, nil)
	if again, _ := l.Get("new"); again != newSkill {
		t.Error("a skill read again and found the same was replaced")
	}
	writeFile(t, filepath.Join(root, "new", ".venv", "lib", "y.py"), "")
	wantChanges(t, rescan(t, l), nil, nil, nil)
}

// A skill in a later source appears when the earlier one loses it.
func TestRescanCollisionWinnerChanges(t *testing.T) {
	work, user := t.TempDir(), t.TempDir()
	writeSkill(t, work, "pdf", "pdf")
	writeSkill(t, user, "pdf", "pdf")
	l := newLoader(t, nil, loader.Source{Name: "work", Dir: work}, loader.Source{Name: "user", Dir: user})
	os.RemoveAll(filepath.Join(work, "pdf"))
	wantChanges(t, rescan(t, l), nil, nil, []string{"pdf"})
	if p, _ := l.Get("pdf"); p.Source != "user" {
		t.Errorf("pdf from %s", p.Source)
	}
}

// Readers keep reading while rescans swap snapshots; run with -race.
func TestConcurrentReadersDuringRescan(t *testing.T) {
	root := t.TempDir()
	for _, n := range []string{"a", "b", "c"} {
		writeSkill(t, root, n, n)
	}
	l := newLoader(t, nil, loader.Source{Name: "s", Dir: root})
	ctx, cancel := context.WithCancel(t.Context())
	var wg sync.WaitGroup
	var reads atomic.Int64
	for range 4 {
		wg.Go(func() {
			for ctx.Err() == nil {
				snap := l.Snapshot()
				skills := snap.Skills()
				for _, s := range skills {
					got, ok := snap.Get(s.Name)
					if !ok || got != s {
						t.Error("a snapshot changed under its reader")
						return
					}
					// churn is rewritten and deleted under the readers.
					if _, err := s.Body(); err != nil && s.Name != "churn" {
						t.Error(err)
						return
					}
					l.ResolveByPath(filepath.Join(s.DiskDir, "x"))
				}
				if _, err := l.Filter(ctx, loader.Env{}); err != nil {
					t.Error(err)
					return
				}
				reads.Add(1)
			}
		})
	}
	for i := range 20 {
		name := "churn"
		if i%2 == 0 {
			writeSkill(t, root, name, name)
		} else {
			os.RemoveAll(filepath.Join(root, name))
		}
		touch(t, filepath.Join(root, "a", "SKILL.md"))
		if _, err := l.Rescan(t.Context()); err != nil {
			t.Fatal(err)
		}
	}
	cancel()
	wg.Wait()
	if reads.Load() == 0 {
		t.Error("no reads happened")
	}
}

func TestRescanCanceled(t *testing.T) {
	root := t.TempDir()
	writeSkill(t, root, "a", "a")
	l := newLoader(t, nil, loader.Source{Name: "s", Dir: root})
	before := l.Snapshot()
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := l.Rescan(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v", err)
	}
	if l.Snapshot() != before {
		t.Error("a canceled rescan swapped the snapshot")
	}
	if _, err := loader.New(ctx, []loader.Source{{Name: "s", Dir: root}}, nil, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("New with a canceled context: %v", err)
	}
}

func TestWatch(t *testing.T) {
	root := t.TempDir()
	l := newLoader(t, nil, loader.Source{Name: "s", Dir: root})
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	got := make(chan loader.Changes, 10)
	done := make(chan error, 1)
	go func() {
		done <- l.Watch(ctx, &loader.WatchOptions{Interval: 10 * time.Millisecond}, func(c loader.Changes) { got <- c })
	}()
	writeSkill(t, root, "arrives", "arrives")
	select {
	case c := <-got:
		wantChanges(t, c, []string{"arrives"}, nil, nil)
	case <-ctx.Done():
		t.Fatal("no change delivered")
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("Watch returned %v", err)
	}
}

// An fs.FS without modification times (fstest.MapFS, embed.FS) is listed
// again on every rescan, so changes to it are still seen.
func TestRescanWithoutModTimes(t *testing.T) {
	m := mapSkills("a", "group/b")
	l := newLoader(t, nil, loader.Source{Name: "m", FS: m})
	m["group/c/SKILL.md"] = m["group/b/SKILL.md"]
	delete(m, "a/SKILL.md")
	// Without modification times every skill is read again, but b is the
	// same skill and is not reported modified.
	wantChanges(t, rescan(t, l), nil, []string{"a"}, nil)
	// c declares the name b; b keeps it (first in sorted order).
	if !l.Snapshot().Diagnostics().Has("NAME_COLLISION") {
		t.Error("the new folder was not seen")
	}
}

package loader_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/skillkit-go/skillkit/diagnostics"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
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

// trusting returns a loader that trusts stamps taken right after a change
// (no racy window), so a rescan with nothing changed keeps the snapshot
// itself and the tests see which rescans did.
func trusting(t *testing.T, sources ...loader.Source) *loader.Loader {
	t.Helper()
	l := newLoader(t, nil, sources...)
	loader.SetRacyWindow(l, 0)
	// The first scan's stamps were taken under the default window; one
	// rescan takes them again under none.
	rescan(t, l)
	return l
}

// kept rescans and reports whether the snapshot was kept as it was: the
// rescan found every stamp unchanged.
func kept(t *testing.T, l *loader.Loader) bool {
	t.Helper()
	before := l.Snapshot()
	wantChanges(t, rescan(t, l), nil, nil, nil)
	return l.Snapshot() == before
}

// A rescan notices every change that makes a skill differ, without
// touched modification times: inside sub-folders, folders added deep down,
// a skill file replaced by one of the same size and modification time, or
// rewritten in place with its modification time set back.
func TestRescanNoticesEveryChange(t *testing.T) {
	root := t.TempDir()
	dir := writeSkill(t, root, "s", "s")
	writeFile(t, filepath.Join(dir, "references", "a.md"), "a")
	writeFile(t, filepath.Join(dir, "scripts", "run.py"), "print(1)")
	l := trusting(t, loader.Source{Name: "s", Dir: root})
	if !kept(t, l) {
		t.Fatal("a rescan with nothing changed did not keep the snapshot")
	}
	files := func() []string {
		s, _ := l.Get("s")
		return s.Files
	}
	steps := []struct {
		name   string
		change func()
		files  []string
		desc   string
	}{
		{"a file added in a sub-folder", func() { writeFile(t, filepath.Join(dir, "references", "b.md"), "b") },
			[]string{"references/a.md", "references/b.md", "scripts/run.py"}, ""},
		{"a file removed from a sub-folder", func() { os.Remove(filepath.Join(dir, "scripts", "run.py")) },
			[]string{"references/a.md", "references/b.md"}, ""},
		{"a folder added deep down", func() { writeFile(t, filepath.Join(dir, "references", "deep", "new", "c.md"), "c") },
			[]string{"references/a.md", "references/b.md", "references/deep/new/c.md"}, ""},
		{"the skill file replaced by one of the same size and time", func() {
			old := filepath.Join(dir, "SKILL.md")
			st, err := os.Stat(old)
			if err != nil {
				t.Fatal(err)
			}
			tmp := filepath.Join(root, "SKILL.tmp")
			writeFile(t, tmp, strings.Replace(skillMD("s"), "The s skill.", "The S skill.", 1))
			os.Chtimes(tmp, st.ModTime(), st.ModTime())
			if err := os.Rename(tmp, old); err != nil {
				t.Fatal(err)
			}
		}, nil, "The S skill."},
		{"the skill file rewritten in place, its time set back", func() {
			p := filepath.Join(dir, "SKILL.md")
			st, err := os.Stat(p)
			if err != nil {
				t.Fatal(err)
			}
			f, err := os.OpenFile(p, os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			f.WriteString(strings.Replace(skillMD("s"), "The s skill.", "The Z skill.", 1))
			f.Close()
			os.Chtimes(p, st.ModTime(), st.ModTime())
		}, nil, "The Z skill."},
	}
	for _, step := range steps {
		step.change()
		wantChanges(t, rescan(t, l), nil, nil, []string{"s"})
		if step.files != nil && !slices.Equal(files(), step.files) {
			t.Errorf("%s: files %v, want %v", step.name, files(), step.files)
		}
		if s, _ := l.Get("s"); step.desc != "" && s.Description != step.desc {
			t.Errorf("%s: description %q, want %q", step.name, s.Description, step.desc)
		}
		if !kept(t, l) {
			t.Errorf("after %s, a rescan with nothing changed did not keep the snapshot", step.name)
		}
	}
	// A skill added beside it.
	writeSkill(t, root, "t", "t")
	wantChanges(t, rescan(t, l), []string{"t"}, nil, nil)
	if !kept(t, l) {
		t.Error("after a skill was added, a rescan with nothing changed did not keep the snapshot")
	}
}

// A stamp taken right after a change proves nothing: within the racy
// window every rescan reads the skill again (and finds it the same).
func TestRescanRacyStamps(t *testing.T) {
	root := t.TempDir()
	writeSkill(t, root, "s", "s")
	l := newLoader(t, nil, loader.Source{Name: "s", Dir: root})
	loader.SetRacyWindow(l, time.Hour)
	s, _ := l.Get("s")
	for range 2 {
		if kept(t, l) {
			t.Fatal("a rescan trusted stamps of files changed within the racy window")
		}
	}
	if again, _ := l.Get("s"); again != s {
		t.Error("a skill read again and found the same was replaced")
	}
}

// What discovery learns from links, which no folder stamp covers, is asked
// again: a link leading nowhere outside the root starts leading somewhere.
func TestRescanNoticesLinkTargets(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	writeSkill(t, root, "s", "s")
	symlink(t, filepath.Join(outside, "later"), filepath.Join(root, "link"))
	l := trusting(t, loader.Source{Name: "s", Dir: root})
	if !l.Snapshot().Diagnostics().Has(diagnostics.ReadError) {
		t.Fatal("no READ_ERROR for the broken link")
	}
	if !kept(t, l) {
		t.Fatal("a rescan with nothing changed did not keep the snapshot")
	}
	writeSkill(t, outside, "later", "later")
	rescan(t, l)
	diags := l.Snapshot().Diagnostics()
	if diags.Has(diagnostics.ReadError) || !diags.Has(diagnostics.SymlinkEscape) {
		t.Errorf("the link's new target was not seen: %v", diags)
	}
}

// A source root that does not exist yet is looked at again by every
// rescan.
func TestRescanMissingRoot(t *testing.T) {
	root := filepath.Join(t.TempDir(), "later")
	l := trusting(t, loader.Source{Name: "s", Dir: root})
	writeSkill(t, root, "s", "s")
	wantChanges(t, rescan(t, l), []string{"s"}, nil, nil)
}

// A rescan reads again only the skills whose own stamps changed: a skill
// added beside them, or one of them edited, leaves the others unread.
func TestRescanRereadsOnlyWhatChanged(t *testing.T) {
	root := t.TempDir()
	for _, n := range []string{"a", "b", "c"} {
		writeFile(t, filepath.Join(writeSkill(t, root, n, n), "references", "r.md"), "r")
	}
	var log bytes.Buffer
	l := newLoader(t, &loader.Options{Logger: slog.New(slog.NewJSONHandler(&log, &slog.HandlerOptions{Level: slog.LevelDebug}))},
		loader.Source{Name: "s", Dir: root})
	loader.SetRacyWindow(l, 0)
	rescan(t, l)
	reused := func() int {
		t.Helper()
		var line struct{ Reused int }
		lines := strings.Split(strings.TrimSpace(log.String()), "\n")
		if err := json.Unmarshal([]byte(lines[len(lines)-1]), &line); err != nil {
			t.Fatal(err)
		}
		return line.Reused
	}
	writeSkill(t, root, "d", "d")
	wantChanges(t, rescan(t, l), []string{"d"}, nil, nil)
	if n := reused(); n != 3 {
		t.Errorf("adding a skill reused %d skills, want 3", n)
	}
	writeFile(t, filepath.Join(root, "b", "references", "s.md"), "s")
	wantChanges(t, rescan(t, l), nil, nil, []string{"b"})
	if n := reused(); n != 3 {
		t.Errorf("changing one skill reused %d skills, want 3", n)
	}
}

// A skill with many sub-folders (past the memo's scanned list) has a change
// in one of its last folders seen.
func TestRescanManySubFolders(t *testing.T) {
	root := t.TempDir()
	dir := writeSkill(t, root, "s", "s")
	for i := range 40 {
		writeFile(t, filepath.Join(dir, fmt.Sprintf("d%02d", i), "f.md"), "f")
	}
	l := trusting(t, loader.Source{Name: "s", Dir: root})
	if !kept(t, l) {
		t.Fatal("a rescan with nothing changed did not keep the snapshot")
	}
	writeFile(t, filepath.Join(dir, "d39", "g.md"), "g")
	wantChanges(t, rescan(t, l), nil, nil, []string{"s"})
	if s, _ := l.Get("s"); !slices.Contains(s.Files, "d39/g.md") || len(s.Files) != 41 {
		t.Errorf("files %v", s.Files)
	}
}

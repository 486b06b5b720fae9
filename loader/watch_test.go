package loader_test

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/skillkit-go/skillkit/loader"
)

// scans counts the loader's "skills scanned" debug lines: one per rescan
// that looked at the sources.
type scans struct{ n atomic.Int64 }

func (s *scans) Enabled(context.Context, slog.Level) bool { return true }
func (s *scans) Handle(_ context.Context, r slog.Record) error {
	if strings.HasPrefix(r.Message, "skills scanned") {
		s.n.Add(1)
	}
	return nil
}
func (s *scans) WithAttrs([]slog.Attr) slog.Handler { return s }
func (s *scans) WithGroup(string) slog.Handler      { return s }

// watching runs Watch on its own goroutine and gathers what it reports.
type watching struct {
	t      *testing.T
	got    chan loader.Changes
	cancel context.CancelFunc
	done   chan error
	seen   loader.Changes
}

func startWatch(t *testing.T, l *loader.Loader, opts *loader.WatchOptions) *watching {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	w := &watching{t: t, got: make(chan loader.Changes, 100), cancel: cancel, done: make(chan error, 1)}
	go func() { w.done <- l.Watch(ctx, opts, func(c loader.Changes) { w.got <- c }) }()
	t.Cleanup(w.stop)
	return w
}

func (w *watching) stop() {
	w.cancel()
	if err := <-w.done; err != nil && !errors.Is(err, context.Canceled) {
		w.t.Errorf("Watch returned %v", err)
	}
	w.done <- context.Canceled // stop is idempotent
}

// expect waits until Watch has reported every name of want in the field
// each is listed under (any other changes reported meanwhile are kept
// for later expectations).
func (w *watching) expect(what string, added, removed, modified []string) {
	w.t.Helper()
	has := func(all, want []string) bool {
		for _, n := range want {
			if !slices.Contains(all, n) {
				return false
			}
		}
		return true
	}
	deadline := time.After(10 * time.Second)
	for !has(w.seen.Added, added) || !has(w.seen.Removed, removed) || !has(w.seen.Modified, modified) {
		select {
		case c := <-w.got:
			w.seen.Added = append(w.seen.Added, c.Added...)
			w.seen.Removed = append(w.seen.Removed, c.Removed...)
			w.seen.Modified = append(w.seen.Modified, c.Modified...)
		case <-deadline:
			w.t.Fatalf("%s: Watch reported %+v, want added %v removed %v modified %v", what, w.seen, added, removed, modified)
		}
	}
	w.seen = loader.Changes{}
}

// edited is a SKILL.md declaring name with another description.
func edited(name string) string {
	return "---\nname: " + name + "\ndescription: Edited.\n---\nChanged.\n"
}

func needNotifications(t *testing.T) {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("Watch uses change notifications on Linux only")
	}
}

// until waits until cond holds of the loader's snapshot, which Watch
// keeps current.
func (w *watching) until(what string, l *loader.Loader, cond func(*loader.Snapshot) bool) {
	w.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond(l.Snapshot()) {
		if time.Now().After(deadline) {
			w.t.Fatalf("%s: not seen in 10 s", what)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// skillIs returns a condition: the named skill is loaded from the folder
// dir (relative to root), with the description and the files given.
func skillIs(root, name, dir, description string, files ...string) func(*loader.Snapshot) bool {
	return func(snap *loader.Snapshot) bool {
		s, ok := snap.Get(name)
		return ok && s.DiskDir == filepath.Join(root, dir) && s.Description == description && slices.Equal(s.Files, files)
	}
}

// Every kind of change is seen through notifications alone: the interval
// is an hour, so no round polls. The test looks at the snapshot rather than
// at the changes reported: a round may read a file while the test writes
// it (and report the skill removed, then added again).
func TestWatchNotifies(t *testing.T) {
	needNotifications(t)
	root := t.TempDir()
	writeSkill(t, root, "a", "a")
	writeFile(t, filepath.Join(root, "a", "references", "one.md"), "one")
	writeSkill(t, root, "group/b", "b")
	l := newLoader(t, nil, loader.Source{Name: "s", Dir: root})
	w := startWatch(t, l, &loader.WatchOptions{Interval: time.Hour})

	// An edit in place: the folder's listing does not change.
	writeFile(t, filepath.Join(root, "a", "SKILL.md"), edited("a"))
	w.until("skill file edited", l, skillIs(root, "a", "a", "Edited.", "references/one.md"))
	// A file added to a sub-folder.
	writeFile(t, filepath.Join(root, "a", "references", "two.md"), "two")
	w.until("file added to a sub-folder", l, skillIs(root, "a", "a", "Edited.", "references/one.md", "references/two.md"))
	// A new folder, then at once an edit inside it: the edit may come
	// before its folder is watched.
	writeSkill(t, root, "fresh/c", "c")
	writeFile(t, filepath.Join(root, "fresh", "c", "SKILL.md"), edited("c"))
	w.until("new skill edited at once", l, skillIs(root, "c", "fresh/c", "Edited."))
	writeFile(t, filepath.Join(root, "fresh", "c", "references", "r.md"), "r")
	w.until("file added to the new skill", l, skillIs(root, "c", "fresh/c", "Edited.", "references/r.md"))
	// A folder moved: its watch goes with it, and is replaced.
	if err := os.Rename(filepath.Join(root, "a"), filepath.Join(root, "moved")); err != nil {
		t.Fatal(err)
	}
	w.until("skill folder moved", l, skillIs(root, "a", "moved", "Edited.", "references/one.md", "references/two.md"))
	writeFile(t, filepath.Join(root, "moved", "references", "three.md"), "three")
	w.until("file added after the move", l, skillIs(root, "a", "moved", "Edited.", "references/one.md", "references/three.md", "references/two.md"))
	if err := os.RemoveAll(filepath.Join(root, "group")); err != nil {
		t.Fatal(err)
	}
	w.until("skill removed", l, func(snap *loader.Snapshot) bool { _, ok := snap.Get("b"); return !ok })
	// A folder removed and made again at the same path, then edited.
	writeSkill(t, root, "group/b", "b")
	w.until("skill back", l, skillIs(root, "b", "group/b", "The b skill."))
	writeFile(t, filepath.Join(root, "group", "b", "SKILL.md"), edited("b"))
	w.until("skill back, then edited", l, skillIs(root, "b", "group/b", "Edited."))
	// Replaced within one round: the folders at the same paths are new
	// folders, and their watches went with the old ones.
	if err := os.RemoveAll(filepath.Join(root, "group")); err != nil {
		t.Fatal(err)
	}
	writeSkill(t, root, "group/b", "b")
	w.until("skill replaced", l, skillIs(root, "b", "group/b", "The b skill."))
	time.Sleep(100 * time.Millisecond) // the round that checks the new watches
	writeFile(t, filepath.Join(root, "group", "b", "references", "r.md"), "r")
	w.until("file added to the replaced skill", l, skillIs(root, "b", "group/b", "The b skill.", "references/r.md"))
}

// While nothing changes, a watched loader does no scan at all; polling
// would scan every interval.
func TestWatchIdleDoesNothing(t *testing.T) {
	needNotifications(t)
	root := t.TempDir()
	writeSkill(t, root, "a", "a")
	writeSkill(t, root, "group/b", "b")
	var counted scans
	l := newLoader(t, &loader.Options{Logger: slog.New(&counted)}, loader.Source{Name: "s", Dir: root})
	w := startWatch(t, l, &loader.WatchOptions{Interval: 5 * time.Millisecond})
	// The first round checks what was read before the watches existed.
	deadline := time.Now().Add(10 * time.Second)
	for counted.n.Load() < 2 { // New's scan, then the first round's
		if time.Now().After(deadline) {
			t.Fatal("Watch's first round did not check what was read before the watches existed")
		}
		time.Sleep(time.Millisecond)
	}
	time.Sleep(50 * time.Millisecond)
	before := counted.n.Load()
	time.Sleep(300 * time.Millisecond)
	if n := counted.n.Load() - before; n != 0 {
		t.Errorf("%d scans in 300 ms with nothing changed and a 5 ms interval", n)
	}
	writeSkill(t, root, "group/c", "c")
	w.expect("new skill", []string{"c"}, nil, nil)
}

// With Poll, every round is a rescan at the interval.
func TestWatchPoll(t *testing.T) {
	root := t.TempDir()
	var counted scans
	l := newLoader(t, &loader.Options{Logger: slog.New(&counted)}, loader.Source{Name: "s", Dir: root})
	w := startWatch(t, l, &loader.WatchOptions{Interval: 5 * time.Millisecond, Poll: true})
	writeSkill(t, root, "a", "a")
	w.expect("new skill", []string{"a"}, nil, nil)
	before := counted.n.Load()
	time.Sleep(100 * time.Millisecond)
	if counted.n.Load() == before {
		t.Error("Watch with Poll did not rescan for 100 ms with a 5 ms interval")
	}
}

// A source root that does not exist yet is polled until it does, then
// watched.
func TestWatchMissingRoot(t *testing.T) {
	needNotifications(t)
	root := filepath.Join(t.TempDir(), "later")
	var counted scans
	l := newLoader(t, &loader.Options{Logger: slog.New(&counted)}, loader.Source{Name: "s", Dir: root})
	w := startWatch(t, l, &loader.WatchOptions{Interval: 10 * time.Millisecond})
	writeSkill(t, root, "a", "a")
	w.expect("root made", []string{"a"}, nil, nil)
	time.Sleep(100 * time.Millisecond) // the round that checks the new watches
	before := counted.n.Load()
	time.Sleep(200 * time.Millisecond)
	if n := counted.n.Load() - before; n != 0 {
		t.Errorf("%d scans in 200 ms once the root exists: still polling", n)
	}
	writeFile(t, filepath.Join(root, "a", "SKILL.md"), edited("a"))
	w.until("skill edited", l, skillIs(root, "a", "a", "Edited."))
}

// Two sources that overlap see one folder by two paths; the kernel would
// notify only one of them, so that folder is polled, and the skill added
// there comes from the first source, as a rescan finds it.
func TestWatchOverlappingSources(t *testing.T) {
	needNotifications(t)
	root := t.TempDir()
	writeSkill(t, root, "group/a", "a")
	l := newLoader(t, nil, loader.Source{Name: "outer", Dir: root}, loader.Source{Name: "inner", Dir: filepath.Join(root, "group")})
	w := startWatch(t, l, &loader.WatchOptions{Interval: 20 * time.Millisecond})
	// Let the first round add its watches.
	time.Sleep(100 * time.Millisecond)
	writeSkill(t, root, "group/b", "b")
	w.expect("skill added", []string{"b"}, nil, nil)
	// Rounds go on while the interval polls; let one more run, then the
	// skill must come from the first source.
	time.Sleep(100 * time.Millisecond)
	if s, ok := l.Get("b"); !ok || s.Source != "outer" {
		t.Errorf("b from %+v, want the source outer", s)
	}
}

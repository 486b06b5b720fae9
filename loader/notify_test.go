package loader

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fsnotify/fsnotify"
)

func writeTestSkill(t *testing.T, dir, description string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	md := "---\nname: " + filepath.Base(dir) + "\ndescription: " + description + "\n---\nBody.\n"
	if err := os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte(md), 0o644); err != nil {
		t.Fatal(err)
	}
}

// A folder a rescan is told to trust is neither listed nor stat'ed: an
// edit there goes unseen by that rescan, and the next rescan without trust
// sees it.
func TestRescanTrusts(t *testing.T) {
	root := t.TempDir()
	writeTestSkill(t, filepath.Join(root, "group", "a"), "Before.")
	l, err := New(t.Context(), []Source{{Name: "s", Dir: root}}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	writeTestSkill(t, filepath.Join(root, "group", "a"), "After, and longer.")
	writeTestSkill(t, filepath.Join(root, "group", "b"), "New.")
	// Trusting all but the group folder: the new folder is seen, the edit
	// in the trusted skill folder is not.
	notGroup := &notified{trusted: []trust{func(dir string) bool { return dir != "group" }}}
	l.scanMu.Lock()
	ch, err := l.rescan(t.Context(), notGroup)
	l.scanMu.Unlock()
	if err != nil || len(ch.Added) != 1 || len(ch.Modified) != 0 {
		t.Fatalf("a rescan trusting all but group: %+v, %v", ch, err)
	}
	if err := os.RemoveAll(filepath.Join(root, "group", "b")); err != nil {
		t.Fatal(err)
	}
	all := &notified{trusted: []trust{func(string) bool { return true }}}
	before := l.Snapshot()
	l.scanMu.Lock()
	ch, err = l.rescan(t.Context(), all)
	l.scanMu.Unlock()
	if err != nil || !ch.Empty() {
		t.Fatalf("a rescan trusting every folder: %+v, %v", ch, err)
	}
	if l.Snapshot() != before {
		t.Error("a rescan trusting every folder scanned: it should keep the snapshot without looking")
	}
	// Trusting all but the skill folder: the edit is seen, the removed
	// folder (in the trusted group folder) is not.
	notA := &notified{trusted: []trust{func(dir string) bool { return dir != "group/a" }}}
	l.scanMu.Lock()
	ch, err = l.rescan(t.Context(), notA)
	l.scanMu.Unlock()
	if err != nil || len(ch.Modified) != 1 || len(ch.Added) != 0 {
		t.Fatalf("a rescan trusting all but group/a: %+v, %v", ch, err)
	}
	if ch, err := l.Rescan(t.Context()); err != nil || len(ch.Removed) != 1 {
		t.Fatalf("a rescan trusting nothing: %+v, %v", ch, err)
	}
}

// A lost notification makes the next round trust nothing; a round with
// nothing notified and everything watched has nothing to do.
func TestNotifierRounds(t *testing.T) {
	root := t.TempDir()
	writeTestSkill(t, filepath.Join(root, "a"), "A skill.")
	l, err := New(t.Context(), []Source{{Name: "s", Dir: root}}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	n := l.newNotifier(t.Context(), DefaultWatchInterval)
	if n == nil {
		t.Skip("no change notifications here")
	}
	defer n.close()
	if _, more, err := l.watchRound(t.Context(), n); err != nil || more {
		t.Fatalf("first round: more %v, %v", more, err)
	}
	// Let any notification of the first round's reads settle.
	time.Sleep(50 * time.Millisecond)
	n.mu.Lock()
	n.dirty = map[dirRef]bool{}
	n.mu.Unlock()
	if nt, idle := n.begin(); !idle || nt != nil {
		t.Fatalf("nothing notified: idle %v, trusted %v", idle, nt)
	}
	n.failed(t.Context(), fsnotify.ErrEventOverflow)
	if nt, idle := n.begin(); idle || nt != nil {
		t.Fatalf("after an overflow: idle %v, trusted %v; want a round trusting nothing", idle, nt)
	}
	n.notice(fsnotify.Event{Name: filepath.Join(root, "a", "SKILL.md"), Op: fsnotify.Write})
	nt, idle := n.begin()
	if idle || nt.trusted[0] == nil || nt.trusted[0]("a") || !nt.trusted[0](".") || !nt.only || len(nt.dirs) != 1 {
		t.Fatalf("after a write in a: idle %v; want a round trusting the root, not a", idle)
	}
}

// Beyond the watch limit, the shallowest folders are watched (the skill
// folders before what they hold), the rest are polled a slice each round,
// and a change in a polled folder is seen without a full rescan.
func TestWatchBeyondTheLimit(t *testing.T) {
	root := t.TempDir()
	for i := range 20 {
		dir := filepath.Join(root, fmt.Sprintf("s%02d", i))
		writeTestSkill(t, dir, "A skill.")
		if err := os.MkdirAll(filepath.Join(dir, "references"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	var logged bytes.Buffer
	l, err := New(t.Context(), []Source{{Name: "s", Dir: root}}, nil, &Options{Logger: slog.New(slog.NewTextHandler(&logged, nil))})
	if err != nil {
		t.Fatal(err)
	}
	watchLimit = 25 // the root, the 20 skills, 4 of their reference folders
	defer func() { watchLimit = 0 }()
	n := l.newNotifier(t.Context(), 10*time.Millisecond)
	if n == nil {
		t.Skip("no change notifications here")
	}
	defer n.close()
	for i := range 20 {
		if _, ok := n.byRef[dirRef{0, fmt.Sprintf("s%02d", i)}]; !ok {
			t.Errorf("skill folder s%02d is not watched; watched: %d", i, len(n.byRef))
		}
	}
	if len(n.polled) != 16 || !n.complete {
		t.Fatalf("polled %d folders (want 16), complete %v", len(n.polled), n.complete)
	}
	if !strings.Contains(logged.String(), "not watched for changes") || !strings.Contains(logged.String(), "max_user_watches") {
		t.Errorf("the log does not say folders are polled, and how to avoid it:\n%s", logged.String())
	}
	// A reference added where no watch looks, once Watch has settled: the
	// polled slice finds it.
	polled := n.polled[len(n.polled)-1]
	skill := filepath.Dir(filepath.FromSlash(polled.dir))
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	seen := make(chan struct{})
	go l.Watch(ctx, &WatchOptions{Interval: 10 * time.Millisecond}, func(ch Changes) {
		for _, m := range ch.Modified {
			if m == skill {
				close(seen)
				cancel()
				return
			}
		}
	})
	time.Sleep(300 * time.Millisecond)
	if err := os.WriteFile(filepath.Join(root, filepath.FromSlash(polled.dir), "new.md"), []byte("new"), 0o644); err != nil {
		t.Fatal(err)
	}
	select {
	case <-seen:
	case <-ctx.Done():
		t.Fatalf("the change in the polled folder %s was not seen", polled.dir)
	}
	// An idle round checks only its slice: the slice, not every folder.
	nt, idle := n.begin()
	if idle || !nt.only || len(nt.dirs) > n.slice {
		t.Errorf("an idle round with polled folders: idle %v, only %v, %d folders (slice %d)", idle, nt != nil && nt.only, len(nt.dirs), n.slice)
	}
}

package loader

import (
	"os"
	"path/filepath"
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
	n := l.newNotifier(t.Context())
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

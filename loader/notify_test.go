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
	all := []trust{func(string) bool { return true }}
	l.scanMu.Lock()
	ch, err := l.rescan(t.Context(), all)
	l.scanMu.Unlock()
	if err != nil || !ch.Empty() {
		t.Fatalf("a rescan trusting every folder: %+v, %v", ch, err)
	}
	// Trusting all but the skill folder: the edit is seen, the new folder
	// (in the trusted group folder) is not.
	notA := []trust{func(dir string) bool { return dir != "group/a" }}
	l.scanMu.Lock()
	ch, err = l.rescan(t.Context(), notA)
	l.scanMu.Unlock()
	if err != nil || len(ch.Modified) != 1 || len(ch.Added) != 0 {
		t.Fatalf("a rescan trusting all but group/a: %+v, %v", ch, err)
	}
	if ch, err := l.Rescan(t.Context()); err != nil || len(ch.Added) != 1 {
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
	if trusted, idle := n.begin(); !idle || trusted != nil {
		t.Fatalf("nothing notified: idle %v, trusted %v", idle, trusted)
	}
	n.failed(t.Context(), fsnotify.ErrEventOverflow)
	if trusted, idle := n.begin(); idle || trusted != nil {
		t.Fatalf("after an overflow: idle %v, trusted %v; want a round trusting nothing", idle, trusted)
	}
	n.notice(fsnotify.Event{Name: filepath.Join(root, "a", "SKILL.md"), Op: fsnotify.Write})
	trusted, idle := n.begin()
	if idle || trusted[0] == nil || trusted[0]("a") || !trusted[0](".") {
		t.Fatalf("after a write in a: idle %v; want a round trusting the root, not a", idle)
	}
}

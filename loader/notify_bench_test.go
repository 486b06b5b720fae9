package loader

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/fsnotify/fsnotify"

	"github.com/skillkit-go/skillkit/internal/testcorpus"
)

// BenchmarkWatchRound is the cost of a Watch round when nothing changed,
// against a Rescan, at two sizes: with nothing notified (what Watch does
// between changes: nothing), and with one skill folder notified but
// unchanged (a file touched), which lists and stats that folder alone.
func BenchmarkWatchRound(b *testing.B) {
	for _, n := range []int{1_000, 10_000} {
		root := b.TempDir()
		if err := testcorpus.Generate(root, n); err != nil {
			b.Fatal(err)
		}
		l, err := New(b.Context(), []Source{{Name: "bench", Dir: root}}, nil, &Options{MaxSkills: Unlimited, MaxDirs: Unlimited})
		if err != nil {
			b.Fatal(err)
		}
		l.racy = 0 // the skills were just written; let their stamps prove them
		nt := l.newNotifier(b.Context(), DefaultWatchInterval)
		if nt == nil {
			b.Skip("no change notifications here")
		}
		if _, _, err := l.watchRound(b.Context(), nt); err != nil {
			b.Fatal(err)
		}
		touched := filepath.Join(root, "group-000", "skill-00000", "SKILL.md")
		round := func(b *testing.B, notify bool) {
			for b.Loop() {
				if notify {
					nt.notice(fsnotify.Event{Name: touched, Op: fsnotify.Chmod})
				}
				if ch, _, err := l.watchRound(b.Context(), nt); err != nil || !ch.Empty() {
					b.Fatal(ch, err)
				}
			}
		}
		b.Run(fmt.Sprintf("skills=%d/notified=none", n), func(b *testing.B) { round(b, false) })
		b.Run(fmt.Sprintf("skills=%d/notified=one", n), func(b *testing.B) { round(b, true) })
		b.Run(fmt.Sprintf("skills=%d/rescan", n), func(b *testing.B) {
			for b.Loop() {
				if ch, err := l.Rescan(b.Context()); err != nil || !ch.Empty() {
					b.Fatal(ch, err)
				}
			}
		})
		nt.close()
	}
}

package loader

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/skillkit-go/skillkit/internal/testcorpus"
)

// BenchmarkWatchIdle100k measures the processor time an idle Watch takes
// over 100,000 skills with three sub-folders each (400,000 folders, twice
// this machine's default inotify limit): it reports cpu-percent, the
// process's user and system time over the wall time of 20 idle seconds
// after Watch settled. Writing the skills takes minutes: with
// SKILLKIT_WATCH_TREE set to a folder, they are written there once and
// reused. Run it on its own:
//
//	SKILLKIT_WATCH_TREE=/tmp/watch100k go test ./loader -run XXX -bench WatchIdle100k -benchtime 1x -timeout 60m
func BenchmarkWatchIdle100k(b *testing.B) {
	const skills = 100_000
	root := os.Getenv("SKILLKIT_WATCH_TREE")
	if root == "" {
		root = b.TempDir()
	}
	if _, err := os.Stat(filepath.Join(root, "done")); err != nil {
		if err := testcorpus.Generate(root, skills); err != nil {
			b.Fatal(err)
		}
		for i := range skills {
			d := filepath.Join(root, fmt.Sprintf("group-%03d", i/100), fmt.Sprintf("skill-%05d", i))
			for _, sub := range []string{"scripts", "assets"} {
				if err := os.MkdirAll(filepath.Join(d, sub), 0o755); err != nil {
					b.Fatal(err)
				}
			}
		}
		if err := os.WriteFile(filepath.Join(root, "done"), nil, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	l, err := New(b.Context(), []Source{{Name: "bench", Dir: root}}, nil, &Options{MaxSkills: Unlimited, MaxDirs: Unlimited})
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(b.Context())
	defer cancel()
	go l.Watch(ctx, nil, nil)
	time.Sleep(30 * time.Second) // the watches added, the first rounds done
	cpu := func() time.Duration {
		var ru syscall.Rusage
		if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
			b.Fatal(err)
		}
		return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	for b.Loop() {
		start, before := time.Now(), cpu()
		time.Sleep(20 * time.Second)
		b.ReportMetric(100*float64(cpu()-before)/float64(time.Since(start)), "cpu-percent")
	}
}

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
// after Watch settled. Slow to set up (a minute or two); run it on its own:
//
//	go test ./loader -run XXX -bench WatchIdle100k -benchtime 1x
func BenchmarkWatchIdle100k(b *testing.B) {
	root := b.TempDir()
	const skills = 100_000
	if err := testcorpus.Generate(root, skills); err != nil {
		b.Fatal(err)
	}
	for i := range skills {
		d := filepath.Join(root, fmt.Sprintf("group-%03d", i/100), fmt.Sprintf("skill-%05d", i))
		for _, sub := range []string{"scripts", "assets"} {
			if err := os.Mkdir(filepath.Join(d, sub), 0o755); err != nil {
				b.Fatal(err)
			}
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

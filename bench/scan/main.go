package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
	"strings"
	"time"

	"github.com/skillkit-go/skillkit/internal/testcorpus"
	"github.com/skillkit-go/skillkit/loader"
)

func main() {
	n := flag.Int("n", 10_000, "skills to generate")
	dir := flag.String("dir", "", "scan this folder instead of generating one")
	runs := flag.Int("runs", 5, "runs of each measurement; the fastest is reported")
	profile := flag.String("cpuprofile", "", "write a CPU profile of the timed runs to this file")
	flag.Parse()
	if err := run(*n, *dir, max(1, *runs), *profile); err != nil {
		fmt.Fprintln(os.Stderr, "scan:", err)
		os.Exit(1)
	}
}

// noLimits loads everything, however large the folder.
func noLimits() *loader.Options {
	return &loader.Options{MaxSkills: loader.Unlimited, MaxDirs: loader.Unlimited}
}

func run(n int, dir string, runs int, profile string) error {
	if dir == "" {
		tmp, err := os.MkdirTemp("", "skillkit-scan-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(tmp)
		if err := testcorpus.Generate(tmp, n); err != nil {
			return err
		}
		dir = tmp
	}
	ctx := context.Background()
	sources := []loader.Source{{Name: "bench", Dir: dir}}
	runtime.GC()
	report("before the first scan")
	l, err := loader.New(ctx, sources, nil, noLimits())
	if err != nil {
		return err
	}
	runtime.GC()
	report(fmt.Sprintf("after the first cold scan, %d skills held", l.Snapshot().Len()))

	if profile != "" {
		f, err := os.Create(profile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	base := fastest(runs, func() error {
		_, err := testcorpus.Baseline(os.DirFS(dir))
		return err
	})
	cold := fastest(runs, func() error {
		_, err := loader.New(ctx, sources, nil, noLimits())
		return err
	})
	rescan := fastest(runs, func() error {
		_, err := l.Rescan(ctx)
		return err
	})
	for _, m := range []*measure{base, cold, rescan} {
		if m.err != nil {
			return m.err
		}
	}
	fmt.Printf("on %d CPUs, fastest of %d runs, wall (CPU):\n", runtime.GOMAXPROCS(0), runs)
	fmt.Printf("  baseline (list folders, read SKILL.md): %s\n", base)
	fmt.Printf("  cold scan:                              %s = %.2fx baseline wall, %.2fx CPU\n", cold,
		ratio(cold.wall, base.wall), ratio(cold.cpu, base.cpu))
	fmt.Printf("  rescan, nothing changed:                %s = %.1f%% of cold wall, %.1f%% CPU\n", rescan,
		100*ratio(rescan.wall, cold.wall), 100*ratio(rescan.cpu, cold.cpu))
	runtime.KeepAlive(l)
	return nil
}

type measure struct {
	wall, cpu time.Duration
	err       error
}

func (m *measure) String() string {
	return fmt.Sprintf("%v (%v)", m.wall.Round(10*time.Microsecond), m.cpu.Round(10*time.Microsecond))
}

// fastest runs f runs times and keeps the smallest wall and CPU times.
func fastest(runs int, f func() error) *measure {
	m := &measure{}
	for i := range runs {
		runtime.GC()
		start, cpu := time.Now(), cpuTime()
		if m.err = f(); m.err != nil {
			return m
		}
		wall, used := time.Since(start), cpuTime()-cpu
		if i == 0 || wall < m.wall {
			m.wall = wall
		}
		if i == 0 || used < m.cpu {
			m.cpu = used
		}
	}
	return m
}

func ratio(a, b time.Duration) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// report prints the Go heap in use and the resident set.
func report(when string) {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	fmt.Printf("%s: heap in use %.1f MB, Go runtime total %.1f MB, %s\n", when,
		mb(m.HeapInuse), mb(m.Sys), residentSet())
}

func mb(b uint64) float64 { return float64(b) / (1 << 20) }

// residentSet reads VmRSS and VmHWM (the peak) on Linux.
func residentSet() string {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return "resident set unknown on " + runtime.GOOS
	}
	defer f.Close()
	var parts []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "VmRSS:") || strings.HasPrefix(line, "VmHWM:") {
			parts = append(parts, strings.Join(strings.Fields(line), " "))
		}
	}
	return strings.Join(parts, ", ")
}

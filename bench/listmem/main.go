package main

import (
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/skillkit-go/skillkit/internal/loadavg"
	"github.com/skillkit-go/skillkit/internal/testcorpus"
)

func main() {
	n := flag.Int("n", 100_000, "skills in the folder")
	runs := flag.Int("runs", 3, "runs per binary")
	bins := flag.String("bin", "", "comma-separated binaries to measure; empty builds ./cmd/skillkit")
	tags := flag.String("tags", "", "build tags for building ./cmd/skillkit (lean: the lean build)")
	dir := flag.String("dir", filepath.Join(os.TempDir(), "skillkit-listmem"), "where the generated folders are kept")
	extra := flag.String("args", "", "more arguments for list, space-separated (--json, --tools a)")
	flag.Parse()
	if err := run(*n, max(1, *runs), *bins, *tags, *dir, strings.Fields(*extra)); err != nil {
		fmt.Fprintln(os.Stderr, "listmem:", err)
		os.Exit(1)
	}
}

func run(n, runs int, bins, tags, dir string, extra []string) error {
	skills, err := generated(dir, n)
	if err != nil {
		return err
	}
	var paths []string
	if bins == "" {
		tmp, err := os.MkdirTemp("", "skillkit-listmem-bin-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(tmp)
		bin := filepath.Join(tmp, "skillkit")
		build := exec.Command("go", "build", "-tags", tags, "-o", bin, "./cmd/skillkit")
		build.Stdout, build.Stderr = os.Stderr, os.Stderr
		if err := build.Run(); err != nil {
			return fmt.Errorf("building ./cmd/skillkit (run from the module root): %w", err)
		}
		paths = []string{bin}
	} else {
		paths = strings.Split(bins, ",")
	}
	limit := strconv.Itoa(2 * n)
	args := append([]string{"list", "--max-skills", limit, "--max-dirs", strconv.Itoa(4*n + 1000)}, extra...)
	args = append(args, skills)
	type sample struct{ rss, cpu, wall []float64 }
	samples := make([]sample, len(paths))
	for range runs {
		for i, bin := range paths {
			rss, cpu, wall, err := once(bin, args)
			if err != nil {
				return err
			}
			s := &samples[i]
			s.rss, s.cpu, s.wall = append(s.rss, rss), append(s.cpu, cpu), append(s.wall, wall)
		}
	}
	fmt.Printf("skillkit %s over %d skills, %d runs per binary, %s\n", strings.Join(args[:len(args)-1], " "), n, runs, loadavg.String())
	for i, bin := range paths {
		s := samples[i]
		fmt.Printf("%s\n  peak RSS %s MB, %.0f bytes per skill\n  CPU %s s, wall %s s\n",
			bin, spread(s.rss), median(s.rss)*(1<<20)/float64(n), spread(s.cpu), spread(s.wall))
	}
	return nil
}

// generated returns the folder of n generated skills under dir, writing
// it first when it is not there complete.
func generated(dir string, n int) (string, error) {
	skills := filepath.Join(dir, fmt.Sprintf("skills-%d", n))
	done := filepath.Join(dir, fmt.Sprintf("skills-%d.done", n))
	if _, err := os.Stat(done); err == nil {
		return skills, nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return "", err
	}
	if err := os.RemoveAll(skills); err != nil {
		return "", err
	}
	fmt.Fprintf(os.Stderr, "generating %d skills in %s\n", n, skills)
	if err := testcorpus.Generate(skills, n); err != nil {
		return "", err
	}
	return skills, os.WriteFile(done, nil, 0o644)
}

// once runs "skillkit list" with its output discarded and returns its peak
// resident set size in MB, its CPU time and its wall time in seconds.
func once(bin string, args []string) (rss, cpu, wall float64, err error) {
	cmd := exec.Command(bin, args...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	start := time.Now()
	if err := cmd.Run(); err != nil {
		return 0, 0, 0, fmt.Errorf("%s: %w\n%s", bin, err, stderr.String())
	}
	wall = time.Since(start).Seconds()
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0, 0, 0, errors.New("no resource usage on this system")
	}
	// Linux reports maxrss in kilobytes.
	rss = float64(ru.Maxrss) / 1024
	cpu = (cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()).Seconds()
	return rss, cpu, wall, nil
}

func median(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	if len(s)%2 == 0 {
		return (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
	return s[len(s)/2]
}

// spread formats the median and the range.
func spread(v []float64) string {
	return fmt.Sprintf("median %.1f (%.1f–%.1f)", median(v), slices.Min(v), slices.Max(v))
}

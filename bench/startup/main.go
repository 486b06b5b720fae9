package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/skillkit-go/skillkit/internal/inittrace"
	"github.com/skillkit-go/skillkit/internal/loadavg"
)

func main() {
	runs := flag.Int("n", 20, "runs of the command per binary")
	bins := flag.String("bin", "", "comma-separated binaries to measure; empty builds ./cmd/skillkit")
	tags := flag.String("tags", "", "build tags for building ./cmd/skillkit (lean: the lean build)")
	hello := flag.Bool("hello", false, "also measure a Go hello world built here, and give each binary's ratio to it")
	top := flag.Int("top", 5, "packages listed by initialisation bytes")
	flag.Parse()
	args := flag.Args()
	if len(args) == 0 {
		args = []string{"help"}
	}
	if err := run(max(1, *runs), *bins, *tags, *hello, *top, args); err != nil {
		fmt.Fprintln(os.Stderr, "startup:", err)
		os.Exit(1)
	}
}

func run(runs int, bins, tags string, hello bool, top int, args []string) error {
	dir, err := os.MkdirTemp("", "skillkit-startup-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	var paths []string
	if hello {
		bin, err := buildHello(dir)
		if err != nil {
			return err
		}
		paths = append(paths, bin)
	}
	if bins == "" {
		bin := filepath.Join(dir, "skillkit")
		build := exec.Command("go", "build", "-tags", tags, "-o", bin, "./cmd/skillkit")
		build.Stdout, build.Stderr = os.Stderr, os.Stderr
		if err := build.Run(); err != nil {
			return fmt.Errorf("building ./cmd/skillkit (run from the module root): %w", err)
		}
		paths = append(paths, bin)
	} else {
		paths = append(paths, strings.Split(bins, ",")...)
	}
	wall := make([][]time.Duration, len(paths))
	cpu := make([][]time.Duration, len(paths))
	for range runs {
		for i, bin := range paths {
			w, c, err := once(bin, args, nil)
			if err != nil {
				return err
			}
			wall[i], cpu[i] = append(wall[i], w), append(cpu[i], c)
		}
	}
	fmt.Printf("skillkit %s, %d runs per binary, %s\n", strings.Join(args, " "), runs, loadavg.String())
	for i, bin := range paths {
		var trace bytes.Buffer
		if _, _, err := once(bin, args, &trace); err != nil {
			return err
		}
		pkgs, err := inittrace.Parse(trace.Bytes())
		if err != nil {
			return fmt.Errorf("%s: %w", bin, err)
		}
		sum := inittrace.Sum(pkgs)
		fmt.Printf("%s\n  wall %s, CPU %s\n  init: %d packages, %.2f ms clock, %d bytes, %d allocs\n",
			bin, spread(wall[i]), spread(cpu[i]), len(pkgs), sum.ClockMS, sum.Bytes, sum.Allocs)
		if hello && i > 0 {
			fmt.Printf("  %.2fx the hello world's wall time, %.2fx its CPU time (medians)\n",
				float64(median(wall[i]))/float64(median(wall[0])), float64(median(cpu[i]))/float64(median(cpu[0])))
		}
		for _, p := range inittrace.Costliest(pkgs, top) {
			fmt.Printf("    %-55s %7.2f ms %9d bytes %6d allocs\n", p.Name, p.ClockMS, p.Bytes, p.Allocs)
		}
	}
	return nil
}

// once runs the binary; with trace set it runs it with GODEBUG=inittrace=1
// and keeps its standard error there.
func once(bin string, args []string, trace *bytes.Buffer) (wall, cpu time.Duration, err error) {
	cmd := exec.Command(bin, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if trace != nil {
		cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
		cmd.Stderr = trace
	}
	start := time.Now()
	err = cmd.Run()
	wall = time.Since(start)
	if err != nil {
		var exit *exec.ExitError
		if !errors.As(err, &exit) || trace != nil {
			return 0, 0, fmt.Errorf("%s: %w\n%s", bin, err, stderr.Bytes())
		}
		// A command that exits non-zero on purpose (a usage error) still
		// started; its time counts.
	}
	return wall, cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime(), nil
}

// median is the middle of the durations.
func median(d []time.Duration) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	if len(s)%2 == 0 {
		return (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
	return s[len(s)/2]
}

// spread formats the median and the range.
func spread(d []time.Duration) string {
	r := func(d time.Duration) string { return fmt.Sprintf("%.2f", float64(d)/float64(time.Millisecond)) }
	return fmt.Sprintf("median %s ms (%s–%s)", r(median(d)), r(slices.Min(d)), r(slices.Max(d)))
}

// buildHello builds, in dir, the program every Go program's start is
// measured against: one that prints a line with fmt.
func buildHello(dir string) (string, error) {
	src := filepath.Join(dir, "hello")
	if err := os.MkdirAll(src, 0o755); err != nil {
		return "", err
	}
	files := map[string]string{
		"go.mod":  "module hello\n",
		"main.go": "package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(\"hello, world\") }\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(src, name), []byte(text), 0o644); err != nil {
			return "", err
		}
	}
	bin := filepath.Join(dir, "hello-world")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Dir = src
	build.Env = append(os.Environ(), "GOWORK=off")
	if out, err := build.CombinedOutput(); err != nil {
		return "", fmt.Errorf("building the hello world: %w\n%s", err, out)
	}
	return bin, nil
}

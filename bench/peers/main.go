package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"runtime"
	"slices"
	"time"

	"github.com/skillkit-go/skillkit/loader"
	"github.com/skillkit-go/skillkit/prompt"
)

func main() {
	op := flag.String("op", "validate", "validate or catalog")
	dir := flag.String("dir", "", "the folder of skills")
	n := flag.Int("n", 0, "catalog: the first n skills by name (0: all)")
	lenient := flag.Bool("lenient", false, "validate: without Strict")
	runs := flag.Int("runs", 15, "timed runs, at least")
	least := flag.Duration("min", time.Second, "CPU time of timed runs, at least")
	flag.Parse()
	if err := run(*op, *dir, *n, *lenient, *runs, *least); err != nil {
		fmt.Fprintln(os.Stderr, "peers:", err)
		os.Exit(1)
	}
}

func run(op, dir string, n int, lenient bool, runs int, least time.Duration) error {
	if dir == "" {
		return errors.New("-dir is required")
	}
	ctx := context.Background()
	src := loader.Source{Name: "bench", Dir: dir}
	opts := &loader.Options{MaxSkills: loader.Unlimited, MaxDirs: loader.Unlimited}
	var once func() error
	switch op {
	case "validate":
		opts.NestedSkills, opts.Strict = true, !lenient
		once = func() error {
			found, _, _ := loader.LoadAll(ctx, src, opts)
			if len(found) == 0 {
				return fmt.Errorf("no skill folder in %s", dir)
			}
			return nil
		}
	case "catalog":
		l, err := loader.New(ctx, []loader.Source{src}, nil, opts)
		if err != nil {
			return err
		}
		skills := l.Snapshot().Skills()
		if n > 0 {
			if n > len(skills) {
				return fmt.Errorf("%d skills in %s, fewer than %d", len(skills), dir, n)
			}
			skills = skills[:n]
		}
		copts := &prompt.Options{Format: prompt.FormatAgentSkills, MaxChars: math.MaxInt}
		once = func() error {
			if res := prompt.Catalog(skills, copts); len(res.Listed) != len(skills) {
				return fmt.Errorf("the catalog lists %d of %d skills", len(res.Listed), len(skills))
			}
			return nil
		}
	default:
		return fmt.Errorf("unknown -op %q", op)
	}
	if _, err := measure(once, runs, least); err != nil { // warm-up
		return err
	}
	med, err := measure(once, runs, least)
	if err != nil {
		return err
	}
	fmt.Printf("%d\n", med.Nanoseconds())
	return nil
}

// measure runs once until both runs runs and least CPU time are done, each
// after an untimed collection, and returns the median CPU time of a run.
func measure(once func() error, runs int, least time.Duration) (time.Duration, error) {
	var times []time.Duration
	var total time.Duration
	for len(times) < runs || total < least {
		runtime.GC()
		before := cpuTime()
		if err := once(); err != nil {
			return 0, err
		}
		d := cpuTime() - before
		times = append(times, d)
		total += d
	}
	slices.Sort(times)
	return times[len(times)/2], nil
}

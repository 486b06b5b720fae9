// Command scan10k measures a cold scan of many generated skills in a fresh
// process: wall and CPU time (user + system, which a busy machine inflates
// less than wall time), Go heap, and the process's resident memory (Linux:
// VmRSS and its peak VmHWM from /proc/self/status). It generates the skills
// first (unless -dir names a folder that holds them), so the peak includes
// that phase; the generator keeps nothing, which the "before" line shows.
//
//	go run ./bench/scan10k            # 10,000 skills in a temporary folder
//	go run ./bench/scan10k -n 20000
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/skillkit-go/skillkit/internal/testcorpus"
	"github.com/skillkit-go/skillkit/loader"
)

func main() {
	n := flag.Int("n", 10_000, "skills to generate")
	dir := flag.String("dir", "", "scan this folder instead of generating one")
	flag.Parse()
	if err := run(*n, *dir); err != nil {
		fmt.Fprintln(os.Stderr, "scan10k:", err)
		os.Exit(1)
	}
}

func run(n int, dir string) error {
	if dir == "" {
		tmp, err := os.MkdirTemp("", "skillkit-scan10k-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(tmp)
		if err := testcorpus.Generate(tmp, n); err != nil {
			return err
		}
		dir = tmp
	}
	runtime.GC()
	report("before scan")
	ctx := context.Background()
	opts := &loader.Options{MaxSkills: loader.Unlimited, MaxDirs: loader.Unlimited}
	start, cpu := time.Now(), cpuTime()
	l, err := loader.New(ctx, []loader.Source{{Name: "bench", Dir: dir}}, opts)
	if err != nil {
		return err
	}
	cold, coldCPU := time.Since(start), cpuTime()-cpu
	start, cpu = time.Now(), cpuTime()
	if _, err := l.Rescan(ctx); err != nil {
		return err
	}
	rescan, rescanCPU := time.Since(start), cpuTime()-cpu
	ms := func(d time.Duration) string { return d.Round(time.Millisecond).String() }
	fmt.Printf("skills %d on %d CPUs: cold scan %s (CPU %s), rescan unchanged %s (CPU %s)\n", l.Snapshot().Len(),
		runtime.GOMAXPROCS(0), ms(cold), ms(coldCPU), ms(rescan), ms(rescanCPU))
	runtime.GC()
	report("after scan, snapshot held")
	runtime.KeepAlive(l)
	return nil
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

package testcorpus

import (
	"archive/zip"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/skillkit-go/skillkit/skill"
)

// EnvVar names the corpus folder.
const EnvVar = "SKILLKIT_CORPUS"

// Dir returns the corpus folder, skipping the test when EnvVar is unset and
// failing it when the folder does not exist.
func Dir(tb testing.TB) string {
	tb.Helper()
	dir := os.Getenv(EnvVar)
	if dir == "" {
		tb.Skipf("%s is not set; run .ci/run or set it to ../shared/corpus", EnvVar)
	}
	abs := dir
	if !filepath.IsAbs(dir) {
		abs = filepath.Join(moduleRoot(tb), dir)
	}
	st, err := os.Stat(abs)
	if err != nil || !st.IsDir() {
		tb.Fatalf("%s=%q is set but is not a folder: %v", EnvVar, dir, err)
	}
	return abs
}

// moduleRoot finds the folder holding go.mod above the working directory, so
// a relative SKILLKIT_CORPUS means the same from every package.
func moduleRoot(tb testing.TB) string {
	dir, err := os.Getwd()
	if err != nil {
		tb.Fatal(err)
	}
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d
		}
		if filepath.Dir(d) == d {
			return dir
		}
	}
}

// SkillDirs returns every folder of the corpus holding a SKILL.md, as slash
// paths relative to Dir, sorted.
func SkillDirs(tb testing.TB) (root string, dirs []string) {
	tb.Helper()
	root = Dir(tb)
	err := fs.WalkDir(os.DirFS(root), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && p != "." && d.Name()[0] == '_' {
			return fs.SkipDir
		}
		if !d.IsDir() && d.Name() == "SKILL.md" {
			dirs = append(dirs, filepath.ToSlash(filepath.Dir(p)))
		}
		return nil
	})
	if err != nil {
		tb.Fatalf("walking the corpus: %v", err)
	}
	if len(dirs) == 0 {
		tb.Fatalf("the corpus at %s holds no SKILL.md", root)
	}
	slices.Sort(dirs)
	return root, dirs
}

// Generate writes n small skills under dir, 100 per group folder
// (group-000/skill-00000/...), each with a SKILL.md and one reference file:
// the shape of a large user folder, for benchmarks.
func Generate(dir string, n int) error {
	for i := range n {
		name := fmt.Sprintf("skill-%05d", i)
		d := filepath.Join(dir, fmt.Sprintf("group-%03d", i/100), name)
		if err := os.MkdirAll(filepath.Join(d, "references"), 0o755); err != nil {
			return err
		}
		md := fmt.Sprintf("---\nname: %s\ndescription: Generated skill number %d, for benchmarks. Use it when a benchmark asks.\nmetadata:\n  tags: [bench, generated]\n---\n# %s\n\nDo the thing.\n", name, i, name)
		if err := os.WriteFile(filepath.Join(d, "SKILL.md"), []byte(md), 0o644); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(d, "references", "guide.md"), []byte("guide\n"), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// ThousandFileZip writes, at path, a ZIP archive of a skill of 1,000 text
// files (0.5 to 8 KB each, about 4.3 MB, 1.3 MB deflated) in 80 nested
// folders, one in ten executable: the archive the extraction and install
// benchmarks compare with unzip. skillMD is its SKILL.md. The contents are
// the same on every call.
func ThousandFileZip(path, skillMD string) error {
	words := strings.Fields("the skill reads a file and writes a report with tables charts and notes for each step of the task when asked by the user")
	rng := rand.New(rand.NewPCG(7, 7))
	text := func(n int) string {
		var sb strings.Builder
		for sb.Len() < n {
			sb.WriteString(words[rng.IntN(len(words))])
			sb.WriteByte(" \n"[rng.IntN(12)/11])
		}
		return sb.String()
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	w := zip.NewWriter(f)
	add := func(p string, body string, mode os.FileMode) error {
		fh := &zip.FileHeader{Name: p, Method: zip.Deflate}
		fh.SetMode(mode)
		fw, err := w.CreateHeader(fh)
		if err != nil {
			return err
		}
		_, err = fw.Write([]byte(body))
		return err
	}
	if err := add("SKILL.md", skillMD, 0o644); err != nil {
		return err
	}
	for i := 1; i < 1000; i++ {
		var p string
		mode := os.FileMode(0o644)
		switch i % 10 {
		case 0, 1, 2, 3:
			p = fmt.Sprintf("references/topic-%02d/note-%04d.md", i%20, i)
		case 4:
			p, mode = fmt.Sprintf("scripts/tool_%04d.py", i), 0o755
		case 5, 6, 7:
			p = fmt.Sprintf("assets/data/set-%d/table-%04d.csv", i%5, i)
		default:
			p = fmt.Sprintf("examples/case-%03d/input-%04d.json", i%50, i)
		}
		if err := add(p, text(512+rng.IntN(7680)), mode); err != nil {
			return err
		}
	}
	if err := w.Close(); err != nil {
		return err
	}
	return f.Close()
}

// Side is one of the two things a [Compare] benchmark times.
type Side struct {
	Name   string
	Before func() error // untimed, before each run (may be nil)
	Run    func() error // timed
	After  func() error // untimed, after each run (may be nil)
}

// Compare times skillkit's side against a reference (unzip, sha256sum) in
// every iteration of b, alternating which goes first so that load from
// other processes falls on both alike, and reports the mean milliseconds
// of each as "NAME-ms/op" and their ratio (ours over the reference) as
// "ratio".
func Compare(b *testing.B, ours, ref Side) {
	b.Helper()
	times := alternate(b, ours, ref, func(s Side) (time.Duration, error) {
		start := time.Now()
		err := s.Run()
		return time.Since(start), err
	})
	spent := map[string]time.Duration{}
	for _, s := range []Side{ours, ref} {
		for _, t := range times[s.Name] {
			spent[s.Name] += t
		}
		b.ReportMetric(float64(spent[s.Name].Microseconds())/1e3/float64(len(times[s.Name])), s.Name+"-ms/op")
	}
	b.ReportMetric(float64(spent[ours.Name])/float64(spent[ref.Name]), "ratio")
}

// CompareCPU is [Compare] in CPU time (user + system): each iteration
// runs both sides, alternating which goes first, and the benchmark reports
// the median CPU time of each as "NAME-cpu-ms/op" and the ratio of the
// medians (ours over the reference) as "cpu-ratio". A side's CPU time is
// what its cpu function returns after Run (the CPU time of a child process
// Run waited for), or, when cpu is nil, this process's own around Run.
func CompareCPU(b *testing.B, ours, ref Side, oursCPU, refCPU func() time.Duration) {
	b.Helper()
	cpus := map[string]func() time.Duration{ours.Name: oursCPU, ref.Name: refCPU}
	times := alternate(b, ours, ref, func(s Side) (time.Duration, error) {
		before := ProcessCPU()
		err := s.Run()
		used := ProcessCPU() - before
		if cpu := cpus[s.Name]; cpu != nil && err == nil {
			used = cpu()
		}
		return used, err
	})
	med := map[string]time.Duration{}
	for _, s := range []Side{ours, ref} {
		t := times[s.Name]
		slices.Sort(t)
		med[s.Name] = t[len(t)/2]
		b.ReportMetric(float64(med[s.Name].Microseconds())/1e3, s.Name+"-cpu-ms/op")
	}
	if med[ref.Name] > 0 {
		b.ReportMetric(float64(med[ours.Name])/float64(med[ref.Name]), "cpu-ratio")
	}
}

// alternate runs both sides in every iteration of b, the first of each
// pair alternating, with each side's Before and After untimed, and returns
// what measure said of each run, by side name.
func alternate(b *testing.B, ours, ref Side, measure func(Side) (time.Duration, error)) map[string][]time.Duration {
	b.Helper()
	step := func(f func() error) {
		if f == nil {
			return
		}
		b.StopTimer()
		defer b.StartTimer()
		if err := f(); err != nil {
			b.Fatal(err)
		}
	}
	times := map[string][]time.Duration{}
	for n := 0; b.Loop(); n++ {
		order := []Side{ours, ref}
		if n%2 == 1 {
			order[0], order[1] = ref, ours
		}
		for _, s := range order {
			step(s.Before)
			t, err := measure(s)
			if err != nil {
				b.Fatalf("%s: %v", s.Name, err)
			}
			times[s.Name] = append(times[s.Name], t)
			step(s.After)
		}
	}
	return times
}

// Baseline is the floor a skill scan is measured against: it lists every
// folder under fsys (skipping dot folders and infra folders, as discovery
// does) and reads every SKILL.md, nothing else. It returns how many it read.
func Baseline(fsys fs.FS) (int, error) {
	n := 0
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && p != "." && (d.Name()[0] == '.' || skill.IsInfraDir(d.Name())) {
			return fs.SkipDir
		}
		if !d.IsDir() && d.Name() == "SKILL.md" {
			if _, err := fs.ReadFile(fsys, p); err != nil {
				return err
			}
			n++
		}
		return nil
	})
	return n, err
}

// LiveHeap returns the bytes of live heap: the smallest HeapAlloc of a few
// readings, each right after a full collection, so that what another
// goroutine allocated between a collection and its reading does not count.
// Tests of what a structure retains compare two readings, with the
// structure kept alive (runtime.KeepAlive) past the second.
func LiveHeap() uint64 {
	var least uint64
	for i := range 3 {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		if i == 0 || ms.HeapAlloc < least {
			least = ms.HeapAlloc
		}
	}
	return least
}

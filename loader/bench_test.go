package loader_test

import (
	"os"
	"sync"
	"testing"

	"github.com/skillkit-go/skillkit/internal/testcorpus"
	"github.com/skillkit-go/skillkit/loader"
)

// noLimits lets a benchmark load every skill of a big tree.
func noLimits() *loader.Options {
	return &loader.Options{MaxSkills: loader.Unlimited, MaxDirs: loader.Unlimited}
}

// BenchmarkBaselineCorpus is the floor a scan is measured against: list
// every folder of the corpus (skipping what discovery skips) and read every
// SKILL.md, nothing else.
func BenchmarkBaselineCorpus(b *testing.B) {
	fsys := os.DirFS(testcorpus.Dir(b))
	for b.Loop() {
		if n, err := testcorpus.Baseline(fsys); err != nil || n < 250 {
			b.Fatal(n, err)
		}
	}
}

// BenchmarkColdScanCorpus loads every corpus skill through a new Loader.
func BenchmarkColdScanCorpus(b *testing.B) {
	root := testcorpus.Dir(b)
	b.ReportAllocs()
	for b.Loop() {
		l, err := loader.New(b.Context(), []loader.Source{{Name: "corpus", Dir: root}}, nil, noLimits())
		if err != nil || l.Snapshot().Len() < 250 {
			b.Fatal(err)
		}
	}
}

// BenchmarkRescanCorpusUnchanged rescans the corpus when nothing changed.
func BenchmarkRescanCorpusUnchanged(b *testing.B) {
	root := testcorpus.Dir(b)
	l, err := loader.New(b.Context(), []loader.Source{{Name: "corpus", Dir: root}}, nil, noLimits())
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		ch, err := l.Rescan(b.Context())
		if err != nil || !ch.Empty() {
			b.Fatal(ch, err)
		}
	}
}

// generated10k makes 10,000 generated skills the first time a benchmark
// asks; TestMain removes them.
var generated10k tenK

type tenK struct {
	once sync.Once
	dir  string
	err  error
}

func (g *tenK) get() (string, error) {
	g.once.Do(func() {
		g.dir, g.err = os.MkdirTemp("", "skillkit-10k-")
		if g.err == nil {
			g.err = testcorpus.Generate(g.dir, 10_000)
		}
	})
	return g.dir, g.err
}

// BenchmarkColdScan10k loads 10,000 generated skills.
func BenchmarkColdScan10k(b *testing.B) {
	dir, err := generated10k.get()
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		l, err := loader.New(b.Context(), []loader.Source{{Name: "bench", Dir: dir}}, nil, noLimits())
		if err != nil || l.Snapshot().Len() != 10_000 {
			b.Fatal(err, l.Snapshot().Diagnostics())
		}
	}
}

// BenchmarkRescan10kUnchanged rescans 10,000 unchanged skills.
func BenchmarkRescan10kUnchanged(b *testing.B) {
	dir, err := generated10k.get()
	if err != nil {
		b.Fatal(err)
	}
	l, err := loader.New(b.Context(), []loader.Source{{Name: "bench", Dir: dir}}, nil, noLimits())
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if ch, err := l.Rescan(b.Context()); err != nil || !ch.Empty() {
			b.Fatal(ch, err)
		}
	}
}

// BenchmarkRetained10k reports the live heap a loader of 10,000 generated
// skills holds, per skill: with the state rescans reuse, and one-shot
// (Options.OneShot, what the command line's list and prompt use).
func BenchmarkRetained10k(b *testing.B) {
	dir, err := generated10k.get()
	if err != nil {
		b.Fatal(err)
	}
	for _, oneShot := range []bool{false, true} {
		name := "rescannable"
		if oneShot {
			name = "one-shot"
		}
		b.Run(name, func(b *testing.B) {
			opts := noLimits()
			opts.OneShot = oneShot
			var perSkill float64
			for b.Loop() {
				perSkill = retainedPerSkill(b, dir, 10_000, opts)
			}
			b.ReportMetric(perSkill, "retained-B/skill")
		})
	}
}

func TestMain(m *testing.M) {
	code := m.Run()
	if generated10k.dir != "" {
		os.RemoveAll(generated10k.dir)
	}
	os.Exit(code)
}

// BenchmarkLoadAllCorpusStrict is `skillkit validate --strict` of the
// corpus without printing: every folder found, nested skills included,
// loaded strictly from discovery's listings.
func BenchmarkLoadAllCorpusStrict(b *testing.B) {
	root := testcorpus.Dir(b)
	opts := noLimits()
	opts.NestedSkills, opts.Strict = true, true
	b.ReportAllocs()
	for b.Loop() {
		_, skills, _ := loader.LoadAll(b.Context(), loader.Source{Name: "corpus", Dir: root}, opts)
		if len(skills) < 250 {
			b.Fatal(len(skills))
		}
	}
}

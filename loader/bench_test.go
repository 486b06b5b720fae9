package loader_test

import (
	"io/fs"
	"os"
	"slices"
	"sync"
	"testing"

	"github.com/skillkit-go/skillkit/internal/testcorpus"
	"github.com/skillkit-go/skillkit/loader"
	"github.com/skillkit-go/skillkit/skill"
)

// noLimits lets a benchmark load every skill of a big tree.
var noLimits = loader.Options{MaxSkills: loader.Unlimited, MaxDirs: loader.Unlimited}

// BenchmarkBaselineCorpus is the floor a scan is measured against: list
// every folder of the corpus (skipping what discovery skips) and read every
// SKILL.md, nothing else.
func BenchmarkBaselineCorpus(b *testing.B) {
	root := testcorpus.Dir(b)
	fsys := os.DirFS(root)
	for b.Loop() {
		n := 0
		fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && p != "." && (d.Name()[0] == '.' || slices.Contains(skill.InfraDirs, d.Name())) {
				return fs.SkipDir
			}
			if !d.IsDir() && d.Name() == skill.SkillFile {
				if _, err := fs.ReadFile(fsys, p); err != nil {
					b.Fatal(err)
				}
				n++
			}
			return nil
		})
		if n < 250 {
			b.Fatalf("read %d SKILL.md", n)
		}
	}
}

// BenchmarkColdScanCorpus loads every corpus skill through a new Loader.
func BenchmarkColdScanCorpus(b *testing.B) {
	root := testcorpus.Dir(b)
	b.ReportAllocs()
	for b.Loop() {
		l, err := loader.New(b.Context(), []loader.Source{{Name: "corpus", Dir: root}}, &noLimits)
		if err != nil || l.Snapshot().Len() < 250 {
			b.Fatal(err)
		}
	}
}

// BenchmarkRescanCorpusUnchanged rescans the corpus when nothing changed.
func BenchmarkRescanCorpusUnchanged(b *testing.B) {
	root := testcorpus.Dir(b)
	l, err := loader.New(b.Context(), []loader.Source{{Name: "corpus", Dir: root}}, &noLimits)
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

// generated10k holds 10,000 generated skills, made once per test binary.
var generated10k = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "skillkit-10k-")
	if err != nil {
		return "", err
	}
	return dir, testcorpus.Generate(dir, 10_000)
})

// BenchmarkColdScan10k loads 10,000 generated skills.
func BenchmarkColdScan10k(b *testing.B) {
	dir, err := generated10k()
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { os.RemoveAll(dir) })
	b.ReportAllocs()
	for b.Loop() {
		l, err := loader.New(b.Context(), []loader.Source{{Name: "bench", Dir: dir}}, &noLimits)
		if err != nil || l.Snapshot().Len() != 10_000 {
			b.Fatal(err, l.Snapshot().Diagnostics())
		}
	}
}

// BenchmarkRescan10kUnchanged rescans 10,000 unchanged skills.
func BenchmarkRescan10kUnchanged(b *testing.B) {
	dir, err := generated10k()
	if err != nil {
		b.Fatal(err)
	}
	l, err := loader.New(b.Context(), []loader.Source{{Name: "bench", Dir: dir}}, &noLimits)
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

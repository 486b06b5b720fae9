package skill_test

import (
	"io/fs"
	"os"
	"path"
	"testing"

	"github.com/skillkit-go/skillkit/internal/testcorpus"
	"github.com/skillkit-go/skillkit/skill"
)

// BenchmarkParseCorpus parses every corpus SKILL.md from memory.
func BenchmarkParseCorpus(b *testing.B) {
	root, dirs := testcorpus.SkillDirs(b)
	files := make([][]byte, len(dirs))
	for i, dir := range dirs {
		data, err := fs.ReadFile(os.DirFS(root), path.Join(dir, "SKILL.md"))
		if err != nil {
			b.Fatal(err)
		}
		files[i] = data
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		for _, data := range files {
			if doc, _ := skill.Parse(data, nil); doc == nil {
				b.Fatal("not parsed")
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(files)), "ns/skill")
}

// BenchmarkLoadCorpus loads every corpus skill from disk: SKILL.md, the
// config lookup and the file listing.
func BenchmarkLoadCorpus(b *testing.B) {
	root, dirs := testcorpus.SkillDirs(b)
	fsys := os.DirFS(root)
	b.ReportAllocs()
	for b.Loop() {
		for _, dir := range dirs {
			if s, _ := skill.Load(fsys, dir, nil); s == nil {
				b.Fatal("not loaded")
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(dirs)), "ns/skill")
}

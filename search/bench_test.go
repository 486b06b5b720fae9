package search

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/skillkit-go/skillkit/internal/testcorpus"
	"github.com/skillkit-go/skillkit/skill"
)

// corpusGen makes skills whose words follow a Zipf law over a vocabulary
// of made-up words, as real text does: a few words in most skills, most
// words in few. Each skill has a name of two words, a description of
// 20 to 40 words, three tags and a body of about 1,500 bytes.
type corpusGen struct {
	vocab []string
	zipf  *rand.Zipf
	rng   *rand.Rand
}

func newGen(seed uint64) *corpusGen {
	rng := rand.New(rand.NewPCG(seed, 1))
	syll := []string{"ka", "lo", "mi", "tre", "vos", "pan", "dor", "ex", "ul", "zen", "qui", "ra", "sto", "fen", "gal", "hu", "bri", "nok"}
	seen := map[string]bool{}
	var vocab []string
	for len(vocab) < 30000 {
		n := 2 + rng.IntN(3)
		var b strings.Builder
		for range n {
			b.WriteString(syll[rng.IntN(len(syll))])
		}
		if w := b.String(); !seen[w] && !stopWords[w] {
			seen[w] = true
			vocab = append(vocab, w)
		}
	}
	return &corpusGen{vocab: vocab, zipf: rand.NewZipf(rng, 1.1, 2, uint64(len(vocab)-1)), rng: rng}
}

func (g *corpusGen) words(n int) string {
	ws := make([]string, n)
	for i := range ws {
		ws[i] = g.vocab[g.zipf.Uint64()]
	}
	return strings.Join(ws, " ")
}

func (g *corpusGen) skill(tb testing.TB, i int, variant string) *skill.Skill {
	name := fmt.Sprintf("%s-%s-%d", g.vocab[g.rng.IntN(len(g.vocab))], g.vocab[g.rng.IntN(len(g.vocab))], i)
	desc := g.words(20+g.rng.IntN(21)) + variant
	md := fmt.Sprintf("---\nname: %s\ndescription: %s\ntags: [%s]\n---\n", name, desc, strings.ReplaceAll(g.words(3), " ", ", "))
	for len(md) < 1900 {
		md += g.words(12) + ".\n"
	}
	fsys := fstest.MapFS{name + "/SKILL.md": {Data: []byte(md)}}
	s, diags := skill.Load(fsys, name, nil)
	if s == nil {
		tb.Fatalf("generated skill %d: %v", i, diags)
	}
	return s
}

func (g *corpusGen) skills(tb testing.TB, n int) []*skill.Skill {
	out := make([]*skill.Skill, n)
	for i := range out {
		out[i] = g.skill(tb, i, "")
	}
	return out
}

// query is what a user might type about skill s: a few of its description's
// words, and a common word or two.
func (g *corpusGen) query(s *skill.Skill) string {
	ws := strings.Fields(s.Description)
	k := 2 + g.rng.IntN(3)
	var q []string
	for range k {
		q = append(q, ws[g.rng.IntN(len(ws))])
	}
	return strings.Join(q, " ") + " " + g.words(1+g.rng.IntN(2))
}

var benchSizes = []int{1_000, 10_000, 100_000}

// skillSets caches the generated skills per size across benchmarks.
var skillSets = map[int][]*skill.Skill{}

func skillsOf(b *testing.B, n int) []*skill.Skill {
	if s, ok := skillSets[n]; ok {
		return s
	}
	s := newGen(uint64(n)).skills(b, n)
	// Sorted by name, as a loader snapshot gives them.
	slices.SortFunc(s, func(a, b *skill.Skill) int { return strings.Compare(a.Name, b.Name) })
	skillSets[n] = s
	return s
}

// BenchmarkIndexBuild builds an index of n generated skills (each body's
// first 1,500 bytes read from its file system) and reports what the index
// adds to the live heap.
func BenchmarkIndexBuild(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			skills := skillsOf(b, n)
			var ix *Index
			startCPU := processCPU()
			for b.Loop() {
				ix = New(nil)
				if _, err := ix.Sync(skills); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			b.ReportMetric((processCPU()-startCPU).Seconds()/float64(b.N), "cpu-s/op")
			ix2 := New(nil)
			before := testcorpus.LiveHeap()
			ix2.Sync(skills)
			after := testcorpus.LiveHeap()
			runtime.KeepAlive(ix2)
			runtime.KeepAlive(ix)
			b.ReportMetric(float64(after-before)/(1<<20), "index-MB")
		})
	}
}

// BenchmarkQuery runs queries a user might type against an index of n
// skills, each with a limit of 5, and reports the 50th and 99th percentile
// of one query's time besides the mean.
func BenchmarkQuery(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			skills := skillsOf(b, n)
			ix := New(nil)
			ix.Sync(skills)
			g := newGen(7)
			queries := make([]string, 1000)
			for i := range queries {
				queries[i] = g.query(skills[g.rng.IntN(len(skills))])
			}
			// On a shared machine wall time measures the queue as well;
			// the thread's CPU time measures the query.
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			var wall, cpu []time.Duration
			i := 0
			for b.Loop() {
				start, startCPU := time.Now(), threadCPU()
				ix.Search(queries[i%len(queries)], 5, nil)
				cpu = append(cpu, threadCPU()-startCPU)
				wall = append(wall, time.Since(start))
				i++
			}
			for _, m := range []struct {
				unit string
				d    []time.Duration
			}{{"wall", wall}, {"cpu", cpu}} {
				slices.Sort(m.d)
				b.ReportMetric(float64(m.d[len(m.d)/2].Microseconds()), m.unit+"-p50-µs")
				b.ReportMetric(float64(m.d[len(m.d)*99/100].Microseconds()), m.unit+"-p99-µs")
			}
		})
	}
}

// BenchmarkUpdateOne syncs an index of n skills after one skill changed
// (a new *skill.Skill, as a rescan makes) and reports the cost as a share
// of a full build.
func BenchmarkUpdateOne(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			skills := slices.Clone(skillsOf(b, n))
			start := processCPU()
			ix := New(nil)
			ix.Sync(skills)
			build := processCPU() - start
			g := newGen(9)
			variants := make([]*skill.Skill, 64)
			for i := range variants {
				variants[i] = g.skill(b, 0, fmt.Sprintf(" edit %d", i))
				variants[i].Name = skills[0].Name
			}
			i := 0
			startCPU := processCPU()
			for b.Loop() {
				skills[0] = variants[i%len(variants)]
				st, err := ix.Sync(skills)
				if err != nil || st.Updated != 1 {
					b.Fatalf("%+v %v", st, err)
				}
				i++
			}
			perOp := (processCPU() - startCPU) / time.Duration(b.N)
			b.ReportMetric(100*float64(perOp)/float64(build), "%-of-build-cpu")
		})
	}
}

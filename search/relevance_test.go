package search

import (
	"bufio"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/skillkit-go/skillkit/internal/testcorpus"
	"github.com/skillkit-go/skillkit/skill"
)

// minTop3 is the share of the relevance queries whose expected skill must
// rank in the top 3 (issue 32).
const minTop3 = 0.80

type relevanceQuery struct {
	query string
	want  []string
}

func readQueries(t testing.TB) []relevanceQuery {
	f, err := os.Open("testdata/queries.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []relevanceQuery
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		q, want, ok := strings.Cut(line, "\t")
		if !ok {
			t.Fatalf("queries.tsv: no tab in %q", line)
		}
		out = append(out, relevanceQuery{q, strings.Split(want, ",")})
	}
	return out
}

// corpusIndex loads every skill of the corpus and indexes it.
func corpusIndex(t testing.TB) (*Index, map[string]bool) {
	root, dirs := testcorpus.SkillDirs(t)
	fsys := os.DirFS(root)
	var skills []*skill.Skill
	names := map[string]bool{}
	for _, d := range dirs {
		if s, _ := skill.Load(fsys, d, nil); s != nil {
			skills = append(skills, s)
			names[s.Name] = true
		}
	}
	ix := New(nil)
	if _, err := ix.Sync(skills); err != nil {
		t.Fatal(err)
	}
	return ix, names
}

// TestRelevance runs the queries of testdata/queries.tsv against the
// corpus and requires the expected skill in the top 3 for at least 80% of
// them; the misses are logged.
func TestRelevance(t *testing.T) {
	ix, names := corpusIndex(t)
	queries := readQueries(t)
	hits, first := 0, 0
	for _, q := range queries {
		for _, w := range q.want {
			if !names[w] {
				t.Errorf("queries.tsv expects %q, which the corpus does not hold", w)
			}
		}
		var got []string
		for _, h := range ix.Search(q.query, 3, nil) {
			got = append(got, h.Name)
		}
		if slices.ContainsFunc(got, func(n string) bool { return slices.Contains(q.want, n) }) {
			hits++
			if slices.Contains(q.want, got[0]) {
				first++
			}
		} else {
			t.Logf("miss: %q: got %v, want one of %v", q.query, got, q.want)
		}
	}
	rate := float64(hits) / float64(len(queries))
	t.Logf("top-3 hit rate: %d of %d (%.1f%%); first: %d", hits, len(queries), 100*rate, first)
	if rate < minTop3 {
		t.Errorf("top-3 hit rate %.1f%%, want at least %.0f%%", 100*rate, 100*minTop3)
	}
}

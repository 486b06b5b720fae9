package search

import (
	"fmt"
	"slices"
	"testing"
	"testing/fstest"

	"github.com/skillkit-go/skillkit/skill"
)

// load loads one skill from a SKILL.md text, as the loader would.
func load(t testing.TB, name, desc, body string) *skill.Skill {
	t.Helper()
	fsys := fstest.MapFS{name + "/SKILL.md": {Data: []byte("---\nname: " + name + "\ndescription: " + desc + "\n---\n" + body + "\n")}}
	s, diags := skill.Load(fsys, name, nil)
	if s == nil {
		t.Fatalf("loading %s: %v", name, diags)
	}
	return s
}

func names(hits []Hit) []string {
	out := []string{}
	for _, h := range hits {
		out = append(out, h.Name)
	}
	return out
}

func sample(t testing.TB) []*skill.Skill {
	return []*skill.Skill{
		load(t, "pdf", "Extract text and tables from PDF files, fill PDF forms, merge and split documents.", "# PDF\nUse pypdf to read pages."),
		load(t, "image-convert", "Convert images between PNG, JPEG and WebP; resize and crop pictures.", "# Images\nRuns ImageMagick."),
		load(t, "slack-gif", "Create animated GIFs sized for Slack emoji and messages.", "# GIF\nFrames, palettes."),
		load(t, "ocr-zh", "识别图片中的中文文字（OCR），输出纯文本。", "# 中文 OCR\n支持扫描件和截图。"),
		load(t, "git-release", "Tag a release, write the changelog and push the tag to the remote.", "# Release\nSemantic versions."),
		load(t, "webapp-testing", "Test local web applications with Playwright: click through pages and take screenshots.", "# Testing\nA headless browser."),
	}
}

func TestSearchRanksByTask(t *testing.T) {
	ix := New(nil)
	if _, err := ix.Sync(sample(t)); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ query, want string }{
		{"merge two PDFs into one document", "pdf"},
		{"resize a picture and save it as jpeg", "image-convert"},
		{"make an animated gif for slack", "slack-gif"},
		{"把截图里的文字识别出来", "ocr-zh"},
		{"publish a new version with release notes", "git-release"},
		{"take screenshots of my web app in a browser", "webapp-testing"},
	} {
		hits := ix.Search(tc.query, 3, nil)
		if len(hits) == 0 || hits[0].Name != tc.want {
			t.Errorf("Search(%q) = %v, want %s first", tc.query, names(hits), tc.want)
		}
	}
	if hits := ix.Search("the of and", 5, nil); len(hits) != 0 {
		t.Errorf("a query of stop words found %v", names(hits))
	}
	if hits := ix.Search("kubernetes", 5, nil); len(hits) != 0 {
		t.Errorf("a word no skill holds found %v", names(hits))
	}
}

func TestSearchReadsTheBodyStart(t *testing.T) {
	ix := New(nil)
	long := load(t, "deep", "A generic helper.", "Intro.\n"+string(make([]byte, 0))+"Handles flamingo records.\n"+fmt.Sprintf("%2000s", "")+"zebraword at the end.")
	if _, err := ix.Sync([]*skill.Skill{long}); err != nil {
		t.Fatal(err)
	}
	if got := names(ix.Search("flamingo", 5, nil)); !slices.Equal(got, []string{"deep"}) {
		t.Errorf("a word at the body's start: %v", got)
	}
	if got := ix.Search("zebraword", 5, nil); len(got) != 0 {
		t.Errorf("a word past the first %d bytes of the body was indexed: %v", DefaultBodyBytes, names(got))
	}
	none := New(&Options{BodyBytes: -1})
	none.Sync([]*skill.Skill{long})
	if got := none.Search("flamingo", 5, nil); len(got) != 0 {
		t.Errorf("BodyBytes -1 indexed the body: %v", names(got))
	}
}

func TestSearchFieldsAndWeights(t *testing.T) {
	tagged := load(t, "tagged", "Does one thing.", "")
	tagged.Frontmatter.Tags = []string{"astronomy"}
	tagged.Frontmatter.Metadata = map[string]any{"openclaw": map[string]any{"keywords": []any{"telescope"}}}
	tagged.Frontmatter.Category = "science"
	byName := load(t, "astronomy", "Sky charts.", "")
	byBody := load(t, "other", "Sky maps.", "astronomy notes")
	ix := New(nil)
	ix.Sync([]*skill.Skill{tagged, byName, byBody})
	if got := names(ix.Search("telescope", 5, nil)); !slices.Equal(got, []string{"tagged"}) {
		t.Errorf("nested metadata: %v", got)
	}
	if got := names(ix.Search("science", 5, nil)); !slices.Equal(got, []string{"tagged"}) {
		t.Errorf("category: %v", got)
	}
	if got := names(ix.Search("astronomy", 5, nil)); !slices.Equal(got, []string{"astronomy", "tagged", "other"}) {
		t.Errorf("name before tags before body: %v", got)
	}
}

func TestSearchVisibility(t *testing.T) {
	ix := New(nil)
	ix.Sync(sample(t))
	asked := map[string]bool{}
	visible := func(name string) bool { asked[name] = true; return name != "pdf" }
	hits := ix.Search("pdf documents merge", 5, visible)
	if slices.Contains(names(hits), "pdf") {
		t.Fatalf("a skill the filter refuses was returned: %v", names(hits))
	}
	if !asked["pdf"] {
		t.Error("the filter was not asked about the best match")
	}
	// Only candidates that would rank are asked about.
	asked = map[string]bool{}
	ix.Search("images pictures gif pdf release browser", 1, func(name string) bool { asked[name] = true; return true })
	if len(asked) > 3 {
		t.Errorf("with limit 1 the filter was asked about %d skills: %v", len(asked), asked)
	}
}

func TestSyncIsIncremental(t *testing.T) {
	skills := sample(t)
	ix := New(nil)
	st, _ := ix.Sync(skills)
	if st.Added != len(skills) {
		t.Fatalf("first sync: %+v", st)
	}
	if st, _ = ix.Sync(skills); st != (SyncStats{}) {
		t.Fatalf("a sync with nothing changed did work: %+v", st)
	}
	// One skill changes (a new *skill.Skill, as a rescan makes), one goes.
	changed := slices.Clone(skills)
	changed[0] = load(t, "pdf", "Sign documents with a digital certificate.", "")
	changed = slices.DeleteFunc(changed, func(s *skill.Skill) bool { return s.Name == "slack-gif" })
	st, _ = ix.Sync(changed)
	if st.Updated != 1 || st.Removed != 1 || st.Added != 0 {
		t.Fatalf("after one change and one removal: %+v", st)
	}
	if got := ix.Search("merge forms tables", 5, nil); slices.Contains(names(got), "pdf") {
		t.Errorf("the old text of a changed skill still matches: %v", names(got))
	}
	if got := names(ix.Search("certificate signature", 5, nil)); !slices.Equal(got, []string{"pdf"}) {
		t.Errorf("the new text does not match: %v", got)
	}
	if got := ix.Search("animated gif", 5, nil); len(got) != 0 {
		t.Errorf("a removed skill is found: %v", names(got))
	}
	if ix.Len() != len(changed) {
		t.Errorf("Len = %d, want %d", ix.Len(), len(changed))
	}
}

// TestCompactionKeepsResults churns skills until the index compacts and
// checks that it answers as an index built afresh.
func TestCompactionKeepsResults(t *testing.T) {
	var skills []*skill.Skill
	for i := range 40 {
		skills = append(skills, load(t, fmt.Sprintf("s%02d", i), fmt.Sprintf("Skill number %d handles topic%d and shared words.", i, i%7), ""))
	}
	ix := New(nil)
	ix.Sync(skills)
	compacted := false
	for round := range 30 {
		i := round % len(skills)
		skills[i] = load(t, skills[i].Name, fmt.Sprintf("Rewritten %d about topic%d and shared words.", round, round%5), "")
		st, _ := ix.Sync(skills)
		compacted = compacted || st.Compacted
	}
	if !compacted {
		t.Fatal("30 updates of 40 skills never compacted")
	}
	fresh := New(nil)
	fresh.Sync(skills)
	for _, q := range []string{"topic3", "shared words", "rewritten topic1", "skill number"} {
		a, b := ix.Search(q, 0, nil), fresh.Search(q, 0, nil)
		if !slices.EqualFunc(a, b, func(x, y Hit) bool { return x.Name == y.Name && abs(x.Score-y.Score) < 1e-4 }) {
			t.Errorf("%q: churned %v, fresh %v", q, a, b)
		}
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

func TestTokens(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"Converting Images to PDFs", []string{"convert", "imag", "pdf"}},
		{"convert image pdf", []string{"convert", "imag", "pdf"}},
		{"running tests; matches boxes", []string{"run", "test", "match", "box"}},
		{"把PDF转成图片", []string{"把", "pdf", "转成", "成图", "图片"}},
		{"ＰＤＦ ｆｉｌｅ", []string{"pdf", "fil"}},
		{"Über Straße", []string{"über", "straße"}},
		{"pdf-tools v2", []string{"pdf", "tool", "v2"}},
		{"the a of", nil},
	} {
		if got := appendTokens(nil, tc.in); !slices.Equal(got, tc.want) {
			t.Errorf("tokens(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func FuzzSearch(f *testing.F) {
	for _, s := range []string{"merge pdf", "把图片转成PDF", "ＰＤＦ", "\xff\xfe", "a-b_c d", "ies sses ing ed"} {
		f.Add(s, s)
	}
	f.Fuzz(func(t *testing.T, desc, query string) {
		fsys := fstest.MapFS{"x/SKILL.md": {Data: []byte("---\nname: x\ndescription: ok\n---\n" + desc)}}
		s, _ := skill.Load(fsys, "x", nil)
		if s == nil {
			return
		}
		s.Description = desc
		ix := New(nil)
		ix.Sync([]*skill.Skill{s})
		hits := ix.Search(query, 3, nil)
		if len(hits) > 1 {
			t.Fatalf("one skill, %d hits", len(hits))
		}
		for _, tok := range appendTokens(nil, query) {
			if tok == "" {
				t.Fatalf("an empty token from %q", query)
			}
		}
		// A skill is always found by its own description's terms.
		if terms := appendTokens(nil, desc); len(terms) > 0 {
			if hits := ix.Search(desc, 3, nil); len(hits) != 1 {
				t.Fatalf("the skill is not found by its own description %q (terms %q)", desc, terms)
			}
		}
	})
}

// Syncs from several goroutines, with searches among them, leave the index
// holding exactly the last list synced.
func TestConcurrentSyncs(t *testing.T) {
	base := sample(t)
	ix := New(nil)
	done := make(chan bool)
	for g := range 4 {
		go func() {
			for i := range 20 {
				list := base[:1+(g+i)%len(base)]
				ix.Sync(list)
				ix.Search("pdf images release", 3, nil)
			}
			done <- true
		}()
	}
	for range 4 {
		<-done
	}
	ix.Sync(base[:2])
	if ix.Len() != 2 {
		t.Fatalf("Len = %d after syncing 2 skills", ix.Len())
	}
	if got := ix.Search("release browser gif", 0, nil); len(got) != 0 {
		t.Errorf("skills synced away are found: %v", names(got))
	}
}

package prompt

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillkit-go/skillkit/skill"
)

// hiddenSeeds hold what the one pass over plain bytes must hand over to
// hidden.Mark: hidden characters after escapes, a byte order mark at the
// start and further on, controls, tag characters, invalid UTF-8.
var hiddenSeeds = []string{
	"", "plain & <simple> \"text\" 'here'", "a&b\u202e<c>", "\ufeffstart", "x\ufeffy", "tab\tok\nline\r",
	"bell\a & del\x7f", "flag \U0001F3F4\U000E0067\U000E0062\U000E0065\U000E006E\U000E0067\U000E007F ok",
	"tags \U000E0049\U000E0047\U000E004E\U000E004F\U000E0052\U000E0045 &", "bad \xff\xfe utf-8 <", "中文 & 描述",
	"zwj 👨\u200d👩 & x\u200dy", "rtl שלום\u200f & ltr\u200e", "é", "<\u200b>",
}

// FuzzWriteText holds the catalog's one pass to what it replaces: marking
// hidden characters, then escaping.
func FuzzWriteText(f *testing.F) {
	for _, s := range hiddenSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var b strings.Builder
		writeText(&b, s)
		if want := Escape(s); b.String() != want {
			t.Fatalf("writeText(%q) = %q, want Escape's %q", s, b.String(), want)
		}
	})
}

// agentEntry is an agentskills entry built the slow way: Escape of each
// value, filepath.Join for the location.
func agentEntry(s *skill.Skill) string {
	return "  <skill>\n    <name>" + Escape(s.Name) + "</name>\n    <description>" + Escape(s.Description) +
		"</description>\n    <location>" + Escape(filepath.Join(s.DiskDir, s.File)) + "</location>\n  </skill>\n"
}

// FuzzCatalogWhole holds a catalog that fits, rendered in one pass, to the
// entries built the slow way, whatever the names, descriptions and folders.
func FuzzCatalogWhole(f *testing.F) {
	for _, s := range hiddenSeeds {
		f.Add("name", s, "/skills/x", "SKILL.md")
	}
	f.Add("a<b", "d", "/skills/x/", "SKILL.md")
	f.Add("n", "d", "/skills/../x", "SKILL.md")
	f.Add("n", "d", "rel/x", "skill.md")
	f.Add("n", "d", "/", "SKILL.md")
	f.Add("n", "d", ".", "..")
	f.Add("n", "d", "/a\u202e", "S\u200bKILL.md")
	f.Fuzz(func(t *testing.T, name, desc, dir, file string) {
		if dir == "" || file == "" {
			return // not on disk: the location is another path
		}
		s := &skill.Skill{Name: name, Description: desc, DiskDir: dir, File: file, Class: skill.ClassPrompt}
		res := Catalog([]*skill.Skill{s}, &Options{Format: FormatAgentSkills, MaxChars: 1 << 30})
		if res.Compaction != CompactionNone {
			t.Fatalf("compacted: %q", res.Compaction)
		}
		if want := agentEntry(s); !strings.Contains(res.Text, catalogOpen+want+catalogClose) {
			t.Fatalf("the catalog\n%s\ndoes not hold the entry\n%s", res.Text, want)
		}
	})
}

// TestCatalogBudgetEdgeMultibyte: the byte counts only spare counting
// characters. A catalog of multi-byte text whose characters fit exactly is
// rendered whole, though its bytes do not fit; one character less, and it
// is compacted; and one whose names and descriptions alone take more
// characters than the budget is compacted too.
func TestCatalogBudgetEdgeMultibyte(t *testing.T) {
	var skills []*skill.Skill
	for i, d := range []string{"生成中文文档并填写表格。", "Crée un résumé — «vite» & bien.", "emoji 🎉 & ok", "ascii & <plain>"} {
		skills = append(skills, &skill.Skill{Name: fmt.Sprintf("s-%d", i), Description: strings.Repeat(d, 5),
			DiskDir: fmt.Sprintf("/skills/s-%d", i), File: "SKILL.md", Class: skill.ClassPrompt})
	}
	for _, f := range []Format{FormatSkillkit, FormatAgentSkills} {
		full := Catalog(skills, &Options{Format: f, MaxChars: 1 << 30})
		chars := runes(full.Text)
		if len(full.Text) <= chars {
			t.Fatalf("%s: the text is not multi-byte", f)
		}
		for _, budget := range []int{chars, chars + 1, len(full.Text) - 1, len(full.Text)} {
			res := Catalog(skills, &Options{Format: f, MaxChars: budget})
			if res.Compaction != CompactionNone || res.Text != full.Text {
				t.Errorf("%s, budget %d (text of %d characters, %d bytes): compaction %q", f, budget, chars, len(full.Text), res.Compaction)
			}
		}
		res := Catalog(skills, &Options{Format: f, MaxChars: chars - 1})
		if res.Compaction == CompactionNone || runes(res.Text) > chars-1 {
			t.Errorf("%s, budget %d: compaction %q, %d characters", f, chars-1, res.Compaction, runes(res.Text))
		}
		least := 0
		for _, s := range skills {
			least += runes(s.Name) + runes(s.Description)
		}
		res = Catalog(skills, &Options{Format: f, MaxChars: least - 1})
		if res.Compaction == CompactionNone || runes(res.Text) > least-1 {
			t.Errorf("%s, budget %d: compaction %q, %d characters", f, least-1, res.Compaction, runes(res.Text))
		}
	}
}

// TestCutMultibyte: cut counts characters whenever the bytes exceed n.
func TestCutMultibyte(t *testing.T) {
	for _, c := range []struct {
		in   string
		n    int
		want string
	}{
		{"ééé", 3, "ééé"}, {"ééé", 4, "ééé"}, {"éééé", 3, "éé…"}, {"abc", 3, "abc"}, {"abcd", 3, "ab…"},
	} {
		if got := cut(c.in, c.n); got != c.want {
			t.Errorf("cut(%q, %d) = %q, want %q", c.in, c.n, got, c.want)
		}
	}
}

package prompt

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/skillkit-go/skillkit/diagnostics"
	"github.com/skillkit-go/skillkit/skill"
)

// budgetSkills are skills whose descriptions exercise every way of
// shortening: several sentences, one long sentence, CJK text without spaces,
// XML entities at cut points, a short description that never needs cutting.
func budgetSkills(t *testing.T) []*skill.Skill {
	descs := map[string]string{
		"alpha":   "Builds PDF reports from tables. Use it when the user asks for a report, e.g. a monthly summary, or an export of figures.",
		"bravo":   strings.Repeat("one long sentence without an end & some <markup> in it ", 6),
		"charlie": strings.Repeat("生成中文文档并填写表格。", 12),
		"delta":   "Short.",
		"echo":    strings.Repeat("a&b ", 40) + "end. Second sentence.",
		"foxtrot": "Runs scripts! Then reports? Yes. " + strings.Repeat("more words here ", 10),
		"golf":    strings.Repeat("x", 300),
		"hotel":   strings.Repeat(`&<>"'`, 40), // entities only: every cut lands next to one
	}
	fsys := fstest.MapFS{}
	var skills []*skill.Skill
	for _, n := range []string{"alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel"} {
		fsys[n+"/SKILL.md"] = &fstest.MapFile{Data: []byte(fmt.Sprintf("---\nname: %s\ndescription: %q\n---\n", n, descs[n]))}
		s, diags := skill.Load(fsys, n, nil)
		if s == nil {
			t.Fatal(diags)
		}
		skills = append(skills, s)
	}
	return skills
}

var entityRef = regexp.MustCompile(`&(amp|lt|gt|quot|apos);`)

// TestEveryBudget checks the catalog's promises at every budget, in both
// formats: the text fits; no skill is dropped while a description could
// still be shortened; in the names-only form as many skills are listed as
// fit; shortened descriptions keep to their share; every degradation is
// reported, and the guidance says what the model sees.
func TestEveryBudget(t *testing.T) {
	skills := budgetSkills(t)
	for _, f := range []Format{FormatSkillkit, FormatAgentSkills} {
		full := Catalog(skills, &Options{Format: f, MaxChars: 1 << 20})
		if full.Compaction != CompactionNone || len(full.Diagnostics) != 0 {
			t.Fatalf("%s: a large budget degraded: %+v", f, full)
		}
		forms := map[Compaction]int{}
		for budget := 1; budget <= runes(full.Text)+3; budget++ {
			res := Catalog(skills, &Options{Format: f, MaxChars: budget})
			forms[res.Compaction]++
			where := fmt.Sprintf("%s, budget %d", f, budget)
			if n := runes(res.Text); n > budget {
				t.Fatalf("%s: %d characters", where, n)
			}
			if len(res.Listed)+len(res.Omitted) != len(skills) {
				t.Fatalf("%s: listed %v omitted %v", where, res.Listed, res.Omitted)
			}
			if len(res.Omitted) > 0 && res.Compaction != CompactionNamesOnly {
				t.Fatalf("%s: skills dropped in form %q, before descriptions were left out", where, res.Compaction)
			}
			if strings.Contains(strings.ReplaceAll(res.Text, "&", "\x00"), "\x00") && len(entityRef.FindAllString(res.Text, -1)) != strings.Count(res.Text, "&") {
				t.Fatalf("%s: a broken XML entity:\n%s", where, res.Text)
			}
			checkReported(t, where, res)
			tx := BuiltinTexts(English)
			if got := strings.Contains(res.Text, tx.Shortened); res.Text != "" && got != (res.Compaction == CompactionShortened) {
				t.Fatalf("%s: form %q, shortened note %v", where, res.Compaction, got)
			}
			if got := strings.Contains(res.Text, tx.NamesOnly); res.Text != "" && got != (res.Compaction == CompactionNamesOnly) {
				t.Fatalf("%s: form %q, names-only note %v", where, res.Compaction, got)
			}
			switch res.Compaction {
			case CompactionShortened:
				checkShares(t, where, skills, res)
			case CompactionNamesOnly:
				if n := len(res.Listed); n < len(skills) {
					c := &catalog{o: (&Options{Format: f, MaxChars: budget}).orDefault(), t: tx, skills: skills}
					c.compactPrefix(1 << 30)
					if more := c.build(withNote(tx.Guidance, tx.NamesOnly), n+1, CompactionNamesOnly, 0); runes(more) <= budget {
						t.Fatalf("%s: %d skills listed but %d fit", where, n, n+1)
					}
				}
				// Descriptions are left out only when even the smallest
				// share does not fit.
				if len(res.Omitted) == 0 {
					short := Catalog(skills, &Options{Format: f, MaxChars: budget + 1})
					if short.Compaction == CompactionShortened && short.DescriptionChars > MinDescriptionChars {
						t.Fatalf("%s: names only, but one more character allows a share of %d", where, short.DescriptionChars)
					}
				}
			}
		}
		for _, c := range []Compaction{CompactionNone, CompactionShortened, CompactionNamesOnly} {
			if forms[c] == 0 {
				t.Errorf("%s: no budget gave form %q", f, c)
			}
		}
	}
}

func checkReported(t *testing.T, where string, res CatalogResult) {
	t.Helper()
	compacted := res.Diagnostics.WithCode(diagnostics.PromptCompacted)
	if (res.Compaction != CompactionNone) != (len(compacted) == 1) {
		t.Fatalf("%s: form %q, PROMPT_COMPACTED %v", where, res.Compaction, compacted)
	}
	if len(compacted) == 1 && compacted[0].Detail["compaction"] != string(res.Compaction) {
		t.Fatalf("%s: %v", where, compacted[0])
	}
	truncated := res.Diagnostics.WithCode(diagnostics.PromptTruncated)
	if (len(res.Omitted) > 0) != (len(truncated) == 1) {
		t.Fatalf("%s: omitted %v, PROMPT_TRUNCATED %v", where, res.Omitted, truncated)
	}
	if len(res.Omitted) > 0 && res.Text != "" && !strings.Contains(res.Text, fmt.Sprintf(": %d.", len(res.Omitted))) {
		t.Fatalf("%s: the text does not say %d skills are left out", where, len(res.Omitted))
	}
}

// checkShares checks that every shortened description is its first sentence
// or ends in "…", within the share, and that the others are whole.
func checkShares(t *testing.T, where string, skills []*skill.Skill, res CatalogResult) {
	t.Helper()
	if res.DescriptionChars < MinDescriptionChars {
		t.Fatalf("%s: share %d", where, res.DescriptionChars)
	}
	for _, s := range skills {
		whole := Escape(strings.Join(strings.Fields(s.Description), " "))
		shortened := false
		for _, n := range res.Shortened {
			shortened = shortened || n == s.Name
		}
		if !shortened {
			if !strings.Contains(res.Text, whole) && !strings.Contains(res.Text, Escape(s.Description)) {
				t.Fatalf("%s: %s is not shortened, but its description is not whole", where, s.Name)
			}
			continue
		}
		if runes(whole) <= res.DescriptionChars {
			t.Fatalf("%s: %s shortened though it fits the share", where, s.Name)
		}
	}
	if len(res.Shortened) == 0 {
		t.Fatalf("%s: shortened form without a shortened description", where)
	}
}

func TestShortLenIsMonotone(t *testing.T) {
	skills := budgetSkills(t)
	c := &catalog{o: (&Options{}).orDefault(), t: BuiltinTexts(English), skills: skills}
	c.compactPrefix(1 << 30)
	c.renderFull()
	c.scanPrefixes(0, 1<<30)
	for i := range c.entries {
		e := &c.entries[i]
		prev := 0
		for k := 1; k <= e.desc.runes+1; k++ {
			n := c.shortLen(e, k)
			var b strings.Builder
			c.writeShortened(&b, e, k)
			if got := runes(b.String()); n < prev || n > k && n != e.desc.runes || got > n {
				t.Fatalf("%s, k %d: shortLen %d (previous %d), rendered %d: %q", e.s.Name, k, n, prev, got, b.String())
			}
			if len(entityRef.FindAllString(b.String(), -1)) != strings.Count(b.String(), "&") {
				t.Fatalf("%s, k %d: a split XML entity: %q", e.s.Name, k, b.String())
			}
			prev = n
		}
	}
}

func TestWriteOneLine(t *testing.T) {
	for _, in := range []string{"", "  a  ", "a\n\tb", "x & y <z> \"q\" 'a'", " 中文\n  描述 ", "a\u00a0b", "&&  <<", "end ", "a \u00a0", "a \u0085", " x\v\fy ", "a  b c\r\nd", "& &"} {
		var b strings.Builder
		writeOneLine(&b, in)
		want := Escape(strings.Join(strings.FieldsFunc(strings.TrimSpace(in), func(r rune) bool { return r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\v' || r == '\f' }), " "))
		if b.String() != want {
			t.Errorf("writeOneLine(%q) = %q, want %q", in, b.String(), want)
		}
	}
}

// FuzzCatalog checks the catalog's promises on descriptions nobody chose:
// the text fits, no skill is dropped before descriptions are left out, no
// XML entity is split, and every step is reported.
func FuzzCatalog(f *testing.F) {
	f.Add("Builds reports. Use it when asked, e.g. monthly.", "中文描述。第二句。", 300, false)
	f.Add(strings.Repeat("a&b <c> ", 50), "x", 120, true)
	f.Add("One! Two? Three.", strings.Repeat("word ", 100), 700, false)
	f.Fuzz(func(t *testing.T, d1, d2 string, budget int, agent bool) {
		if budget < 1 || budget > 20_000 {
			return
		}
		var skills []*skill.Skill
		for i, d := range []string{d1, d2, d1 + d2} {
			s := &skill.Skill{Name: fmt.Sprintf("s%d", i), Description: d, Class: skill.ClassPrompt}
			skills = append(skills, s)
		}
		format := FormatSkillkit
		if agent {
			format = FormatAgentSkills
		}
		res := Catalog(skills, &Options{Format: format, MaxChars: budget})
		where := fmt.Sprintf("budget %d", budget)
		if n := runes(res.Text); n > budget {
			t.Fatalf("%s: %d characters", where, n)
		}
		if len(res.Omitted) > 0 && res.Compaction != CompactionNamesOnly {
			t.Fatalf("%s: skills dropped in form %q", where, res.Compaction)
		}
		if len(entityRef.FindAllString(res.Text, -1)) != strings.Count(res.Text, "&") {
			t.Fatalf("%s: a broken XML entity:\n%s", where, res.Text)
		}
		checkReported(t, where, res)
	})
}

package prompt

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/skillkit-go/skillkit/skill"
)

// TestBudgetIsMaximal checks, for every budget, that the catalog fits and
// that listing one more skill would not.
func TestBudgetIsMaximal(t *testing.T) {
	fsys := fstest.MapFS{}
	var skills []*skill.Skill
	for i, n := range []string{"a", "bb", "ccc", "dddd", "eeeee", "ffffff", "g", "hh"} {
		fsys[n+"/SKILL.md"] = &fstest.MapFile{Data: []byte("---\nname: " + n + "\ndescription: " + strings.Repeat("x", 10*i+1) + "\n---\n")}
		s, diags := skill.Load(fsys, n, nil)
		if s == nil {
			t.Fatal(diags)
		}
		skills = append(skills, s)
	}
	tx := BuiltinTexts(English)
	o := (&Options{}).orDefault()
	full := assemble(tx, entriesOf(skills, o, tx, false), 0)
	for budget := 1; budget <= runes(full)+5; budget++ {
		res := Catalog(skills, &Options{MaxChars: budget})
		if runes(res.Text) > budget {
			t.Fatalf("budget %d: %d characters", budget, runes(res.Text))
		}
		if len(res.Listed)+len(res.Omitted) != len(skills) {
			t.Fatalf("budget %d: listed %v omitted %v", budget, res.Listed, res.Omitted)
		}
		n := len(res.Listed)
		if n == len(skills) || n == 0 && res.Text == "" && runes(assemble(tx, entriesOf(skills[:1], o, tx, true), len(skills)-1)) > budget {
			continue
		}
		more := assemble(tx, entriesOf(skills[:n+1], o, tx, res.Compact), len(skills)-n-1)
		if runes(more) <= budget {
			t.Fatalf("budget %d: %d skills listed but %d would fit", budget, n, n+1)
		}
	}
}

func entriesOf(skills []*skill.Skill, o Options, t Texts, compact bool) []string {
	out := make([]string, len(skills))
	for i, s := range skills {
		out[i] = renderSkill(s, o, t, compact, s.Class == skill.ClassComputeEntry)
	}
	return out
}

func TestWriteOneLine(t *testing.T) {
	for _, in := range []string{"", "  a  ", "a\n\tb", "x & y <z> \"q\" 'a'", " 中文\n  描述 ", "a\u00a0b", "&&  <<", "end "} {
		var b strings.Builder
		writeOneLine(&b, in)
		want := Escape(strings.Join(strings.FieldsFunc(in, func(r rune) bool { return r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\v' || r == '\f' }), " "))
		if b.String() != want {
			t.Errorf("writeOneLine(%q) = %q, want %q", in, b.String(), want)
		}
	}
}

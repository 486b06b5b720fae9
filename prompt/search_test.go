package prompt_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/skillkit-go/skillkit/prompt"
)

// Issue 32: an agent with search_skills is told once, after a catalog
// that leaves skills out, how to find them; a catalog that lists every
// skill is the same with or without it.
func TestCatalogRoutesToSearch(t *testing.T) {
	files := map[string]string{}
	for i := range 40 {
		files[fmt.Sprintf("s%02d/SKILL.md", i)] = fmt.Sprintf("---\nname: s%02d\ndescription: Skill %d does one thing well.\n---\n", i, i)
	}
	skills := skillSet(t, files)
	for _, lang := range []prompt.Language{prompt.English, prompt.Chinese} {
		whole := prompt.Catalog(skills, &prompt.Options{Language: lang})
		if withSearch := prompt.Catalog(skills, &prompt.Options{Language: lang, Search: true}); withSearch.Text != whole.Text {
			t.Errorf("%s: Search changed a catalog that lists every skill:\n%s", lang, withSearch.Text)
		}
		plain := prompt.Catalog(skills, &prompt.Options{Language: lang, MaxChars: 900})
		routed := prompt.Catalog(skills, &prompt.Options{Language: lang, MaxChars: 900, Search: true})
		if len(routed.Omitted) == 0 || len([]rune(routed.Text)) > 900 {
			t.Fatalf("%s: want skills left out within the budget, got %d omitted, %d characters", lang, len(routed.Omitted), len([]rune(routed.Text)))
		}
		if n := strings.Count(routed.Text, "search_skills"); n != 1 {
			t.Errorf("%s: search_skills named %d times, want once:\n%s", lang, n, routed.Text)
		}
		if !strings.Contains(routed.Text, fmt.Sprint(len(routed.Omitted))) {
			t.Errorf("%s: the note does not say how many are left out:\n%s", lang, routed.Text)
		}
		if strings.Contains(plain.Text, "search_skills") {
			t.Errorf("%s: a catalog without Search names search_skills", lang)
		}
	}
}

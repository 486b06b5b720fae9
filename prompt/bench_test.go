package prompt_test

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/skillkit-go/skillkit/prompt"
	"github.com/skillkit-go/skillkit/skill"
)

// BenchmarkCatalog200 renders the catalog of 200 real corpus skills: at the
// default budget (every description shortened to an even share) and at a
// budget that forces skills out.
func BenchmarkCatalog200(b *testing.B) {
	skills := corpusSkillsB(b)[:200]
	for _, f := range []prompt.Format{prompt.FormatSkillkit, prompt.FormatAgentSkills} {
		for _, budget := range []struct {
			name  string
			chars int
		}{{"default", 0}, {"skills-out", 5_000}} {
			b.Run(string(f)+"/"+budget.name, func(b *testing.B) {
				opts := &prompt.Options{Format: f, MaxChars: budget.chars}
				if res := prompt.Catalog(skills, opts); budget.chars > 0 && len(res.Omitted) == 0 {
					b.Fatal("the budget leaves no skill out")
				}
				b.ReportAllocs()
				cpuLoop(b, func() { prompt.Catalog(skills, opts) })
			})
		}
	}
}

// BenchmarkCatalog10000 renders the catalog of 10,000 generated skills at
// the default budget, which lists a few hundred of them.
func BenchmarkCatalog10000(b *testing.B) {
	skills := generatedSkills(b, 10_000)
	for _, f := range []prompt.Format{prompt.FormatSkillkit, prompt.FormatAgentSkills} {
		b.Run(string(f), func(b *testing.B) {
			opts := &prompt.Options{Format: f}
			b.ReportAllocs()
			cpuLoop(b, func() { prompt.Catalog(skills, opts) })
		})
	}
}

func generatedSkills(b *testing.B, n int) []*skill.Skill {
	b.Helper()
	fsys := fstest.MapFS{}
	names := make([]string, n)
	for i := range names {
		names[i] = fmt.Sprintf("skill-%05d", i)
		fsys[names[i]+"/SKILL.md"] = &fstest.MapFile{Data: []byte("---\nname: " + names[i] + "\ndescription: Handles task " +
			names[i] + " & its kind. " + strings.Repeat("Use it when the user asks. ", 4) + "\n---\n")}
	}
	skills := make([]*skill.Skill, n)
	for i, name := range names {
		s, diags := skill.Load(fsys, name, nil)
		if s == nil {
			b.Fatal(diags)
		}
		skills[i] = s
	}
	return skills
}

// BenchmarkCatalogWhole renders, with the budget lifted, the catalog of 200
// corpus skills and of 1,000 and 10,000 generated ones in the agentskills
// format: the text pi-mono's formatSkillsForPrompt makes, every entry
// whole, in one pass.
func BenchmarkCatalogWhole(b *testing.B) {
	sets := []struct {
		name   string
		skills func() []*skill.Skill
	}{
		{"corpus200", func() []*skill.Skill { return corpusSkillsB(b)[:200] }},
		{"gen1000", func() []*skill.Skill { return generatedSkills(b, 1_000) }},
		{"gen10000", func() []*skill.Skill { return generatedSkills(b, 10_000) }},
	}
	for _, set := range sets {
		b.Run(set.name, func(b *testing.B) {
			skills := set.skills()
			opts := &prompt.Options{Format: prompt.FormatAgentSkills, MaxChars: math.MaxInt}
			if res := prompt.Catalog(skills, opts); len(res.Listed) != len(skills) || res.Compaction != prompt.CompactionNone {
				b.Fatalf("listed %d of %d, compaction %q", len(res.Listed), len(skills), res.Compaction)
			}
			b.ReportAllocs()
			cpuLoop(b, func() { prompt.Catalog(skills, opts) })
		})
	}
}

package prompt_test

import (
	"testing"

	"github.com/skillkit-go/skillkit/prompt"
)

// BenchmarkCatalog200 renders the catalog of 200 real corpus skills.
func BenchmarkCatalog200(b *testing.B) {
	skills := corpusSkillsB(b)[:200]
	for _, f := range []prompt.Format{prompt.FormatSeed, prompt.FormatAgentSkills} {
		b.Run(string(f), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				prompt.Catalog(skills, &prompt.Options{Format: f})
			}
		})
	}
}

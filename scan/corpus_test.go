package scan

import (
	"os"
	"testing"

	"github.com/skillkit-go/skillkit/internal/testcorpus"
)

// TestCorpus scans every skill of the corpus of published skills: none may
// be dangerous and at most 5% may need caution. Each caution is logged with
// its findings.
func TestCorpus(t *testing.T) {
	root, dirs := testcorpus.SkillDirs(t)
	fsys := os.DirFS(root)
	counts := map[Verdict]int{}
	for _, d := range dirs {
		rep, err := Skill(t.Context(), fsys, d, nil)
		if err != nil {
			t.Fatal(err)
		}
		counts[rep.Verdict]++
		if rep.Verdict == Safe {
			continue
		}
		t.Logf("%s: %s", rep.Verdict, d)
		for _, f := range rep.Findings {
			if f.Severity >= High {
				t.Logf("  %s", f)
			}
		}
		if rep.Verdict == Dangerous {
			t.Errorf("%s is rated dangerous", d)
		}
	}
	t.Logf("%d skills: %d safe, %d caution, %d dangerous", len(dirs), counts[Safe], counts[Caution], counts[Dangerous])
	if max := len(dirs) * 5 / 100; counts[Caution] > max {
		t.Errorf("%d skills rated caution, more than 5%% (%d)", counts[Caution], max)
	}
}

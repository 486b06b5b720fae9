package scan

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/skillkit-go/skillkit/internal/testcorpus"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// goldenFindings writes every finding of every report, one a line, with
// everything a user sees of it.
func goldenFindings(reps []Report) string {
	var b strings.Builder
	for _, rep := range reps {
		fmt.Fprintf(&b, "== %s: %s, %d files, %d bytes\n", rep.Path, rep.Verdict, rep.Files, rep.Bytes)
		for _, f := range rep.Findings {
			fmt.Fprintf(&b, "%s %s %s:%d %s %q %s\n", f.Rule, f.Severity, f.File, f.Line, f.Context, f.Match, f.Message)
		}
	}
	return b.String()
}

// checkGolden compares got with testdata/golden/name, or rewrites it with
// -update.
func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	p := filepath.Join("testdata", "golden", name)
	if *update {
		if err := os.WriteFile(p, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("findings differ from %s (-want +got):\n%s", p, diff)
	}
}

// TestGoldenSpecimens holds the findings on the specimens to what they
// were: a change to the rules, their prefilters or the decoders that
// loses or adds a finding shows here.
func TestGoldenSpecimens(t *testing.T) {
	var reps []Report
	for _, dir := range []string{"malicious", "benign"} {
		for _, sp := range specimens(t, dir) {
			rep, err := Skill(t.Context(), sp.fsys, sp.name, nil)
			if err != nil {
				t.Fatal(err)
			}
			rep.Path = dir + "/" + rep.Path
			reps = append(reps, rep)
		}
	}
	checkGolden(t, "specimens.txt", goldenFindings(reps))
}

// TestGoldenCorpus holds the findings on the corpus of published skills
// to what they were.
func TestGoldenCorpus(t *testing.T) {
	root, dirs := testcorpus.SkillDirs(t)
	fsys := os.DirFS(root)
	var reps []Report
	for _, d := range dirs {
		rep, err := Skill(t.Context(), fsys, d, nil)
		if err != nil {
			t.Fatal(err)
		}
		reps = append(reps, rep)
	}
	checkGolden(t, "corpus.txt", goldenFindings(reps))
}

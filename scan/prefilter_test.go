package scan

import (
	"math/rand/v2"
	"path/filepath"
	"regexp"
	"regexp/syntax"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// generate writes to b a random string the expression may match: each
// alternative, repetition count and class member is drawn at random.
// Empty-width assertions write nothing, so some strings do not match.
func generate(rng *rand.Rand, re *syntax.Regexp, b *strings.Builder) {
	repeat := func(n int) {
		for range n {
			generate(rng, re.Sub[0], b)
		}
	}
	switch re.Op {
	case syntax.OpLiteral:
		b.WriteString(string(re.Rune))
	case syntax.OpCharClass:
		k := rng.IntN(len(re.Rune) / 2)
		lo, hi := re.Rune[2*k], re.Rune[2*k+1]
		b.WriteRune(lo + rng.Int32N(min(hi-lo+1, 128)))
	case syntax.OpAnyCharNotNL, syntax.OpAnyChar:
		b.WriteByte(" ax/.-_1\"'"[rng.IntN(10)])
	case syntax.OpCapture:
		generate(rng, re.Sub[0], b)
	case syntax.OpStar:
		repeat(rng.IntN(3))
	case syntax.OpPlus:
		repeat(1 + rng.IntN(3))
	case syntax.OpQuest:
		repeat(rng.IntN(2))
	case syntax.OpRepeat:
		top := re.Max
		if top < 0 {
			top = re.Min + 2
		}
		repeat(re.Min + rng.IntN(top-re.Min+1))
	case syntax.OpConcat:
		for _, s := range re.Sub {
			generate(rng, s, b)
		}
	case syntax.OpAlternate:
		generate(rng, re.Sub[rng.IntN(len(re.Sub))], b)
	}
}

// prefiltered is every expression that has a literal prefilter, with it.
func prefiltered() map[string]struct {
	re   *regexp.Regexp
	need need
} {
	out := map[string]struct {
		re   *regexp.Regexp
		need need
	}{"charCodeList": {charCodeList(), charCodeListNeed()}}
	for _, ip := range defaultRules().pats {
		out[ip.rule.id+" "+ip.re.String()] = struct {
			re   *regexp.Regexp
			need need
		}{ip.re, ip.need}
	}
	return out
}

// TestNeedHoldsForEveryMatch draws strings from each expression's syntax
// and checks that every match found in them holds its prefilter's
// literals: a literal wrongly required would drop matches silently.
func TestNeedHoldsForEveryMatch(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for name, p := range prefiltered() {
		tree, err := syntax.Parse(p.re.String(), syntax.Perl)
		if err != nil {
			t.Fatal(err)
		}
		matched := 0
		for range 400 {
			var b strings.Builder
			generate(rng, tree, &b)
			loc := p.re.FindStringIndex(b.String())
			if loc == nil {
				continue
			}
			m := b.String()[loc[0]:loc[1]]
			matched++
			if !p.need.mayMatch(m) {
				t.Errorf("%s: the prefilter %q rejects the match %q", name, p.need, m)
				break
			}
		}
		if matched == 0 {
			t.Errorf("%s: no generated string matched, so nothing was checked", name)
		}
	}
	// The count of charCodeCall's possible starts covers its matches.
	tree, _ := syntax.Parse(charCodeCall().String(), syntax.Perl)
	for range 2000 {
		var b strings.Builder
		for range 1 + rng.IntN(5) {
			generate(rng, tree, &b)
			b.WriteString("+ ")
		}
		if n, calls := codeCalls(b.String()), len(charCodeCall().FindAllString(b.String(), -1)); n < calls {
			t.Fatalf("codeCalls(%q) = %d, fewer than the %d matches", b.String(), n, calls)
		}
	}
}

// TestNeedOf pins the analysis on a few expressions.
func TestNeedOf(t *testing.T) {
	tests := []struct {
		expr string
		want need
	}{
		{`curl`, need{{"curl"}}},
		{`\bcurl\s+-x`, need{{"curl"}, {"-x"}, {"\t", "\n", "\f", "\r", " "}}},
		{`(?:curl|wget)\b[^|]*\|\s*sh`, need{{"sh"}, {"|"}, {"curl", "wget"}}},
		{`a(?:b|c)d`, need{{"abd", "acd"}}},
		{`(?:f\s*\(|g\s*\()`, need{{"("}, {"f", "g"}}},
		{`x*`, need{}},
		{`(?:ab)?c`, need{{"c"}}},
		{`(?i)curl`, need{}},
		{`\x{fffd}x`, need{}}, // invalid UTF-8 matches U+FFFD
	}
	for _, tt := range tests {
		got := needOf(regexp.MustCompile(tt.expr))
		if diff := cmp.Diff(tt.want, got, cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("needOf(%s) (-want +got):\n%s", tt.expr, diff)
		}
	}
}

// TestPlainTextRunsNoExpression: the text of the installer's benchmark
// archive, plain prose, passes no prefilter or gate, so no expression runs
// on it. A prefilter or gate widened until it lets prose through fails
// here (and the install benchmark slows).
func TestPlainTextRunsNoExpression(t *testing.T) {
	text := "the skill reads a file and writes a report with tables charts and notes for each step of the task when asked by the user"
	rs := defaultRules()
	for _, ctx := range []Context{CtxDocs, CtxInstructions, CtxScript, CtxData, CtxConfig, CtxCode} {
		var c patBits
		var ps pairSet
		ps.add(text)
		rs.candidates(text, &ps, ctx, &c)
		for i, ip := range rs.pats {
			if c[i/64]&(1<<(i%64)) != 0 && ip.need.mayMatch(text) {
				t.Errorf("in %s, pattern %s of %s runs", ctx, ip.re, ip.rule.id)
			}
		}
	}
	if g := charCodeGates(strings.Repeat(text+" ", 8)); g != (codeGates{}) {
		t.Errorf("character-code gates open on prose: %+v", g)
	}
}

// unfilteredRules is the rule table without its prefilters.
func unfilteredRules() *ruleSet {
	rs := newRuleSet(ruleTable())
	rs.unfiltered = true
	return rs
}

// findingsBoth scans one file's bytes with and without the prefilters.
func findingsBoth(name string, data []byte, unfiltered *ruleSet) (filtered, plain []Finding) {
	run := func(rs *ruleSet) []Finding {
		sc := newSkillScan(nil, (*Options)(nil).resolved())
		sc.rules = rs
		sc.scanFile(name, data, false)
		sc.finish()
		return sortFindings(sc.findings)
	}
	return run(defaultRules()), run(unfiltered)
}

// TestPrefilterChangesNoFinding scans every file of the specimens, and
// each alone on its last line, with and without the prefilters.
func TestPrefilterChangesNoFinding(t *testing.T) {
	unfiltered := unfilteredRules()
	paths, _ := filepath.Glob(filepath.Join("testdata", "*", "*.txtar"))
	checked := 0
	for _, p := range paths {
		_, files, _ := readTxtar(t, p)
		for name, body := range files {
			for _, data := range []string{body, "x\n" + lastLine(body)} {
				filtered, plain := findingsBoth(name, []byte(data), unfiltered)
				if diff := cmp.Diff(plain, filtered); diff != "" {
					t.Errorf("%s: %s: the prefilters change the findings (-without +with):\n%s", p, name, diff)
				}
				checked += len(plain)
			}
		}
	}
	if checked == 0 {
		t.Fatal("no finding compared")
	}
}

func lastLine(s string) string {
	s = strings.TrimRight(s, "\n")
	return s[strings.LastIndexByte(s, '\n')+1:]
}

// FuzzPrefilter scans arbitrary bytes as each kind of file with and
// without the prefilters: the findings must be the same.
func FuzzPrefilter(f *testing.F) {
	paths, _ := filepath.Glob(filepath.Join("testdata", "*", "*.txtar"))
	for _, p := range paths {
		_, files, _ := readTxtar(f, p)
		for _, body := range files {
			for i := range fuzzNames {
				f.Add(uint8(i), []byte(body))
			}
		}
	}
	unfiltered := unfilteredRules()
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		if len(data) > 64<<10 {
			return
		}
		name := fuzzNames[int(which)%len(fuzzNames)]
		filtered, plain := findingsBoth(name, data, unfiltered)
		if diff := cmp.Diff(plain, filtered); diff != "" {
			t.Fatalf("the prefilters change the findings (-without +with):\n%s", diff)
		}
	})
}

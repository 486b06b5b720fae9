package skill_test

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/skillkit-go/skillkit/internal/safeyaml"
	"github.com/skillkit-go/skillkit/internal/testcorpus"
	"github.com/skillkit-go/skillkit/skill"
)

// checkFlat holds the flat reader to yaml.v3 on text: when it reads text at
// all, yaml.v3 reads it too, into the same tree.
func checkFlat(t *testing.T, text string) bool {
	t.Helper()
	flat, ok := safeyaml.Flat(text)
	if !ok {
		return false
	}
	want, err := safeyaml.Parse([]byte(text))
	if err != nil {
		t.Fatalf("the flat reader read what yaml.v3 refuses (%v):\n%s", err, text)
	}
	// Every field of every node: kinds, styles, tags, values, positions,
	// comments, anchors.
	if d := cmp.Diff(want, flat); d != "" {
		t.Fatalf("the flat reader's tree differs from yaml.v3's (-yaml.v3 +flat):\n%s\nin:\n%s", d, text)
	}
	return true
}

func TestFlatYAML(t *testing.T) {
	for _, tc := range []struct {
		text string
		flat bool // read by the flat reader rather than left to yaml.v3
	}{
		{"name: a\ndescription: b c\n", true},
		{"name: a\ndescription: Use it when \"deploy\" and 'ship' [now], {x}, C# or a:b.\n", true},
		{"name: a\ndescription: >-\n  Folded over\n  two lines.\n\n  And a paragraph.\nlicense: MIT\n", true},
		{"description: >\n  Folded, clipped.\n\n\nname: a\n", true},
		{"description: |\n  Literal\n    indented\n\n  end\n", true},
		{"description: |-\n  Literal, stripped\n", true},
		{"description:\n  A plain scalar\n  on the next lines\n\n  with a break.\nname: x\n", true},
		{"name: a\ndescription: starts here\n  and goes on\n   here.\n", true},
		{"metadata:\n  author: me\n  version: \"1.0.0\"\n  other: 'it''s'\n  deep:\n    k: v\nname: a\n", true},
		{"name: 'single'\ndescription: \"double\"   \n", true},
		{"name: a   \ndescription: b\n\n\n", true},
		{"name: a é—ü 😀\n", true},
		{"name: é\n", true},
		// Left to yaml.v3.
		{"", false},
		{"# comment\nname: a\n", false},
		{"name: a # comment\n", false},
		{"name: 1.0\n", false},
		{"name: true\nother: NULL\n", true},
		{"name: 3-clause BSD\nsources:\n- a\n- \"b\"\n- 'c'\nx:\n  - <y>\n", true},
		{"name: 1.4.0\n", false},
		{"name: true\n  more\n", false},
		{"name:\ndescription: b\n", false},
		{"name: [a, b]\n", false},
		{"name: &x a\n", false},
		{"name: \"esc\\n\"\n", false},
		{"name: \"open\n  close\"\n", false},
		{"tags:\n  - a: b\n", false},
		{"tags:\n  - a\n    b\n", false},
		{"tags:\n  - - a\n", false},
		{"tags:\n  -\n", false},
		{"description: Use when: x\n", false},
		{"\tname: a\n", false},
		{"name: a\n  b: c\n", false},
		{"a:\n    b: c\n  d: e\n", false},
		{"description: |+\n  keep\n", false},
		{"description: |\n\n  leading blank\n", false},
		{"description: >\n  a\n    more indented\n", false},
		{"description: |\n  trailing  \n", false},
		{"name: a\r\n", false},
		{"name: \u0085\n", false},
		{"true: a\n", false},
		{"x: 'a'b'\n", false},
	} {
		if got := checkFlat(t, tc.text); got != tc.flat {
			t.Errorf("flat reader took %q: %v, want %v", tc.text, got, tc.flat)
		}
	}
}

// checkParseFlat holds Parse to one result whether the flat reader or
// yaml.v3 reads the frontmatter of data, strict or not: fields, raw text and
// every diagnostic.
func checkParseFlat(t *testing.T, data []byte) {
	t.Helper()
	for _, strict := range []bool{false, true} {
		flatFM, flatDiags := skill.ParseFrontmatter(data, strict, true)
		yamlFM, yamlDiags := skill.ParseFrontmatter(data, strict, false)
		if d := cmp.Diff(yamlFM, flatFM); d != "" {
			t.Fatalf("strict %v: the frontmatter read differs (-yaml.v3 +flat):\n%s\nin:\n%s", strict, d, data)
		}
		if d := cmp.Diff(yamlDiags, flatDiags); d != "" {
			t.Fatalf("strict %v: the diagnostics differ (-yaml.v3 +flat):\n%s\nin:\n%s", strict, d, data)
		}
	}
}

// The flat reader takes nearly every corpus frontmatter, reads each as
// yaml.v3 does, and Parse reads every corpus skill the same either way.
func TestFlatYAMLCorpus(t *testing.T) {
	root, dirs := testcorpus.SkillDirs(t)
	flat := 0
	for _, dir := range dirs {
		data, err := fs.ReadFile(os.DirFS(root), path.Join(dir, "SKILL.md"))
		if err != nil {
			t.Fatal(err)
		}
		checkParseFlat(t, data)
		front, _, err := skill.SplitFrontmatter(data)
		if err != nil {
			continue
		}
		if checkFlat(t, string(front)) {
			flat++
		}
	}
	t.Logf("%d of %d corpus frontmatters read by the flat reader", flat, len(dirs))
	if flat < len(dirs)*9/10 {
		t.Errorf("the flat reader took only %d of %d corpus frontmatters", flat, len(dirs))
	}
}

// FuzzFlatYAML holds the flat reader to yaml.v3 on any text: the same tree
// when it reads it, and the same Parse result, diagnostics included.
func FuzzFlatYAML(f *testing.F) {
	for _, seed := range []string{
		"name: a\ndescription: b\n",
		"description: >-\n  a\n  b\n\n  c\nx: y\n",
		"description: |\n  a\n   b\n\n\n",
		"metadata:\n  a: 'b''c'\n  d:\n    e: \"f\"\n",
		"description:\n  a\n\n  b\n",
		"a: b\n  c\n d\n",
		"k: v:\n",
		"k: a #b\n",
		"k: >\n a\n\n b\n c\n",
		"a:\n- b\n- 'c'\nd: e\n",
		"a:\n  - \"x\"\n  - y z\n",
		"a: 'x''y'\nb: 3 c\n",
		"name: a\ndescription: b\nname: c\nmetadata:\n  k: v\n  k: w\n",
		"name: My Skill\ndescription: x\nallowed-tools: Read Write\nlicense: MIT\n",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if strings.Count(text, "\n") > 200 {
			return
		}
		if checkFlat(t, text) {
			checkParseFlat(t, []byte("---\n"+text+"---\nbody\n"))
		}
	})
}

// Every repetition of a key is reported, in small mappings (scanned) and
// large ones (a map) alike.
func TestDuplicateKeysReported(t *testing.T) {
	for _, keys := range []int{3, 40} {
		var fm strings.Builder
		fm.WriteString("---\nname: pdf\ndescription: d\n")
		for i := range keys {
			fmt.Fprintf(&fm, "k%d: v\n", i)
		}
		fm.WriteString("k1: again\nk1: and again\nname: pdf\n---\n")
		_, diags := skill.Parse([]byte(fm.String()), nil)
		var dups []string
		for _, d := range diags.WithCode("FIELD_INVALID") {
			dups = append(dups, d.Detail["field"].(string))
		}
		if want := []string{"k1", "k1", "name"}; !slices.Equal(dups, want) {
			t.Errorf("%d keys: duplicates reported %v, want %v", keys, dups, want)
		}
	}
}

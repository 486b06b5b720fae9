package prompt_test

import (
	"flag"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/skillkit-go/skillkit/diagnostics"
	"github.com/skillkit-go/skillkit/internal/testcorpus"
	"github.com/skillkit-go/skillkit/prompt"
	"github.com/skillkit-go/skillkit/skill"
)

// tempRoots maps a test's name to the temporary skills folder of skillSet.
var tempRoots sync.Map

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	for n := t.Name(); n != ""; n = path.Dir(n) {
		if root, ok := tempRoots.Load(n); ok {
			got = strings.ReplaceAll(got, root.(string), "/srv/skills")
			break
		}
		if !strings.Contains(n, "/") {
			break
		}
	}
	file := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("%s differs (-want +got):\n%s", file, diff)
	}
}

// corpusSkills loads every corpus skill with stable display paths.
func corpusSkills(t *testing.T) []*skill.Skill { return corpusSkillsB(t) }

func corpusSkillsB(t testing.TB) []*skill.Skill {
	t.Helper()
	root, dirs := testcorpus.SkillDirs(t)
	fsys := os.DirFS(root)
	var skills []*skill.Skill
	for _, dir := range dirs {
		s, diags := skill.Load(fsys, dir, &skill.LoadOptions{DiskRoot: "corpus"})
		if s == nil {
			t.Fatalf("%s: %v", dir, diags)
		}
		skills = append(skills, s)
	}
	slices.SortStableFunc(skills, func(a, b *skill.Skill) int { return strings.Compare(a.Name, b.Name) })
	return skills
}

func TestCatalogCorpusGolden(t *testing.T) {
	skills := corpusSkills(t)
	t.Run("agentskills, whole", func(t *testing.T) {
		res := prompt.Catalog(skills, &prompt.Options{Format: prompt.FormatAgentSkills, MaxChars: 1 << 20})
		if len(res.Omitted) != 0 || res.Compaction != prompt.CompactionNone {
			t.Fatalf("omitted %v compaction %q", res.Omitted, res.Compaction)
		}
		golden(t, "corpus-agentskills.golden", res.Text)
	})
	t.Run("skillkit, whole", func(t *testing.T) {
		res := prompt.Catalog(skills, &prompt.Options{MaxChars: 1 << 20})
		golden(t, "corpus-skillkit.golden", res.Text)
	})
	t.Run("skillkit, default budget", func(t *testing.T) {
		res := prompt.Catalog(skills, nil)
		if n := len([]rune(res.Text)); n > prompt.DefaultMaxChars {
			t.Fatalf("%d characters, over the budget", n)
		}
		// 256 visible descriptions of about 100,000 characters: each is
		// shortened to an even share, and none is left out.
		if res.Compaction != prompt.CompactionShortened || len(res.Omitted) != 0 || len(res.Listed) != len(skills)-1 {
			t.Errorf("compaction %q, listed %d, omitted %v", res.Compaction, len(res.Listed), res.Omitted)
		}
		if res.DescriptionChars < prompt.MinDescriptionChars || len(res.Shortened) == 0 {
			t.Errorf("share %d, %d of %d shortened", res.DescriptionChars, len(res.Shortened), len(res.Listed))
		}
		golden(t, "corpus-skillkit-30000.golden", res.Text)
	})
}

// TestCatalogDegradedGolden pins each degraded form in both formats: 40
// corpus skills shortened to a share, and listed by name only with skills
// left out.
func TestCatalogDegradedGolden(t *testing.T) {
	skills := corpusSkills(t)[:40]
	for _, tt := range []struct {
		name   string
		budget int
		want   prompt.Compaction
		out    bool
	}{{"shortened", 9_000, prompt.CompactionShortened, false}, {"names-only", 2_000, prompt.CompactionNamesOnly, true}} {
		for _, f := range []prompt.Format{prompt.FormatSkillkit, prompt.FormatAgentSkills} {
			res := prompt.Catalog(skills, &prompt.Options{Format: f, MaxChars: tt.budget})
			if res.Compaction != tt.want || (len(res.Omitted) > 0) != tt.out || len([]rune(res.Text)) > tt.budget {
				t.Errorf("%s %s: compaction %q, %d omitted, %d characters", f, tt.name, res.Compaction, len(res.Omitted), len([]rune(res.Text)))
			}
			golden(t, "corpus40-"+string(f)+"-"+tt.name+".golden", res.Text)
		}
	}
}

func TestCatalogEscapesAndChinese(t *testing.T) {
	skills := corpusSkills(t)
	res := prompt.Catalog(skills, &prompt.Options{Format: prompt.FormatAgentSkills, MaxChars: 1 << 20})
	// The one corpus description with an XML-like tag.
	if !strings.Contains(res.Text, "&lt;ViewTransition&gt;") || strings.Contains(res.Text, "<ViewTransition>") {
		t.Error("the <ViewTransition> tag in a description is not escaped")
	}
	if !strings.Contains(res.Text, "<name>color-font-skill</name>") || !strings.Contains(res.Text, "配色") {
		t.Error("Chinese description missing")
	}
	if strings.Contains(res.Text, "<name>sentry-fix-issues</name>") {
		t.Error("a skill with disable-model-invocation is listed")
	}
}

// skillSet builds skills from SKILL.md contents in a map file system.
// skillSet writes skills into a temporary folder and loads them from disk.
// golden shows the folder as /srv/skills, so outputs compare on any machine.
func skillSet(t *testing.T, files map[string]string) []*skill.Skill {
	t.Helper()
	root := t.TempDir()
	tempRoots.Store(t.Name(), root)
	var dirs []string
	for p, content := range files {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(p, "/SKILL.md") {
			dirs = append(dirs, strings.TrimSuffix(p, "/SKILL.md"))
		}
	}
	slices.Sort(dirs)
	var out []*skill.Skill
	for _, d := range dirs {
		s, diags := skill.Load(os.DirFS(root), d, &skill.LoadOptions{DiskRoot: root})
		if s == nil {
			t.Fatalf("%s: %v", d, diags)
		}
		out = append(out, s)
	}
	return out
}

func threeSkills(t *testing.T) []*skill.Skill {
	return skillSet(t, map[string]string{
		"alpha/SKILL.md": "---\nname: alpha\ndescription: Quotes \"x\" & 'y' <b>bold</b>\nmetadata:\n  category: A&B\n---\n",
		"beta/SKILL.md":  "---\nname: beta\ndescription: 文档生成：PDF 生成/填表\n---\n",
		"ocr/SKILL.md":   "---\nname: ocr\ndescription: OCR of an image.\nmetadata:\n  category: 多模态\n---\n",
		"ocr/skill.config.yaml": "runtime: python\nentrypoint: ocr.py\ninterface:\n  input:\n    image_path: {type: string, required: true}\n" +
			"    language: {type: string, default: auto}\n    mode: {type: string, enum: [fast, exact]}\n",
		"ocr/ocr.py":             "",
		"tool/SKILL.md":          "---\nname: tool\ndescription: Runs scripts.\n---\n",
		"tool/skill.config.yaml": "runtime: bash\n",
		"hidden/SKILL.md":        "---\nname: hidden\ndescription: Never listed.\ndisable-model-invocation: true\n---\n",
	})
}

func TestCatalogFormats(t *testing.T) {
	skills := threeSkills(t)
	golden(t, "skillkit-en.golden", prompt.Catalog(skills, nil).Text)
	golden(t, "skillkit-zh.golden", prompt.Catalog(skills, &prompt.Options{Language: prompt.Chinese}).Text)
	golden(t, "agentskills.golden", prompt.Catalog(skills, &prompt.Options{Format: prompt.FormatAgentSkills}).Text)
	golden(t, "agentskills-nolocation.golden", prompt.Catalog(skills, &prompt.Options{Format: prompt.FormatAgentSkills, HideLocation: true}).Text)
	custom := prompt.Catalog(skills, &prompt.Options{Texts: &prompt.Texts{Guidance: "Use the skills."}})
	// The host's guidance, then the built-in sentence about execute_skill
	// (the host did not replace it, and ocr can run), then the list.
	if !strings.HasPrefix(custom.Text, "Use the skills.\nSkills of type compute-entry run with execute_skill") || !strings.Contains(custom.Text, "load it with read_skill") {
		t.Errorf("custom guidance with built-in hints:\n%s", custom.Text)
	}
}

func TestCatalogEmpty(t *testing.T) {
	for _, skills := range [][]*skill.Skill{nil, {}, skillSet(t, map[string]string{"h/SKILL.md": "---\nname: h\ndescription: d\ndisable-model-invocation: true\n---\n"})} {
		res := prompt.Catalog(skills, nil)
		if res.Text != "" || len(res.Listed) != 0 || len(res.Omitted) != 0 {
			t.Errorf("no visible skill must give no catalog: %+v", res)
		}
	}
}

func TestCatalogBudget(t *testing.T) {
	files := map[string]string{}
	for _, n := range []string{"s01", "s02", "s03", "s04", "s05", "s06", "s07", "s08", "s09", "s10"} {
		files[n+"/SKILL.md"] = "---\nname: " + n + "\ndescription: First sentence of " + n + ". Then " + strings.Repeat("word ", 40) + "\n---\n"
	}
	skills := skillSet(t, files)
	whole := prompt.Catalog(skills, &prompt.Options{MaxChars: 1 << 20})
	wholeLen := len([]rune(whole.Text))
	// Just over budget, the hint the guidance gives is not repeated.
	terse := prompt.Catalog(skills, &prompt.Options{MaxChars: wholeLen - 1})
	if terse.Compaction != prompt.CompactionTerse || len(terse.Omitted) != 0 || strings.Contains(terse.Text, "(load it") ||
		!strings.Contains(terse.Text, "word word\n  </skill>") || !terse.Diagnostics.Has(diagnostics.PromptCompacted) {
		t.Fatalf("just over budget: want whole descriptions without hints, got %+v", terse)
	}
	terseLen := len([]rune(terse.Text))
	short := prompt.Catalog(skills, &prompt.Options{MaxChars: terseLen - 1})
	if short.Compaction != prompt.CompactionShortened || len(short.Omitted) != 0 || len(short.Shortened) != 10 {
		t.Fatalf("just over the terse form: want every description shortened, got %+v", short)
	}
	// One word less each is enough here: a cut inside a sentence, marked.
	if !strings.Contains(short.Text, "word word word…\n") {
		t.Errorf("want descriptions cut at a word:\n%s", short.Text)
	}
	// With a share of less than twice the first sentence, the cut is at its
	// end.
	for b := wholeLen; b > 0; b-- {
		res := prompt.Catalog(skills, &prompt.Options{MaxChars: b})
		if res.Compaction != prompt.CompactionShortened || res.DescriptionChars > 2*len("First sentence of s01.") {
			continue
		}
		if !strings.Contains(res.Text, "First sentence of s01.\n") || strings.Contains(res.Text, "Then") {
			t.Errorf("share %d: want first sentences:\n%s", res.DescriptionChars, res.Text)
		}
		break
	}
	// A description is never cut below 20 characters: below that, names
	// only.
	for b := wholeLen; b > 0; b -= 7 {
		if res := prompt.Catalog(skills, &prompt.Options{MaxChars: b}); res.Compaction == prompt.CompactionShortened && res.DescriptionChars < 20 {
			t.Fatalf("budget %d: descriptions cut to %d characters", b, res.DescriptionChars)
		}
	}
	// The largest budget that lists names only.
	compactLen := 0
	for b := wholeLen; b > 0; b-- {
		if res := prompt.Catalog(skills, &prompt.Options{MaxChars: b}); res.Compaction == prompt.CompactionNamesOnly {
			compactLen = len([]rune(res.Text))
			if len(res.Omitted) != 0 || strings.Contains(res.Text, "First sentence") {
				t.Fatalf("names only: %+v", res)
			}
			break
		}
	}
	tests := []struct {
		budget  int
		omitted []string
	}{
		{compactLen, []string{}},
		// One character over: the note on left-out skills costs more than one
		// names-only entry, so four skills make room for it.
		{compactLen - 1, []string{"s07", "s08", "s09", "s10"}},
		// Each names-only entry is 36 characters; the budgets below are
		// relative to the names-only catalog, so they hold whatever the
		// guidance says.
		{compactLen - 29, []string{"s07", "s08", "s09", "s10"}},
		{compactLen - 30, []string{"s06", "s07", "s08", "s09", "s10"}},
		{compactLen - 209, []string{"s02", "s03", "s04", "s05", "s06", "s07", "s08", "s09", "s10"}},
		// Guidance and note with one skill exceed the budget: no catalog.
		{compactLen - 210, []string{"s01", "s02", "s03", "s04", "s05", "s06", "s07", "s08", "s09", "s10"}},
	}
	// Ranked by a priority that follows the order given, the catalog
	// leaves out the last skills.
	inOrder := func(s *skill.Skill) float64 {
		return -float64(slices.IndexFunc(skills, func(x *skill.Skill) bool { return x == s }))
	}
	for _, tt := range tests {
		res := prompt.Catalog(skills, &prompt.Options{MaxChars: tt.budget, Priority: inOrder})
		if spread := prompt.Catalog(skills, &prompt.Options{MaxChars: tt.budget}); len(spread.Omitted) != len(tt.omitted) {
			t.Errorf("budget %d: without priority, %d omitted, want %d", tt.budget, len(spread.Omitted), len(tt.omitted))
		}
		if diff := cmp.Diff(tt.omitted, res.Omitted); diff != "" {
			t.Errorf("budget %d: omitted (-want +got):\n%s", tt.budget, diff)
		}
		if n := len([]rune(res.Text)); n > tt.budget {
			t.Errorf("budget %d: text is %d characters", tt.budget, n)
		}
		if len(tt.omitted) == 10 && res.Text != "" {
			t.Errorf("budget %d: nothing fits, want no catalog:\n%s", tt.budget, res.Text)
		}
		if len(tt.omitted) > 0 && len(tt.omitted) < 10 && !strings.Contains(res.Text, fmt.Sprintf("not listed here, to keep this list short: %d.", len(tt.omitted))) {
			t.Errorf("budget %d: no note on omitted skills:\n%s", tt.budget, res.Text)
		}
		trunc := res.Diagnostics.WithCode(diagnostics.PromptTruncated)
		if len(tt.omitted) > 0 && (len(trunc) != 1 || !cmp.Equal(trunc[0].Detail["omitted"], tt.omitted) || trunc[0].Level != diagnostics.Warning) {
			t.Errorf("budget %d: %v", tt.budget, res.Diagnostics)
		}
		if !res.Diagnostics.Has(diagnostics.PromptCompacted) {
			t.Errorf("budget %d: the names-only form is not reported", tt.budget)
		}
	}
	// Without a priority, what is left out is a spread of the names, not
	// the alphabet's tail, listed in the order given; the same skills stay
	// when one more is installed.
	spread := prompt.Catalog(skills, &prompt.Options{MaxChars: compactLen - 30})
	if slices.Equal(spread.Omitted, []string{"s06", "s07", "s08", "s09", "s10"}) || !slices.IsSorted(spread.Listed) || !slices.IsSorted(spread.Omitted) {
		t.Errorf("listed %v, omitted %v", spread.Listed, spread.Omitted)
	}
	files["s00x/SKILL.md"] = "---\nname: s00x\ndescription: First sentence of s00x.\n---\n"
	more := prompt.Catalog(skillSet(t, files), &prompt.Options{MaxChars: compactLen - 30})
	for _, name := range more.Listed {
		if name != "s00x" && !slices.Contains(spread.Listed, name) {
			t.Errorf("one more skill brought %s in: %v, before %v", name, more.Listed, spread.Listed)
		}
	}
	res := prompt.Catalog(skills, &prompt.Options{MaxChars: compactLen - 1})
	if !strings.HasSuffix(res.Text, "</available_skills>\nInstalled skills not listed here, to keep this list short: 4. Ask the user if you need a skill that is not listed.") {
		t.Errorf("truncation note:\n%s", res.Text)
	}
	capped := prompt.Catalog(skills, &prompt.Options{MaxDescriptionChars: 40, MaxChars: 1 << 20})
	if !strings.Contains(capped.Text, "First sentence of s01. Then word word…") || strings.Contains(capped.Text, "word word word word") {
		t.Errorf("description cap:\n%s", capped.Text)
	}
}

// TestDefaultBudget pins what the default budget does with a realistic
// host: 120 skills with descriptions of a few sentences fit in 30,000
// characters only once the descriptions are shortened; a budget twice as
// large would list them whole.
func TestDefaultBudget(t *testing.T) {
	files := map[string]string{}
	for i := range 120 {
		n := fmt.Sprintf("skill-%03d", i)
		files[n+"/SKILL.md"] = "---\nname: " + n + "\ndescription: Handles the " + n + " task end to end. " +
			strings.Repeat("Use it when the user asks for it in so many words. ", 5) + "\n---\n"
	}
	skills := skillSet(t, files)
	res := prompt.Catalog(skills, nil)
	if res.Compaction != prompt.CompactionShortened || len(res.Omitted) != 0 || len([]rune(res.Text)) > prompt.DefaultMaxChars {
		t.Fatalf("default budget: compaction %q, %d omitted, %d characters", res.Compaction, len(res.Omitted), len([]rune(res.Text)))
	}
	if whole := prompt.Catalog(skills, &prompt.Options{MaxChars: 2 * prompt.DefaultMaxChars}); whole.Compaction != prompt.CompactionNone {
		t.Fatalf("twice the default budget: compaction %q", whole.Compaction)
	}
}

func activationSkill(t *testing.T) *skill.Skill {
	t.Helper()
	return skillSet(t, map[string]string{
		"docs/SKILL.md": "---\nname: docs\ndescription: Writes documents.\n---\n# Docs\n\nFollow the format.\n",
		"docs/skill.config.yaml": `runtime: python
references:
  required: [references/format.md]
  optional: [references/tips.md, references/gone.md]
  routes:
    - match: [create, 新建]
      required_refs: [references/create.md, references/format.md]
    - match: [EDIT]
      required_refs: [references/edit.md, references/missing.md]
`,
		"docs/references/format.md": "# Format\nUse headings.\n",
		"docs/references/tips.md":   "# Tips\n",
		"docs/references/create.md": "# Create\n" + strings.Repeat("c", 100) + "\n",
		"docs/references/edit.md":   "# Edit\n",
		"docs/scripts/build.py":     "print('x')\n",
		"docs/assets/logo.bin":      "\x00\x01",
	})[0]
}

func TestActivate(t *testing.T) {
	s := activationSkill(t)
	tests := []struct {
		name     string
		opts     *prompt.ActivateOptions
		inlined  []string
		required []string
		missing  []string
	}{
		{"no task", nil, nil, []string{"references/format.md"}, []string{"references/gone.md"}},
		{"route matches", &prompt.ActivateOptions{Task: "Create a report"}, []string{"references/create.md", "references/format.md"},
			[]string{"references/format.md", "references/create.md"}, []string{"references/gone.md"}},
		{"Chinese keyword", &prompt.ActivateOptions{Task: "帮我新建一个文档", Language: prompt.Chinese}, []string{"references/create.md", "references/format.md"},
			[]string{"references/format.md", "references/create.md"}, []string{"references/gone.md"}},
		{"missing routed reference", &prompt.ActivateOptions{Task: "please edit the intro"}, []string{"references/edit.md"},
			[]string{"references/format.md", "references/edit.md", "references/missing.md"}, []string{"references/format.md"[:0] + "references/missing.md", "references/gone.md"}},
		{"no route matches", &prompt.ActivateOptions{Task: "summarize"}, nil, []string{"references/format.md"}, []string{"references/gone.md"}},
		// MaxResources 1 cuts the optional list after tips.md, so gone.md is
		// not listed (nor reported missing).
		{"caps", &prompt.ActivateOptions{Task: "create", MaxInlineChars: 20, HideLocation: true, MaxResources: 1}, []string{"references/create.md", "references/format.md"},
			[]string{"references/format.md", "references/create.md"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			act, err := prompt.Activate(s, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.inlined, act.Inlined); diff != "" {
				t.Errorf("inlined (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.required, act.Required); diff != "" {
				t.Errorf("required (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.missing, act.Missing); diff != "" {
				t.Errorf("missing (-want +got):\n%s", diff)
			}
			golden(t, "activate-"+strings.ReplaceAll(tt.name, " ", "-")+".golden", act.Text)
		})
	}
}

func TestActivateTotalCap(t *testing.T) {
	s := activationSkill(t)
	act, err := prompt.Activate(s, &prompt.ActivateOptions{Task: "create", MaxInlineTotal: 30})
	if err != nil {
		t.Fatal(err)
	}
	// create.md takes the whole budget; format.md is then listed, not inlined.
	if diff := cmp.Diff([]string{"references/create.md"}, act.Inlined); diff != "" {
		t.Error(diff)
	}
	if !strings.Contains(act.Text, "- references/format.md\n") {
		t.Errorf("format.md must be listed as required:\n%s", act.Text)
	}
}

func TestActivateWithoutDeclaredReferences(t *testing.T) {
	s := skillSet(t, map[string]string{
		"plain/SKILL.md":        "---\nname: plain\ndescription: d\n---\nBody\n",
		"plain/references/a.md": "a",
		"plain/scripts/b.sh":    "b",
	})[0]
	act, err := prompt.Activate(s, nil)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "activate-undeclared.golden", act.Text)
	if strings.Contains(act.Text, "<skill_resources>") {
		t.Error("files listed as optional references must not be listed again as resources")
	}
}

// The default budget is exactly the documented 30,000 characters: a
// catalog one character longer is compacted, one that long is not.
func TestDefaultBudgetIsExact(t *testing.T) {
	const documented = 30_000
	desc := func(n int) string { return strings.Repeat("x", n) }
	write := func(n, last int) []*skill.Skill {
		files := map[string]string{}
		for i := range n {
			d := 400 // less than the last one's, which takes up the difference
			if i == n-1 {
				d = last
			}
			name := fmt.Sprintf("s-%03d", i)
			files[name+"/SKILL.md"] = "---\nname: " + name + "\ndescription: " + desc(d) + "\n---\n"
		}
		return skillSet(t, files)
	}
	length := func(skills []*skill.Skill) int {
		return len([]rune(prompt.Catalog(skills, &prompt.Options{MaxChars: 1 << 20}).Text))
	}
	n := 1
	for length(write(n, 900)) <= documented {
		n++
	}
	over := length(write(n, 900)) - (documented + 1)
	skills := write(n, 900-over)
	if got := length(skills); got != documented+1 {
		t.Fatalf("the test built a catalog of %d characters, want %d", got, documented+1)
	}
	if res := prompt.Catalog(skills, nil); res.Compaction == prompt.CompactionNone || len([]rune(res.Text)) > documented {
		t.Errorf("one character over the default budget: compaction %q, %d characters", res.Compaction, len([]rune(res.Text)))
	}
	if res := prompt.Catalog(skills, &prompt.Options{MaxChars: documented + 1}); res.Compaction != prompt.CompactionNone {
		t.Errorf("at its own length: compaction %q", res.Compaction)
	}
}

// TestAgentSkillsBudgetGoesToDescriptions: a collection of 181 skills in a
// deep folder, in the agentskills format, lists every skill with a
// description within the default budget: locations go relative to the
// folder, then out, before descriptions are shortened. A smaller
// collection keeps relative locations, the folder said once.
func TestAgentSkillsBudgetGoesToDescriptions(t *testing.T) {
	files := map[string]string{}
	for i := range 181 {
		n := fmt.Sprintf("scientific-skill-%03d", i)
		files["organisation/collection/skills/"+n+"/SKILL.md"] = "---\nname: " + n + "\ndescription: Analyses the " + n +
			" data sets with the library of the same name. Use it when the user asks for plots, statistics or exports of them, in notebooks or scripts.\n---\n"
	}
	skills := skillSet(t, files)
	res := prompt.Catalog(skills, &prompt.Options{Format: prompt.FormatAgentSkills})
	if len(res.Listed) != 181 || res.Compaction == prompt.CompactionNamesOnly || len([]rune(res.Text)) > prompt.DefaultMaxChars {
		t.Fatalf("listed %d, compaction %q, %d characters", len(res.Listed), res.Compaction, len([]rune(res.Text)))
	}
	if strings.Contains(res.Text, "<location>") || strings.Count(res.Text, "<description>Analyses the ") != 181 {
		t.Errorf("want every description and no location:\n%.2000s", res.Text)
	}
	if res.DescriptionChars != 0 && res.DescriptionChars < 60 {
		t.Errorf("descriptions cut to %d characters", res.DescriptionChars)
	}

	few := prompt.Catalog(skills[:60], &prompt.Options{Format: prompt.FormatAgentSkills, MaxChars: 20_000})
	root := filepath.Join(filepath.Dir(skills[0].DiskDir))
	if few.Compaction != prompt.CompactionTerse || !strings.Contains(few.Text, "Each <location> below is relative to "+root+".") ||
		!strings.Contains(few.Text, "<location>scientific-skill-000/SKILL.md</location>") || strings.Count(few.Text, root) != 1 {
		t.Errorf("compaction %q:\n%.3000s", few.Compaction, few.Text)
	}
	if d := few.Diagnostics.WithCode(diagnostics.PromptCompacted); len(d) != 1 || !strings.Contains(d[0].Message, "relative to "+root) {
		t.Errorf("%v", few.Diagnostics)
	}
}

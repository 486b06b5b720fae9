package prompt

import (
	"errors"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/skillkit-go/skillkit/skill"
)

func planSkill(t *testing.T) *skill.Skill {
	t.Helper()
	fsys := fstest.MapFS{
		"docs/SKILL.md": {Data: []byte("---\nname: docs\ndescription: d\n---\nBody\n")},
		"docs/skill.config.yaml": {Data: []byte(`references:
  required: [references/format.md]
  optional: [references/tips.md, references/gone.md, references/more.md]
  routes:
    - match: [create, 新建]
      required_refs: [references/create.md, references/format.md]
    - match: [edit, "pull request"]
      required_refs: [references/edit.md, references/missing.md]
    - match: [new]
      required_refs: [references/new.md]
`)},
		"docs/references/format.md": {Data: []byte("f")},
		"docs/references/tips.md":   {Data: []byte("t")},
		"docs/references/more.md":   {Data: []byte("m")},
		"docs/references/create.md": {Data: []byte("c")},
		"docs/references/edit.md":   {Data: []byte("e")},
		"docs/references/new.md":    {Data: []byte("n")},
		"docs/scripts/a.py":         {Data: []byte("a")},
		"docs/scripts/b.py":         {Data: []byte("b")},
	}
	s, diags := skill.Load(fsys, "docs", nil)
	if s == nil {
		t.Fatal(diags)
	}
	return s
}

func TestPlanActivation(t *testing.T) {
	s := planSkill(t)
	tests := []struct {
		name string
		opts ActivateOptions
		want activationPlan
	}{
		{"no task", ActivateOptions{MaxResources: 50}, activationPlan{
			Required: []string{"references/format.md"},
			Optional: []string{"references/tips.md", "references/gone.md", "references/more.md"},
			// Files neither required nor optional; routed references are
			// files too until a route makes them required.
			Resources: []string{"references/create.md", "references/edit.md", "references/new.md", "scripts/a.py", "scripts/b.py"},
			Absent:    map[string]bool{"references/gone.md": true},
		}},
		{"two routes, one reference missing", ActivateOptions{Task: "Create a doc, then EDIT it", MaxResources: 50}, activationPlan{
			Routes:    []int{0, 1},
			Required:  []string{"references/format.md", "references/create.md", "references/edit.md", "references/missing.md"},
			Inline:    []string{"references/create.md", "references/format.md", "references/edit.md"},
			Optional:  []string{"references/tips.md", "references/gone.md", "references/more.md"},
			Resources: []string{"references/new.md", "scripts/a.py", "scripts/b.py"},
			Absent:    map[string]bool{"references/gone.md": true, "references/missing.md": true},
		}},
		{"CJK keyword inside a sentence; lists capped", ActivateOptions{Task: "帮我新建一个文档", MaxResources: 1}, activationPlan{
			Routes:        []int{0},
			Required:      []string{"references/format.md", "references/create.md"},
			Inline:        []string{"references/create.md", "references/format.md"},
			Optional:      []string{"references/tips.md"},
			OptionalMore:  2,
			Resources:     []string{"references/edit.md"},
			ResourcesMore: 3,
			Absent:        map[string]bool{},
		}},
		{"words inside other words do not match", ActivateOptions{Task: "renew the credit line", MaxResources: 50}, activationPlan{
			Required:  []string{"references/format.md"},
			Optional:  []string{"references/tips.md", "references/gone.md", "references/more.md"},
			Resources: []string{"references/create.md", "references/edit.md", "references/new.md", "scripts/a.py", "scripts/b.py"},
			Absent:    map[string]bool{"references/gone.md": true},
		}},
		{"a phrase keyword", ActivateOptions{Task: "open a pull request", MaxResources: 50}, activationPlan{
			Routes:    []int{1},
			Required:  []string{"references/format.md", "references/edit.md", "references/missing.md"},
			Inline:    []string{"references/edit.md"},
			Optional:  []string{"references/tips.md", "references/gone.md", "references/more.md"},
			Resources: []string{"references/create.md", "references/new.md", "scripts/a.py", "scripts/b.py"},
			Absent:    map[string]bool{"references/gone.md": true, "references/missing.md": true},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := planActivation(s, tt.opts)
			if diff := cmp.Diff(tt.want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("plan (-want +got):\n%s", diff)
			}
		})
	}
}

func TestMentions(t *testing.T) {
	tests := []struct {
		task, kw string
		want     bool
	}{
		{"create a new page", "new", true},
		{"renew my licence", "new", false},
		{"new", "new", true},
		{"new-feature", "new", true},
		{"brand_new", "new", false},
		{"news today", "new", false},
		{"edit the intro", "edit", true},
		{"credit the author", "edit", false},
		{"credit and edit", "edit", true},
		{"open a pull request now", "pull request", true},
		{"v2 release", "v2", true},
		{"v21 release", "v2", false},
		{"帮我新建一个文档", "新建", true},
		{"帮我edit文档", "edit", true},
		{"プロジェクトを作成", "作成", true},
		{"café edit", "edit", true},
		{"éedit", "edit", false},
		{"anything", "", false},
	}
	for _, tt := range tests {
		if got := mentions(fold(tt.task), fold(tt.kw)); got != tt.want {
			t.Errorf("mentions(%q, %q) = %v, want %v", tt.task, tt.kw, got, tt.want)
		}
	}
}

func TestInlineRefs(t *testing.T) {
	tx := BuiltinTexts(English)
	refs := []string{"a.md", "broken.md", "bin.dat", "b.md", "c.md"}
	contents := []refContent{
		{data: []byte("aaaaaaaaaa")},      // 10 characters
		{err: errors.New("unreadable")},   // left to the must-read list
		{data: []byte{0, 1, 2}},           // not text: named as such
		{data: []byte("ééééééééééééééé")}, // 15 characters, cut by the total
		{data: []byte("never reached")},
	}
	// Each at most 12 characters, 30 in all: a takes 10, the binary note
	// 12, b the 8 left, and c none.
	got := inlineRefs(refs, contents, 12, 30, tx)
	want := []inlinedRef{
		{Path: "a.md", Content: "aaaaaaaaaa"},
		{Path: "bin.dat", Content: string([]rune(tx.InlineBinary)[:12]), Truncated: true},
		{Path: "b.md", Content: "éééééééé", Truncated: true},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("inlined (-want +got):\n%s", diff)
	}
}

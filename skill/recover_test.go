package skill_test

import (
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"github.com/skillkit-go/skillkit/diagnostics"
	"github.com/skillkit-go/skillkit/skill"
)

func TestFieldRecovery(t *testing.T) {
	s, diags := load(t, "ui-component", brokenField, false)
	if s == nil {
		t.Fatalf("not loaded: %v", diags)
	}
	if s.Description != "Generates UI components. Use when building forms, tables and cards." || s.Frontmatter.License != "MIT" {
		t.Errorf("description %q, license %q", s.Description, s.Frontmatter.License)
	}
	if _, kept := s.Frontmatter.Extra["summary"]; kept {
		t.Error("the broken summary was kept")
	}
	rec := diags.WithCode(diagnostics.FrontmatterRecovered)
	if len(rec) != 1 {
		t.Fatalf("want one FRONTMATTER_RECOVERED, got %v", diags)
	}
	d := rec[0]
	if d.Detail["field"] != "summary" || d.Line() != 3 || d.Level != diagnostics.Warning {
		t.Errorf("diagnostic: %#v", d)
	}
	if want := "skills/ui-component/SKILL.md:3: warning FRONTMATTER_RECOVERED ui-component: the field summary (line 3)"; !strings.HasPrefix(d.String(), want) {
		t.Errorf("String = %q, want prefix %q", d.String(), want)
	}
	// Strict: the file is invalid, at the broken field's own line.
	_, diags = load(t, "ui-component", brokenField, true)
	inv := diags.WithCode(diagnostics.FrontmatterInvalid)
	if len(inv) != 1 || inv[0].Line() != 3 || inv[0].Detail["field"] != "summary" || !strings.HasPrefix(inv[0].String(), "skills/ui-component/SKILL.md:3: error") {
		t.Errorf("strict: %v", diags)
	}
}

// TestYAMLErrorLines checks that YAML errors name the file's own line, in
// SKILL.md (after the opening ---) and in skill.config.yaml.
func TestYAMLErrorLines(t *testing.T) {
	tests := []struct {
		name, content string
		line          int
	}{
		{"unterminated flow list on the fourth line", "---\nname: pdf\ndescription: d\ntags: [a, b\nlicense: MIT\n---\n", 4},
		{"unterminated quote in the name", "---\nname: \"pdf\ndescription: d\n---\n", 2},
		{"bad indentation under a key", "---\nname: pdf\ndescription: d\nmetadata:\n  a: 1\n b: 2\n---\n", 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, strict := range []bool{false, true} {
				_, diags := load(t, "pdf", tt.content, strict)
				var lines []int
				for _, d := range diags.WithCode(diagnostics.FrontmatterInvalid, diagnostics.FrontmatterRecovered) {
					lines = append(lines, d.Line())
				}
				if len(lines) == 0 || lines[0] != tt.line {
					t.Errorf("strict %v: lines %v, want %d: %v", strict, lines, tt.line, diags)
				}
				if got := fmt.Sprint(diags); strings.Contains(got, "yaml:") {
					t.Errorf("the parser's own line numbers leak: %s", got)
				}
			}
		})
	}
	_, diags := skill.ParseConfig([]byte("runtime: python\nentrypoint: main.py\ninterface:\n  input: {a: [1\n"))
	if len(diags) != 1 || diags[0].Line() != 3 || diags[0].Detail["field"] != "interface" {
		t.Errorf("config: %v", diags)
	}
}

func TestFieldRecoveryNamesAtMostSome(t *testing.T) {
	var b strings.Builder
	b.WriteString("---\nname: pdf\ndescription: d\n")
	for i := range 30 {
		fmt.Fprintf(&b, "f%d: [x\n", i)
	}
	b.WriteString("---\n")
	s, diags := load(t, "pdf", b.String(), false)
	if s == nil {
		t.Fatal(diags)
	}
	rec := diags.WithCode(diagnostics.FrontmatterRecovered)
	if len(rec) != 21 || !strings.HasPrefix(rec[20].Message, "10 more fields") {
		t.Errorf("%d diagnostics, last %v", len(rec), rec[len(rec)-1])
	}
}

func TestSmallFixes(t *testing.T) {
	const ok = "name: pdf\ndescription: d\n"
	t.Run("empty compatibility", func(t *testing.T) {
		_, diags := load(t, "pdf", "---\n"+ok+"compatibility: \"\"\n---\n", true)
		if len(diags) != 1 || !strings.Contains(diags[0].Message, "got an empty string") {
			t.Errorf("%v", diags)
		}
	})
	t.Run("wsl2 is linux", func(t *testing.T) {
		s, _ := load(t, "pdf", "---\n"+ok+"platforms: [wsl2, macos]\n---\n", false)
		if diff := cmp.Diff([]string{"linux", "darwin"}, s.Frontmatter.OS); diff != "" {
			t.Error(diff)
		}
	})
	t.Run("Hermes author and prerequisites", func(t *testing.T) {
		s, diags := load(t, "pdf", "---\n"+ok+"author: Ada\nprerequisites:\n  commands: [git, gh]\n  env_vars: [GH_TOKEN]\n---\n", false)
		if len(diags) != 0 {
			t.Errorf("diagnostics: %v", diags)
		}
		fm := s.Frontmatter
		if fm.Author != "Ada" || !cmp.Equal(fm.Requires.Bins, []string{"git", "gh"}) || len(s.Env) != 1 || s.Env[0].Name != "GH_TOKEN" || !s.Env[0].Required {
			t.Errorf("author %q, bins %v, env %v", fm.Author, fm.Requires.Bins, s.Env)
		}
	})
	t.Run("metadata author", func(t *testing.T) {
		s, _ := load(t, "pdf", "---\n"+ok+"metadata:\n  author: Ada\n---\n", false)
		if s.Frontmatter.Author != "Ada" {
			t.Errorf("author %q", s.Frontmatter.Author)
		}
	})
}

func TestSkillFileSpellings(t *testing.T) {
	const content = "---\nname: pdf\ndescription: d\n---\n"
	tests := []struct {
		files    []string
		want     string
		ignored  []string
		infoPath []string
	}{
		{[]string{"SKILL.md"}, "SKILL.md", nil, nil},
		{[]string{"skill.md"}, "skill.md", nil, []string{"pdf/skill.md"}},
		{[]string{"Skill.md"}, "Skill.md", nil, []string{"pdf/Skill.md"}},
		{[]string{"SKILL.MD"}, "SKILL.MD", nil, []string{"pdf/SKILL.MD"}},
		{[]string{"Skill.md", "skill.md", "SKILL.md"}, "SKILL.md", []string{"skill.md", "Skill.md"}, []string{"pdf/skill.md", "pdf/Skill.md"}},
		{[]string{"Skill.md", "skill.md"}, "skill.md", []string{"Skill.md"}, []string{"pdf/skill.md", "pdf/Skill.md"}},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.files, ","), func(t *testing.T) {
			fsys := fstest.MapFS{"pdf/notes.md": {Data: []byte("x")}}
			for _, f := range tt.files {
				fsys["pdf/"+f] = &fstest.MapFile{Data: []byte(content)}
			}
			s, diags := skill.Load(fsys, "pdf", nil)
			if s == nil {
				t.Fatal(diags)
			}
			if s.File != tt.want {
				t.Errorf("file %q, want %q", s.File, tt.want)
			}
			var paths, ignored []string
			for _, d := range diags {
				if d.Code != diagnostics.SkillFileLowercase || d.Level != diagnostics.Info {
					t.Errorf("unexpected %v", d)
				}
				paths = append(paths, d.Path)
				if v, ok := d.Detail["ignored"].(string); ok {
					ignored = append(ignored, v)
				}
			}
			if diff := cmp.Diff(tt.ignored, ignored); diff != "" {
				t.Errorf("ignored spellings (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.infoPath, paths); diff != "" {
				t.Errorf("diagnostic paths (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff([]string{"notes.md"}, s.Files); diff != "" {
				t.Errorf("a spelling of SKILL.md is listed as an attached file: %s", diff)
			}
			if body, err := s.Body(); err != nil {
				t.Errorf("body: %v", err)
			} else if body != "" {
				t.Errorf("body %q", body)
			}
		})
	}
}

// TestSkillFileSpellingsStrict: strict mode warns on spellings readers that
// follow the specification do not find.
func TestSkillFileSpellingsStrict(t *testing.T) {
	for file, want := range map[string]diagnostics.Level{"SKILL.md": -1, "skill.md": diagnostics.Info, "Skill.md": diagnostics.Warning, "SKILL.MD": diagnostics.Warning} {
		fsys := fstest.MapFS{"pdf/" + file: {Data: []byte("---\nname: pdf\ndescription: d\n---\n")}}
		s, diags := skill.Load(fsys, "pdf", &skill.LoadOptions{Strict: true})
		if s == nil {
			t.Fatalf("%s: %v", file, diags)
		}
		got := diags.WithCode(diagnostics.SkillFileLowercase)
		if want < 0 && len(got) != 0 || want >= 0 && (len(got) != 1 || got[0].Level != want) {
			t.Errorf("%s: %v", file, diags)
		}
	}
}

func TestNestedSkillNamed(t *testing.T) {
	fsys := fstest.MapFS{
		"outer/SKILL.md":                          {Data: []byte("---\nname: outer\ndescription: d\n---\n")},
		"outer/skills/inner/SKILL.md":             {Data: []byte("---\nname: inner\ndescription: d\n---\n")},
		"outer/.claude/skills/hidden/Skill.md":    {Data: []byte("---\nname: hidden\ndescription: d\n---\n")},
		"outer/node_modules/pkg/SKILL.md":         {Data: []byte("never looked at")},
		"outer/references/SKILL-GUIDE.md":         {Data: []byte("not a skill file")},
		"outer/skills/inner/references/format.md": {Data: []byte("x")},
	}
	s, diags := skill.Load(fsys, "outer", &skill.LoadOptions{DiskRoot: "/srv"})
	if s == nil {
		t.Fatal(diags)
	}
	var got []string
	for _, d := range diags {
		if d.Code != diagnostics.NestedSkill || d.Skill != "outer" || d.Detail["outer"] != "outer" {
			t.Errorf("unexpected %v", d)
		}
		got = append(got, d.Path)
	}
	want := []string{"/srv/outer/.claude/skills/hidden/Skill.md", "/srv/outer/skills/inner/SKILL.md"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("nested skill files (-want +got):\n%s", diff)
	}
}

// TestRecoveredShapes: the shapes other clients read although they are not
// YAML load leniently, with the text as written, and fail strictly.
func TestRecoveredShapes(t *testing.T) {
	tests := []struct{ name, front, want string }{
		{"colon ending a continuation line",
			"description: Collects posts and ranks them. Core abilities:\n\n  - fetches the feed\n\n  Use for:\n\n  - daily digests\n",
			"Collects posts and ranks them. Core abilities:\n- fetches the feed\nUse for:\n- daily digests"},
		{"colon ending only a later line", "description: Collects posts and ranks them,\n  for a digest. Use for:\n  - daily digests\n",
			"Collects posts and ranks them, for a digest. Use for: - daily digests"},
		{"backtick first", "description: `gh` made easy for pull requests\n", "`gh` made easy for pull requests"},
		{"at sign first", "description: @mentions are read\nauthor: @ada\n", "@mentions are read"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			content := "---\nname: feed\n" + tt.front + "license: MIT\n---\nbody\n"
			s, diags := load(t, "feed", content, false)
			if s == nil {
				t.Fatalf("not loaded: %v", diags)
			}
			if s.Description != tt.want || s.Frontmatter.License != "MIT" {
				t.Errorf("description %q, license %q", s.Description, s.Frontmatter.License)
			}
			rec := diags.WithCode(diagnostics.FrontmatterRecovered)
			if len(rec) != 1 || rec[0].Level != diagnostics.Warning {
				t.Errorf("want one FRONTMATTER_RECOVERED warning: %v", diags)
			}
			if _, diags = load(t, "feed", content, true); !diags.HasErrors() {
				t.Errorf("strict: no error: %v", diags)
			}
		})
	}
}

// TestNestedUnderFailedNamed: the skills inside a folder whose own skill
// does not load are named, as warnings.
func TestNestedUnderFailedNamed(t *testing.T) {
	for name, outer := range map[string]string{
		"invalid YAML":   "---\nname: outer\ndescription: [x\n---\n",
		"no description": "---\nname: outer\n---\n",
	} {
		t.Run(name, func(t *testing.T) {
			fsys := fstest.MapFS{
				"outer/SKILL.md":           {Data: []byte(outer)},
				"outer/skills/in/SKILL.md": {Data: []byte("---\nname: in\ndescription: d\n---\n")},
			}
			s, diags := skill.Load(fsys, "outer", nil)
			if s != nil {
				t.Fatal("loaded")
			}
			nested := diags.WithCode(diagnostics.NestedSkill)
			if len(nested) != 1 || nested[0].Path != "outer/skills/in/SKILL.md" || nested[0].Level != diagnostics.Warning || nested[0].Detail["outer"] != "outer" {
				t.Errorf("%v", diags)
			}
		})
	}
	// A folder that is no skill names nothing nested in it.
	fsys := fstest.MapFS{"group/in/SKILL.md": {Data: []byte("---\nname: in\ndescription: d\n---\n")}}
	if _, diags := skill.Load(fsys, "group", nil); len(diags.WithCode(diagnostics.NestedSkill)) != 0 {
		t.Errorf("%v", diags)
	}
}

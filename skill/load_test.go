package skill_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"github.com/skillkit-go/skillkit/diagnostics"
	"github.com/skillkit-go/skillkit/skill"
)

// load loads skills/<folder> from a map file system holding SKILL.md with the
// given content plus extra files.
func load(t *testing.T, folder, content string, strict bool, extra ...string) (*skill.Skill, diagnostics.List) {
	t.Helper()
	fsys := fstest.MapFS{"skills/" + folder + "/SKILL.md": {Data: []byte(content)}}
	for i := 0; i+1 < len(extra); i += 2 {
		fsys["skills/"+folder+"/"+extra[i]] = &fstest.MapFile{Data: []byte(extra[i+1])}
	}
	return skill.Load(fsys, "skills/"+folder, &skill.LoadOptions{Strict: strict})
}

// codes lists "LEVEL CODE" for each diagnostic, sorted, for comparison.
func codes(diags diagnostics.List) []string {
	out := []string{}
	for _, d := range diags {
		out = append(out, d.Level.String()+" "+string(d.Code))
	}
	slices.Sort(out)
	return out
}

func TestLoadRules(t *testing.T) {
	const ok = "description: Does things. Use when asked.\n"
	tests := []struct {
		name     string
		folder   string
		content  string
		strict   bool
		loaded   bool
		wantName string
		want     []string // sorted "level CODE"
		message  string   // in the first diagnostic's message
	}{
		{name: "minimal valid", folder: "pdf", content: "---\nname: pdf\n" + ok + "---\nbody", loaded: true, wantName: "pdf", want: []string{}},
		{name: "strict valid", folder: "pdf", content: "---\nname: pdf\n" + ok + "license: MIT\ncompatibility: Needs git\nallowed-tools: Read Bash(git:*)\nmetadata:\n  author: x\n---\n", strict: true, loaded: true, wantName: "pdf", want: []string{}},
		{name: "no frontmatter", folder: "pdf", content: "# Title\n", want: []string{"error FRONTMATTER_INVALID"}},
		{name: "unclosed frontmatter", folder: "pdf", content: "---\nname: pdf\n" + ok, want: []string{"error FRONTMATTER_INVALID"}},
		{name: "not YAML", folder: "pdf", content: "---\nname: [pdf\n---\n", want: []string{"error FRONTMATTER_INVALID"}},
		{name: "not a mapping", folder: "pdf", content: "---\n- a\n- b\n---\n", want: []string{"error FRONTMATTER_INVALID"}},
		{name: "scalar frontmatter", folder: "pdf", content: "---\njust text\n---\n", want: []string{"error FRONTMATTER_INVALID"}},
		{name: "empty frontmatter", folder: "pdf", content: "---\n---\nbody\n", want: []string{"error DESC_MISSING", "warning NAME_INVALID"}},
		{name: "recovered colon", folder: "pdf", content: "---\nname: pdf\ndescription: Use this skill when: the user asks\n---\n", loaded: true, wantName: "pdf", want: []string{"warning FRONTMATTER_RECOVERED"}},
		{name: "recovered colon is an error when strict", folder: "pdf", content: "---\nname: pdf\ndescription: Use when: asked\n---\n", strict: true, loaded: true, wantName: "pdf", want: []string{"error FRONTMATTER_RECOVERED"}},
		{name: "tab indentation recovered", folder: "pdf", content: "---\nname: pdf\n" + ok + "metadata:\n\tauthor: x\n---\n", loaded: true, wantName: "pdf", want: []string{"warning FRONTMATTER_RECOVERED"}},
		{name: "tab inside a value is fine", folder: "pdf", content: "---\nname: pdf\ndescription: a\tb\n---\n", loaded: true, wantName: "pdf", want: []string{}},
		{name: "duplicate key", folder: "pdf", content: "---\nname: pdf\n" + ok + ok + "---\n", loaded: true, wantName: "pdf", want: []string{"warning FIELD_INVALID"}},
		{name: "duplicate key strict", folder: "pdf", content: "---\nname: pdf\n" + ok + ok + "---\n", strict: true, loaded: true, wantName: "pdf", want: []string{"error FIELD_INVALID"}},
		{name: "missing description", folder: "pdf", content: "---\nname: pdf\n---\n", want: []string{"error DESC_MISSING"}},
		{name: "empty description", folder: "pdf", content: "---\nname: pdf\ndescription:\n---\n", want: []string{"error DESC_MISSING"}},
		{name: "quoted empty description", folder: "pdf", content: "---\nname: pdf\ndescription: \"\"\n---\n", want: []string{"error DESC_MISSING"}},
		{name: "blank description", folder: "pdf", content: "---\nname: pdf\ndescription: '   '\n---\n", want: []string{"error DESC_MISSING"}},
		{name: "description is a list", folder: "pdf", content: "---\nname: pdf\ndescription: [a, b]\n---\n", want: []string{"error DESC_MISSING", "warning FIELD_INVALID"}},
		{name: "description too long", folder: "pdf", content: "---\nname: pdf\ndescription: " + strings.Repeat("x", 1025) + "\n---\n", loaded: true, wantName: "pdf", want: []string{"warning DESC_TOO_LONG"}},
		{name: "description 1024 CJK characters is fine", folder: "pdf", content: "---\nname: pdf\ndescription: " + strings.Repeat("文", 1024) + "\n---\n", loaded: true, wantName: "pdf", want: []string{}},
		{name: "description too long strict", folder: "pdf", content: "---\nname: pdf\ndescription: " + strings.Repeat("x", 1025) + "\n---\n", strict: true, loaded: true, wantName: "pdf", want: []string{"error DESC_TOO_LONG"}},
		{name: "description with XML tag", folder: "pdf", content: "---\nname: pdf\ndescription: Wraps <ViewTransition> elements\n---\n", loaded: true, wantName: "pdf", want: []string{"warning DESC_HAS_XML"}},
		{name: "XML tag stays a warning when strict", folder: "pdf", content: "---\nname: pdf\ndescription: Wraps <b>bold</b>\n---\n", strict: true, loaded: true, wantName: "pdf", want: []string{"warning DESC_HAS_XML"}},
		{name: "a < b is not a tag", folder: "pdf", content: "---\nname: pdf\ndescription: Use when a < b and c > d\n---\n", loaded: true, wantName: "pdf", want: []string{}},
		{name: "missing name uses folder", folder: "pdf", content: "---\n" + ok + "---\n", loaded: true, wantName: "pdf", want: []string{"warning NAME_INVALID"}},
		{name: "upper-case name", folder: "PDF", content: "---\nname: PDF\n" + ok + "---\n", loaded: true, wantName: "PDF", want: []string{"warning NAME_INVALID"}},
		{name: "upper-case name strict", folder: "PDF", content: "---\nname: PDF\n" + ok + "---\n", strict: true, loaded: true, wantName: "PDF", want: []string{"error NAME_INVALID"}},
		{name: "leading hyphen", folder: "-pdf", content: "---\nname: -pdf\n" + ok + "---\n", loaded: true, wantName: "-pdf", want: []string{"warning NAME_INVALID"}},
		{name: "trailing hyphen", folder: "pdf-", content: "---\nname: pdf-\n" + ok + "---\n", loaded: true, wantName: "pdf-", want: []string{"warning NAME_INVALID"}},
		{name: "double hyphen", folder: "pdf--x", content: "---\nname: pdf--x\n" + ok + "---\n", loaded: true, wantName: "pdf--x", want: []string{"warning NAME_INVALID"}},
		{name: "name 64 characters", folder: strings.Repeat("a", 64), content: "---\nname: " + strings.Repeat("a", 64) + "\n" + ok + "---\n", loaded: true, wantName: strings.Repeat("a", 64), want: []string{}},
		{name: "name 65 characters", folder: strings.Repeat("a", 65), content: "---\nname: " + strings.Repeat("a", 65) + "\n" + ok + "---\n", loaded: true, wantName: strings.Repeat("a", 65), want: []string{"warning NAME_INVALID"}},
		{name: "name mismatch", folder: "pdf", content: "---\nname: pdf-tools\n" + ok + "---\n", loaded: true, wantName: "pdf-tools", want: []string{"warning NAME_MISMATCH"}},
		{name: "name mismatch strict", folder: "pdf", content: "---\nname: pdf-tools\n" + ok + "---\n", strict: true, loaded: true, wantName: "pdf-tools", want: []string{"error NAME_MISMATCH"}},
		{name: "NFKC folder name matches", folder: "ｐｄｆ", content: "---\nname: pdf\n" + ok + "---\n", loaded: true, wantName: "pdf", want: []string{}},
		{name: "NFKC name matches folder", folder: "pdf", content: "---\nname: ｐｄｆ\n" + ok + "---\n", loaded: true, wantName: "pdf", want: []string{}},
		{name: "CJK name", folder: "数据分析", content: "---\nname: 数据分析\n" + ok + "---\n", loaded: true, wantName: "数据分析", want: []string{"warning NAME_INVALID"}},
		{name: "CJK name strict", folder: "数据分析", content: "---\nname: 数据分析\n" + ok + "---\n", strict: true, loaded: true, wantName: "数据分析", want: []string{"error NAME_INVALID"}},
		{name: "reserved word", folder: "claude-helper", content: "---\nname: claude-helper\n" + ok + "---\n", loaded: true, wantName: "claude-helper", want: []string{"warning NAME_RESERVED"}},
		{name: "reserved word stays a warning when strict", folder: "anthropic-x", content: "---\nname: anthropic-x\n" + ok + "---\n", strict: true, loaded: true, wantName: "anthropic-x", want: []string{"warning NAME_RESERVED"}},
		{name: "compatibility too long", folder: "pdf", content: "---\nname: pdf\n" + ok + "compatibility: " + strings.Repeat("é", 501) + "\n---\n", loaded: true, wantName: "pdf", want: []string{"warning COMPAT_TOO_LONG"}},
		{name: "compatibility 500 characters", folder: "pdf", content: "---\nname: pdf\n" + ok + "compatibility: " + strings.Repeat("é", 500) + "\n---\n", loaded: true, wantName: "pdf", want: []string{}},
		{name: "empty compatibility strict", folder: "pdf", content: "---\nname: pdf\n" + ok + "compatibility: ''\n---\n", strict: true, loaded: true, wantName: "pdf", want: []string{"error FIELD_INVALID"}},
		{name: "unknown field is info", folder: "pdf", content: "---\nname: pdf\n" + ok + "owner: me\n---\n", loaded: true, wantName: "pdf", want: []string{"info FIELD_UNKNOWN"}},
		{name: "Hermes top-level fields are known", folder: "pdf", content: "---\nname: pdf\n" + ok + "author: me\nprerequisites:\n  commands: [git]\n  env_vars: [API_KEY]\n---\n", loaded: true, wantName: "pdf", want: []string{}},
		{name: "allowed-tools as a list is info", folder: "pdf", content: "---\nname: pdf\n" + ok + "allowed-tools:\n  - Read\n---\n", loaded: true, wantName: "pdf", want: []string{"info FIELD_INVALID"}},
		{name: "allowed-tools as a list strict", folder: "pdf", content: "---\nname: pdf\n" + ok + "allowed-tools: [Read, Write]\n---\n", strict: true, loaded: true, wantName: "pdf", want: []string{"error FIELD_INVALID"}},
		{name: "byte order mark", folder: "pdf", content: "\ufeff---\nname: pdf\n" + ok + "---\n", loaded: true, wantName: "pdf", want: []string{"info BYTE_ORDER_MARK"}},
		{name: "UTF-16", folder: "pdf", content: utf16le("---\nname: pdf\n" + ok + "---\n"), want: []string{"error FRONTMATTER_INVALID"}, message: "UTF-16 (little-endian"},
		{name: "Latin-1", folder: "pdf", content: "---\nname: pdf\ndescription: R\xe9sum\xe9s\n---\n", want: []string{"error FRONTMATTER_INVALID"}, message: "not UTF-8 (byte 0xe9 on line 3)"},
		{name: "CR line ends", folder: "pdf", content: "---\rname: pdf\r" + strings.ReplaceAll(ok, "\n", "\r") + "---\rBody\r", loaded: true, wantName: "pdf", want: []string{"info LINE_ENDS"}},
		{name: "byte order mark strict", folder: "pdf", content: "\ufeff---\nname: pdf\n" + ok + "---\n", strict: true, loaded: true, wantName: "pdf", want: []string{"info BYTE_ORDER_MARK"}},
		{name: "one broken field is left out", folder: "ui-component", content: brokenField, loaded: true, wantName: "ui-component", want: []string{"warning FRONTMATTER_RECOVERED"}},
		{name: "one broken field strict", folder: "ui-component", content: brokenField, strict: true, want: []string{"error FRONTMATTER_INVALID"}},
		{name: "broken list further down", folder: "pdf", content: "---\nname: pdf\n" + ok + "metadata:\n  tags: [a, b\n  author: x\nlicense: MIT\n---\n", loaded: true, wantName: "pdf", want: []string{"warning FRONTMATTER_RECOVERED"}},
		{name: "broken name is not recovered", folder: "pdf", content: "---\nname: \"pdf\n" + ok + "---\n", want: []string{"error FRONTMATTER_INVALID"}},
		{name: "broken description is not recovered", folder: "pdf", content: "---\nname: pdf\ndescription: [a, b\nlicense: MIT\n---\n", want: []string{"error FRONTMATTER_INVALID"}},
		{name: "garbage before the first field", folder: "pdf", content: "---\n\"oops\nname: pdf\n" + ok + "---\n", loaded: true, wantName: "pdf", want: []string{"warning FRONTMATTER_RECOVERED"}},
		{name: "dialect fields are known", folder: "pdf", content: "---\nname: pdf\n" + ok + "version: 1.0\ndisable-model-invocation: true\nuser-invocable: false\nwhen_to_use: x\nplatforms: [linux]\nrequired_environment_variables: [API_KEY]\n---\n", loaded: true, wantName: "pdf", want: []string{}},
		{name: "dialect fields are errors when strict", folder: "pdf", content: "---\nname: pdf\n" + ok + "version: 1.0\n---\n", strict: true, loaded: true, wantName: "pdf", want: []string{"error FIELD_UNKNOWN"}},
		{name: "non-string metadata is fine lenient", folder: "pdf", content: "---\nname: pdf\n" + ok + "metadata:\n  count: 3\n  sources: [a, b]\n---\n", loaded: true, wantName: "pdf", want: []string{}},
		{name: "dates in metadata are strings", folder: "pdf", content: "---\nname: pdf\n" + ok + "metadata:\n  updated: 2025-01-31\n---\n", strict: true, loaded: true, wantName: "pdf", want: []string{}},
		{name: "JSON metadata strict", folder: "pdf", content: "---\nname: pdf\n" + ok + "metadata: '{\"author\": \"x\"}'\n---\n", strict: true, loaded: true, wantName: "pdf", want: []string{"error FIELD_INVALID"}},
		{name: "JSON metadata lenient", folder: "pdf", content: "---\nname: pdf\n" + ok + "metadata: '{\"author\": \"x\"}'\n---\n", loaded: true, wantName: "pdf", want: []string{}},
		{name: "list metadata strict", folder: "pdf", content: "---\nname: pdf\n" + ok + "metadata: [a, b]\n---\n", strict: true, loaded: true, wantName: "pdf", want: []string{"error FIELD_INVALID"}},
		{name: "string metadata strict", folder: "pdf", content: "---\nname: pdf\n" + ok + "metadata: by ada\n---\n", strict: true, loaded: true, wantName: "pdf", want: []string{"error FIELD_INVALID"}},
		{name: "non-string metadata strict", folder: "pdf", content: "---\nname: pdf\n" + ok + "metadata:\n  count: 3\n  sources: [a, b]\n  ok: 'x'\n---\n", strict: true, loaded: true, wantName: "pdf", want: []string{"error FIELD_INVALID", "error FIELD_INVALID"}},
		{name: "metadata not a mapping", folder: "pdf", content: "---\nname: pdf\n" + ok + "metadata: [a]\n---\n", loaded: true, wantName: "pdf", want: []string{"warning FIELD_INVALID"}},
		{name: "bad boolean", folder: "pdf", content: "---\nname: pdf\n" + ok + "disable-model-invocation: maybe\n---\n", loaded: true, wantName: "pdf", want: []string{"warning FIELD_INVALID"}},
		{name: "license as a list", folder: "pdf", content: "---\nname: pdf\n" + ok + "license: [MIT]\n---\n", loaded: true, wantName: "pdf", want: []string{"warning FIELD_INVALID"}},
		{name: "bad env name", folder: "pdf", content: "---\nname: pdf\n" + ok + "required_environment_variables: [LD_PRELOAD, 'BAD-NAME', GOOD]\n---\n", loaded: true, wantName: "pdf", want: []string{"warning FIELD_INVALID", "warning FIELD_INVALID"}},
		{name: "alias bomb", folder: "pdf", content: "---\nname: pdf\n" + ok + aliasBomb + "---\n", want: []string{"error FRONTMATTER_INVALID"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, diags := load(t, tt.folder, tt.content, tt.strict)
			if (s != nil) != tt.loaded {
				t.Fatalf("loaded = %v, want %v; diagnostics: %v", s != nil, tt.loaded, diags)
			}
			if s != nil && s.Name != tt.wantName {
				t.Errorf("name = %q, want %q", s.Name, tt.wantName)
			}
			if diff := cmp.Diff(tt.want, codes(diags)); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s\n%v", diff, diags)
			}
			if tt.message != "" && (len(diags) == 0 || !strings.Contains(diags[0].Message, tt.message)) {
				t.Errorf("want a message with %q: %v", tt.message, diags)
			}
			for _, d := range diags {
				if d.Skill == "" || d.Path == "" || d.Message == "" {
					t.Errorf("diagnostic without skill, path or message: %#v", d)
				}
			}
		})
	}
}

// brokenField is a scraped skill whose summary has an unterminated quote:
// the YAML as a whole does not parse, its name and description do.
const brokenField = `---
name: "ui-component"
summary: "UI组件代码生成。UI component generator:
license: "MIT"
description: |-
  Generates UI components. Use when building forms, tables and cards.
---
Body.
`

// aliasBomb expands to 10^9 nodes if aliases are followed without a budget.
const aliasBomb = `metadata:
  a: &a ["x","x","x","x","x","x","x","x","x","x"]
  b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]
  c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]
  d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]
  e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d,*d]
  f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e,*e]
  g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f,*f]
  h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g,*g]
  i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h,*h]
`

func TestParseValues(t *testing.T) {
	content := "---\n" + `name: pdf
description: >
  Folded description
  over two lines.
version: 1.0
license: yes
allowed-tools: Bash(git add:*), Read
metadata:
  version: 2.10
  author: me
  tags: [a, b]
  nested:
    list:
      - 1
      - true
    map: {k: v}
  empty:
` + "---\n\nBody with --- inside\n---\nand a rule above.\n"
	doc, diags := skill.Parse([]byte(content), nil)
	if len(diags) != 0 {
		t.Fatalf("diagnostics: %v", diags)
	}
	fm := doc.Frontmatter
	if fm.Description != "Folded description over two lines." {
		t.Errorf("description = %q", fm.Description)
	}
	if fm.Version != "1.0" || fm.License != "yes" {
		t.Errorf("version = %q, license = %q: scalars must keep their source text", fm.Version, fm.License)
	}
	if diff := cmp.Diff([]string{"Bash(git add:*)", "Read"}, fm.AllowedTools); diff != "" {
		t.Errorf("allowed tools: %s", diff)
	}
	wantMeta := map[string]any{
		"version": "2.10", "author": "me", "tags": []any{"a", "b"},
		"nested": map[string]any{"list": []any{"1", "true"}, "map": map[string]any{"k": "v"}},
		"empty":  nil,
	}
	if diff := cmp.Diff(wantMeta, fm.Metadata); diff != "" {
		t.Errorf("metadata (-want +got):\n%s", diff)
	}
	if doc.Body != "Body with --- inside\n---\nand a rule above." {
		t.Errorf("body = %q", doc.Body)
	}
}

func TestParseLiteralDescriptionAndLists(t *testing.T) {
	doc, diags := skill.Parse([]byte("---\nname: x\ndescription: |\n  line one\n  line two\nallowed-tools:\n  - Read\n  - Write\n---\n"), nil)
	// A list is read, and named as not the specification's form.
	if diff := cmp.Diff([]string{"info FIELD_INVALID"}, codes(diags)); diff != "" {
		t.Fatal(diff)
	}
	if doc.Frontmatter.Description != "line one\nline two" {
		t.Errorf("description = %q", doc.Frontmatter.Description)
	}
	if diff := cmp.Diff([]string{"Read", "Write"}, doc.Frontmatter.AllowedTools); diff != "" {
		t.Error(diff)
	}
	doc, _ = skill.Parse([]byte("---\nname: x\ndescription: y\nallowed-tools: [Read, \"Bash(ls:*)\"]\n---\n"), nil)
	if diff := cmp.Diff([]string{"Read", "Bash(ls:*)"}, doc.Frontmatter.AllowedTools); diff != "" {
		t.Error(diff)
	}
	doc, _ = skill.Parse([]byte("---\nname: x\ndescription: y\nallowed-tools: Read Write  Bash(git commit:*)\n---\n"), nil)
	if diff := cmp.Diff([]string{"Read", "Write", "Bash(git commit:*)"}, doc.Frontmatter.AllowedTools); diff != "" {
		t.Error(diff)
	}
}

func TestDialects(t *testing.T) {
	content := "---\n" + `name: multi
description: Uses every dialect.
version: 1.2.0
disable-model-invocation: true
user-invocable: false
when_to_use: When testing.
platforms: [macos, linux]
required_environment_variables:
  - name: HERMES_KEY
    prompt: Your Hermes key
  - PLAIN_VAR
metadata:
  skillType: compute
  emoji: "🔧"
  tags: [seed]
  category: tools
  conditions:
    requires_tools: [bash]
    fallback_for_tools: [selenium]
  requires:
    bins: [ffmpeg]
    tools: [file_read]
  install:
    - id: node-dep
      kind: node
      package: "@scope/pkg"
      label: Install it
  references:
    required: [references/a.md]
    optional: [./references/b.md]
    routes:
      - match: [create, 新建]
        required_refs: [references/c.md]
  env:
    - name: SEED_KEY
      required: true
      description: The seed key
      default: abc
  openclaw: '{"emoji":"🦞","os":["darwin","win32"],"always":true,"primaryEnv":"OC_KEY","requires":{"bins":["jq"],"anyBins":["node","bun"],"env":["OC_KEY"],"config":["browser.enabled"]},"install":[{"kind":"brew","formula":"jq","bins":["jq"]}]}'
  hermes:
    tags: [hermes, seed]
    category: ignored-because-seed-set-it
    requires_toolsets: [web]
    fallback_for_toolsets: [browser]
    requires_tools: [terminal]
` + "---\nbody\n"
	doc, diags := skill.Parse([]byte(content), nil)
	if len(diags) != 0 {
		t.Fatalf("diagnostics: %v", diags)
	}
	fm := doc.Frontmatter
	f := false
	def := "abc"
	want := skill.Frontmatter{
		Name: "multi", Description: "Uses every dialect.", Version: "1.2.0",
		DisableModelInvocation: true, UserInvocable: &f, WhenToUse: "When testing.",
		SkillType: "compute", Emoji: "🔧", Tags: []string{"seed", "hermes"}, Category: "tools",
		Conditions: skill.Conditions{
			RequiresTools:       []string{"bash", "terminal", "file_read"},
			FallbackForTools:    []string{"selenium"},
			RequiresToolsets:    []string{"web"},
			FallbackForToolsets: []string{"browser"},
		},
		Requires: skill.Requires{Bins: []string{"ffmpeg", "jq"}, AnyBins: []string{"node", "bun"}, Env: []string{"OC_KEY"},
			Config: []string{"browser.enabled"}, Tools: []string{"file_read"}},
		OS:         []string{"darwin", "linux", "windows"},
		Always:     true,
		PrimaryEnv: "OC_KEY",
		Install: []skill.InstallSpec{
			{ID: "node-dep", Kind: "node", Package: "@scope/pkg", Label: "Install it"},
			{Kind: "brew", Formula: "jq", Bins: []string{"jq"}},
		},
		References: &skill.References{
			Required: []string{"references/a.md"}, Optional: []string{"references/b.md"},
			Routes: []skill.Route{{Match: []string{"create", "新建"}, RequiredRefs: []string{"references/c.md"}}},
		},
		Env: []skill.EnvVar{
			{Name: "HERMES_KEY", Required: true, Description: "Your Hermes key"},
			{Name: "PLAIN_VAR", Required: true},
			{Name: "SEED_KEY", Required: true, Description: "The seed key", Default: &def},
		},
	}
	if diff := cmp.Diff(want, fm, cmpIgnoreRawAndMetadata); diff != "" {
		t.Errorf("frontmatter (-want +got):\n%s", diff)
	}
}

var cmpIgnoreRawAndMetadata = cmp.FilterPath(func(p cmp.Path) bool {
	switch p.Last().String() {
	case ".Raw", ".Metadata":
		return true
	}
	return false
}, cmp.Ignore())

func TestOpenClawMetadataAsJSONString(t *testing.T) {
	// OpenClaw skills often write the whole metadata as one JSON line.
	doc, diags := skill.Parse([]byte("---\nname: x\ndescription: y\nmetadata: {\"clawdbot\":{\"emoji\":\"🦀\",\"requires\":{\"bins\":[\"gh\"]}}}\n---\n"), nil)
	if len(diags) != 0 {
		t.Fatal(diags)
	}
	if doc.Frontmatter.Emoji != "🦀" || !slices.Equal(doc.Frontmatter.Requires.Bins, []string{"gh"}) {
		t.Errorf("got emoji %q bins %v", doc.Frontmatter.Emoji, doc.Frontmatter.Requires.Bins)
	}
	doc, diags = skill.Parse([]byte("---\nname: x\ndescription: y\nmetadata: '{\"openclaw\": {\"always\": true}}'\n---\n"), nil)
	if len(diags) != 0 || !doc.Frontmatter.Always {
		t.Errorf("metadata as a quoted JSON string: always = %v, %v", doc.Frontmatter.Always, diags)
	}
	_, diags = skill.Parse([]byte("---\nname: x\ndescription: y\nmetadata:\n  openclaw: '{not json'\n---\n"), nil)
	if !diags.Has(diagnostics.FieldInvalid) {
		t.Errorf("broken JSON string: want FIELD_INVALID, got %v", diags)
	}
}

func TestLowercaseSkillFile(t *testing.T) {
	fsys := fstest.MapFS{"s/pdf/skill.md": {Data: []byte("---\nname: pdf\ndescription: d\n---\n")}}
	s, diags := skill.Load(fsys, "s/pdf", nil)
	if s == nil || s.File != "skill.md" {
		t.Fatalf("skill.md not loaded: %v", diags)
	}
	if diff := cmp.Diff([]string{"info SKILL_FILE_LOWERCASE"}, codes(diags)); diff != "" {
		t.Error(diff)
	}
	body, err := s.Body()
	if err != nil || body != "" {
		t.Errorf("body = %q, %v", body, err)
	}
}

// TestFileTooLarge: a skill file over the limit loads, with a warning in
// either mode (the specification sets no size limit), and serves its
// instructions up to the last line within the limit; a frontmatter that
// does not end within the limit is refused.
func TestFileTooLarge(t *testing.T) {
	line := strings.Repeat("x", 99) + "\n"
	content := "---\nname: pdf\ndescription: d\n---\n" + strings.Repeat(line, 3000)
	fsys := fstest.MapFS{"pdf/SKILL.md": {Data: []byte(content)}}
	for _, strict := range []bool{false, true} {
		s, diags := skill.Load(fsys, "pdf", &skill.LoadOptions{Strict: strict})
		big := diags.WithCode(diagnostics.FileTooLarge)
		if s == nil || len(big) != 1 || big[0].Level != diagnostics.Warning || diags.HasErrors() {
			t.Fatalf("strict %v: want loaded with a FILE_TOO_LARGE warning, got %v", strict, diags)
		}
		body, err := s.Body()
		if err != nil {
			t.Fatal(err)
		}
		if served := int64(len("---\nname: pdf\ndescription: d\n---\n") + len(body) + 1); served > skill.DefaultMaxFileBytes || served < skill.DefaultMaxFileBytes-100 || !strings.HasSuffix(body, "x") {
			t.Errorf("served %d bytes of %d, limit %d", served, len(content), skill.DefaultMaxFileBytes)
		}
	}
	s, diags := skill.Load(fsys, "pdf", &skill.LoadOptions{MaxFileBytes: 1 << 20})
	if s == nil || len(diags) != 0 {
		t.Fatalf("a raised limit must load it quietly: %v", diags)
	}
	if body, _ := s.Body(); len(body) != len(strings.Repeat(line, 3000))-1 {
		t.Errorf("body %d bytes", len(body))
	}
	fsys["pdf/SKILL.md"].Data = []byte("---\nname: pdf\ndescription: " + strings.Repeat("x", 300<<10) + "\n---\n")
	if s, diags := skill.Load(fsys, "pdf", nil); s != nil || !diags.Has(diagnostics.FileTooLarge) || !diags.HasErrors() {
		t.Fatalf("frontmatter over the limit: %v", diags)
	}
}

func TestFilesAndReferences(t *testing.T) {
	fsys := fstest.MapFS{
		"pdf/SKILL.md":                    {Data: []byte("---\nname: pdf\ndescription: d\n---\nbody")},
		"pdf/references/guide.md":         {Data: []byte("g")},
		"pdf/references/deep/more.md":     {Data: []byte("m")},
		"pdf/scripts/run.py":              {Data: []byte("print(1)")},
		"pdf/requirements.txt":            {Data: []byte("x")},
		"pdf/package.json":                {Data: []byte("{}")},
		"pdf/.env":                        {Data: []byte("A=1")},
		"pdf/.venv/bin/python":            {Data: []byte("")},
		"pdf/node_modules/x/index.js":     {Data: []byte("")},
		"pdf/scripts/__pycache__/r.pyc":   {Data: []byte("")},
		"pdf/.git/config":                 {Data: []byte("")},
		"pdf/references/requirements.txt": {Data: []byte("infra names are infra at any depth")},
		"pdf/references/sub/.ENV":         {Data: []byte("TOKEN=x")},
		"pdf/references/NODE_MODULES/x":   {Data: []byte("")},
	}
	s, diags := skill.Load(fsys, "pdf", nil)
	if s == nil {
		t.Fatal(diags)
	}
	want := []string{"references/deep/more.md", "references/guide.md", "scripts/run.py"}
	if diff := cmp.Diff(want, s.Files); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(skill.References{Optional: want}, s.References); diff != "" {
		t.Errorf("with nothing declared every attached file is optional:\n%s", diff)
	}
	if s.Class != skill.ClassPrompt || s.Config != nil || s.Runnable() {
		t.Errorf("no config: class %s, config %v", s.Class, s.Config)
	}
}

func TestReferencesPrecedence(t *testing.T) {
	front := "---\nname: pdf\ndescription: d\nmetadata:\n  references:\n    required: [references/front.md]\n---\n"
	t.Run("frontmatter", func(t *testing.T) {
		s, diags := load(t, "pdf", front, false, "references/front.md", "x", "references/other.md", "y")
		if s == nil || len(diags) != 0 {
			t.Fatal(diags)
		}
		if diff := cmp.Diff(skill.References{Required: []string{"references/front.md"}}, s.References); diff != "" {
			t.Error(diff)
		}
	})
	t.Run("config wins", func(t *testing.T) {
		cfg := "runtime: bash\nreferences:\n  required: [references/cfg.md]\n  optional: [references/front.md]\n"
		s, diags := load(t, "pdf", front, false, "skill.config.yaml", cfg, "references/cfg.md", "x", "references/front.md", "y")
		if s == nil || len(diags) != 0 {
			t.Fatal(diags)
		}
		want := skill.References{Required: []string{"references/cfg.md"}, Optional: []string{"references/front.md"}}
		if diff := cmp.Diff(want, s.References); diff != "" {
			t.Error(diff)
		}
		if s.Class != skill.ClassComputeToolkit {
			t.Errorf("class = %s", s.Class)
		}
	})
	t.Run("missing", func(t *testing.T) {
		s, diags := load(t, "pdf", front, false)
		if s == nil {
			t.Fatal(diags)
		}
		if diff := cmp.Diff([]string{"warning REFERENCE_MISSING"}, codes(diags)); diff != "" {
			t.Error(diff)
		}
		if diags[0].Detail["reference"] != "references/front.md" {
			t.Errorf("detail = %v", diags[0].Detail)
		}
	})
}

func TestClasses(t *testing.T) {
	const md = "---\nname: s\ndescription: d\n---\n"
	tests := []struct {
		name, config string
		extra        []string
		class        skill.Class
		runnable     bool
		want         []string
	}{
		{"prompt", "", nil, skill.ClassPrompt, false, []string{}},
		{"compute-entry", "runtime: python\nentrypoint: src/main.py\n", []string{"src/main.py", "print(1)"}, skill.ClassComputeEntry, true, []string{}},
		{"compute-entry runtime from extension", "entrypoint: run.sh\n", []string{"run.sh", "echo"}, skill.ClassComputeEntry, true, []string{}},
		{"compute-toolkit", "runtime: node\n", nil, skill.ClassComputeToolkit, false, []string{}},
		{"missing entrypoint", "runtime: python\nentrypoint: src/main.py\n", nil, skill.ClassComputeEntry, false, []string{"error ENTRYPOINT_MISSING"}},
		{"entrypoint leaves the folder", "runtime: python\nentrypoint: ../evil.py\n", nil, skill.ClassPrompt, false, []string{"error CONFIG_PARSE_ERROR"}},
		{"absolute entrypoint", "runtime: python\nentrypoint: /usr/bin/python\n", nil, skill.ClassPrompt, false, []string{"error CONFIG_PARSE_ERROR"}},
		{"setup leaves the folder", "runtime: bash\nsetup:\n  posix: ../../x.sh\n", nil, skill.ClassPrompt, false, []string{"error CONFIG_PARSE_ERROR"}},
		{"broken YAML config", "runtime: [python\n", nil, skill.ClassPrompt, false, []string{"error CONFIG_PARSE_ERROR"}},
		{"unknown runtime", "runtime: ruby\nentrypoint: x.rb\n", []string{"x.rb", ""}, skill.ClassPrompt, false, []string{"error CONFIG_PARSE_ERROR"}},
		{"unknown field", "runtime: bash\ncolour: blue\n", nil, skill.ClassComputeToolkit, false, []string{"info FIELD_UNKNOWN"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			extra := tt.extra
			if tt.config != "" {
				extra = append([]string{"skill.config.yaml", tt.config}, extra...)
			}
			s, diags := load(t, "s", md, false, extra...)
			if s == nil {
				t.Fatalf("a bad config must not hide the skill's instructions: %v", diags)
			}
			if s.Class != tt.class || s.Runnable() != tt.runnable {
				t.Errorf("class %s runnable %v, want %s %v", s.Class, s.Runnable(), tt.class, tt.runnable)
			}
			if diff := cmp.Diff(tt.want, codes(diags)); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s\n%v", diff, diags)
			}
		})
	}
}

func TestSkillReadFileRefusesEscapes(t *testing.T) {
	fsys := fstest.MapFS{
		"skills/a/SKILL.md": {Data: []byte("---\nname: a\ndescription: d\n---\n")},
		"skills/b/secret":   {Data: []byte("no")},
		"top":               {Data: []byte("no")},
	}
	s, _ := skill.Load(fsys, "skills/a", nil)
	for _, p := range []string{"../b/secret", "../../top", "/top", "C:\\x", "a\x00b", ".", ""} {
		if _, err := s.ReadFile(p); err == nil {
			t.Errorf("ReadFile(%q) succeeded", p)
		}
	}
	if data, err := s.ReadFile("SKILL.md"); err != nil || len(data) == 0 {
		t.Errorf("ReadFile(SKILL.md) = %q, %v", data, err)
	}
}

func TestSkillJSON(t *testing.T) {
	s, _ := load(t, "pdf", "---\nname: pdf\ndescription: d\n---\n", false, "skill.config.yaml", "entrypoint: a.py\ntimeout: 1500\n", "a.py", "")
	data, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"class":"compute-entry"`, `"timeout_ms":1500`, `"runtime":"python"`} {
		if !strings.Contains(string(data), want) {
			t.Errorf("JSON lacks %s: %s", want, data)
		}
	}
}

// Strict mode reports the dialect fields as errors but still reads them, so a
// strict loader hides and gates skills as a lenient one does.
func TestStrictStillReadsDialects(t *testing.T) {
	s, diags := load(t, "pdf", "---\nname: pdf\ndescription: d\ndisable-model-invocation: true\nmetadata:\n  conditions:\n    requires_tools: [browser]\n---\n", true)
	if s == nil {
		t.Fatal(diags)
	}
	if !s.Hidden() || !slices.Equal(s.Frontmatter.Conditions.RequiresTools, []string{"browser"}) {
		t.Errorf("hidden %v, requires_tools %v", s.Hidden(), s.Frontmatter.Conditions.RequiresTools)
	}
	if diff := cmp.Diff([]string{"error FIELD_INVALID", "error FIELD_UNKNOWN"}, codes(diags)); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s", diff)
	}
}

// A Skill reads its files later through LoadOptions.KeepFS, not through the
// FS it was loaded from.
func TestLoadKeepFS(t *testing.T) {
	md := []byte("---\nname: kept\ndescription: Kept.\n---\nBody.\n")
	loadFS := fstest.MapFS{"kept/SKILL.md": {Data: md}, "kept/notes.md": {Data: []byte("read during the load")}}
	keep := fstest.MapFS{"kept/SKILL.md": {Data: md}, "kept/notes.md": {Data: []byte("read later")}}
	s, diags := skill.Load(loadFS, "kept", &skill.LoadOptions{KeepFS: keep})
	if s == nil {
		t.Fatal(diags)
	}
	f, err := s.Open("notes.md")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	buf := make([]byte, 64)
	n, _ := f.Read(buf)
	if got := string(buf[:n]); got != "read later" {
		t.Errorf("Open read %q, want the kept FS's file", got)
	}
}

// utf16le encodes ASCII text as UTF-16 little-endian with its byte order
// mark, as Windows editors save "Unicode" text.
func utf16le(text string) string {
	b := []byte{0xff, 0xfe}
	for _, c := range []byte(text) {
		b = append(b, c, 0)
	}
	return string(b)
}

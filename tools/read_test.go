package tools_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/skillkit-go/skillkit/skill"
	"github.com/skillkit-go/skillkit/tools"
)

// mapLookup is a fixed set of skills.
type mapLookup map[string]*skill.Skill

func (m mapLookup) Get(name string) (*skill.Skill, bool) { s, ok := m[name]; return s, ok }

const outsideSecret = "TOP-SECRET-OUTSIDE-THE-SKILL"

// diskSkills writes two skills into a temporary skills folder beside a file
// holding a secret, with symbolic links pointing in and out, and loads them.
func diskSkills(t testing.TB) (mapLookup, string) {
	t.Helper()
	base := t.TempDir()
	root := filepath.Join(base, "skills")
	write := func(rel, content string) {
		p := filepath.Join(base, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("secret.txt", outsideSecret)
	write("skills/other/secret.md", outsideSecret)
	write("skills/other/SKILL.md", "---\nname: other\ndescription: Another skill.\n---\n")
	write("skills/docs/SKILL.md", "---\nname: docs\ndescription: Writes documents.\nmetadata:\n  references:\n    required: [references/format.md]\n---\n# Docs\nRead references/format.md.\n")
	write("skills/docs/references/format.md", "# Format\nUse headings.\n")
	write("skills/docs/references/big.md", strings.Repeat("é", 200_000))
	write("skills/docs/assets/logo.png", "\x89PNG\r\n\x1a\n\x00\x00")
	write("skills/docs/skill.config.yaml", "runtime: bash\n")
	write("skills/docs/.env", "TOKEN="+outsideSecret)
	write("skills/docs/%2e%2e/literal.md", "a file whose name looks encoded")
	links := map[string]string{
		"skills/docs/references/out.md":   "../../../secret.txt",
		"skills/docs/references/abs.md":   filepath.Join(base, "secret.txt"),
		"skills/docs/references/other.md": "../../other/secret.md",
		"skills/docs/references/in.md":    "format.md",
		"skills/docs/outdir":              "../other",
	}
	for link, target := range links {
		if err := os.Symlink(target, filepath.Join(base, link)); err != nil {
			t.Fatal(err)
		}
	}
	skills := mapLookup{}
	for _, name := range []string{"docs", "other"} {
		s, diags := skill.Load(os.DirFS(root), name, &skill.LoadOptions{DiskRoot: root})
		if s == nil {
			t.Fatal(diags)
		}
		skills[name] = s
	}
	return skills, base
}

func call(t testing.TB, tool tools.Tool, args string) tools.Result {
	t.Helper()
	res, err := tool.Invoke(context.Background(), json.RawMessage(args))
	if err != nil {
		t.Fatalf("%s(%s): host error %v", tool.Name, args, err)
	}
	return res
}

func TestReadSkill(t *testing.T) {
	skills, _ := diskSkills(t)
	tool, err := tools.ReadSkill(skills, []string{"docs", "other"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	res := call(t, tool, `{"name":"docs"}`)
	if res.IsError || !strings.Contains(res.Text, "<skill_content name=\"docs\">") || !strings.Contains(res.Text, "- references/format.md") {
		t.Fatalf("read_skill docs:\n%s", res.Text)
	}
	var structured map[string]any
	if err := json.Unmarshal(res.Structured, &structured); err != nil || structured["name"] != "docs" {
		t.Errorf("structured = %s", res.Structured)
	}
	for args, want := range map[string]string{
		`{"name":"nope"}`:             "value must be one of",
		`{}`:                          "at /name: required property is missing",
		`{"name":"docs","extra":1}`:   "at /extra: property is not allowed",
		`{"name":5,"task":["x"]}`:     "at /name",
		`not json`:                    "not valid JSON",
		`{"name":"docs","task":true}`: "at /task",
	} {
		res := call(t, tool, args)
		if !res.IsError || !strings.Contains(res.Text, want) {
			t.Errorf("%s: want an error mentioning %q, got %+v", args, want, res)
		}
	}
	// Both problems are reported at once.
	if res := call(t, tool, `{"name":5,"task":["x"]}`); !strings.Contains(res.Text, "/name") || !strings.Contains(res.Text, "/task") {
		t.Errorf("want every problem, got %s", res.Text)
	}
	// A skill the agent may read that disappeared since.
	gone, _ := tools.ReadSkill(mapLookup{}, []string{"docs"}, nil)
	if res := call(t, gone, `{"name":"docs"}`); !res.IsError || !strings.Contains(res.Text, "no longer installed") {
		t.Errorf("gone skill: %+v", res)
	}
	if _, err := tools.ReadSkill(skills, nil, nil); err == nil {
		t.Error("read_skill without skills must not be built")
	}
}

func TestReadSkillFile(t *testing.T) {
	skills, _ := diskSkills(t)
	tool, err := tools.ReadSkillFile(skills, []string{"docs"}, &tools.ReadOptions{MaxFileBytes: 1000})
	if err != nil {
		t.Fatal(err)
	}
	ok := map[string]string{
		"references/format.md":   "Use headings.",
		"./references/format.md": "Use headings.",
		"references//format.md":  "Use headings.",
		"references/in.md":       "Use headings.", // a link that stays inside
		"%2e%2e/literal.md":      "",              // refused below, listed here to keep the table honest
	}
	delete(ok, "%2e%2e/literal.md")
	for p, want := range ok {
		res := call(t, tool, `{"name":"docs","path":`+quote(p)+`}`)
		if res.IsError || !strings.Contains(res.Text, want) {
			t.Errorf("%s: %+v", p, res)
		}
	}
	refused := map[string]string{
		"../other/secret.md":          "not a path inside the skill folder",
		"references/../../other/x":    "not a path inside the skill folder",
		"/etc/passwd":                 "not a path inside the skill folder",
		"C:\\Windows\\win.ini":        "not a path inside the skill folder",
		"..\\other\\secret.md":        "not a path inside the skill folder",
		"%2e%2e/other/secret.md":      "percent-encoded",
		"%2e%2e/literal.md":           "percent-encoded",
		"references%2fformat.md":      "percent-encoded",
		"references/out.md":           "points outside the skill folder",
		"references/abs.md":           "points outside the skill folder",
		"references/other.md":         "points outside the skill folder",
		"outdir/secret.md":            "points outside the skill folder",
		"references/a\x00b.md":        "NUL",
		strings.Repeat("a/", 600):     "at /path", // over the schema's maxLength
		"skill.config.yaml":           "machinery",
		".env":                        "machinery",
		"SKILL.md":                    "use read_skill",
		"references/nope.md":          "has no file references/nope.md",
		"references":                  "is a folder",
		"references/format.md/x":      "has no file",
		strings.Repeat("n", 300):      "over the limit of 255",
		"references/what?.md":         "Windows file names cannot hold",
		"references/evil\u202egnp.md": "format character U+202E",
		".":                           "not a path inside the skill folder",
	}
	for p, want := range refused {
		res := call(t, tool, `{"name":"docs","path":`+quote(p)+`}`)
		if !res.IsError || !strings.Contains(res.Text, want) {
			t.Errorf("%q: want a refusal mentioning %q, got %+v", p, want, res)
		}
		if strings.Contains(res.Text, outsideSecret) {
			t.Errorf("%q leaked the secret", p)
		}
	}
	missing := call(t, tool, `{"name":"docs","path":"references/nope.md"}`)
	if !strings.Contains(missing.Text, "- references/format.md") {
		t.Errorf("a missing file must list the files that exist:\n%s", missing.Text)
	}
	big := call(t, tool, `{"name":"docs","path":"references/big.md"}`)
	if big.IsError || !strings.Contains(big.Text, "only the first 1000 are shown") || !strings.HasPrefix(big.Text, strings.Repeat("é", 500)) {
		t.Errorf("big file: %.80q", big.Text)
	}
	bin := call(t, tool, `{"name":"docs","path":"assets/logo.png"}`)
	if bin.IsError || !strings.Contains(bin.Text, "binary file") {
		t.Errorf("binary file: %+v", bin)
	}
	if res := call(t, tool, `{"name":"other","path":"secret.md"}`); !res.IsError || !strings.Contains(res.Text, "value must be 'docs'") {
		t.Errorf("a skill outside the agent's list: %+v", res)
	}
}

func TestReadSkillFileFromMapFS(t *testing.T) {
	fsys := fstest.MapFS{
		"skills/a/SKILL.md":          {Data: []byte("---\nname: a\ndescription: d\n---\n")},
		"skills/a/references/r.md":   {Data: []byte("inside")},
		"skills/a/references/big.md": {Data: []byte(strings.Repeat("a", 256<<10+1))},
		"skills/b/SKILL.md":          {Data: []byte("---\nname: b\ndescription: d\n---\n")},
		"skills/b/secret.md":         {Data: []byte(outsideSecret)},
	}
	s, diags := skill.Load(fsys, "skills/a", nil)
	if s == nil {
		t.Fatal(diags)
	}
	tool, _ := tools.ReadSkillFile(mapLookup{"a": s}, []string{"a"}, nil)
	if res := call(t, tool, `{"name":"a","path":"references/r.md"}`); res.IsError || res.Text != "inside" {
		t.Errorf("%+v", res)
	}
	if res := call(t, tool, `{"name":"a","path":"../b/secret.md"}`); !res.IsError || strings.Contains(res.Text, outsideSecret) {
		t.Errorf("%+v", res)
	}
	// nil ReadOptions: the documented default cap of 256 KiB.
	big := call(t, tool, `{"name":"a","path":"references/big.md"}`)
	if text, note, _ := strings.Cut(big.Text, "\n\n"); big.IsError || len(text) != 256<<10 || note != "[references/big.md is 262145 bytes; only the first 262144 are shown]" {
		t.Errorf("a file one byte over the default cap: error %v, %d bytes shown, note %q", big.IsError, len(text), note)
	}
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// FuzzReadSkillFilePath: no path reads a file outside the skill, nor
// infrastructure of the leaky skill (whose infra files hold the secret too).
func FuzzReadSkillFilePath(f *testing.F) {
	skills, _ := diskSkills(f)
	leaky, _ := infraSkill(f)
	skills["leaky"] = leaky
	tool, err := tools.ReadSkillFile(skills, []string{"docs", "leaky"}, nil)
	if err != nil {
		f.Fatal(err)
	}
	for _, seed := range []string{"references/format.md", "../secret.txt", "references/out.md", "%2e%2e/x", "outdir/secret.md",
		"/etc/passwd", "references/../../../secret.txt", "a\x00b", "references\\..\\..\\other\\secret.md", "....//", "references/./in.md",
		"references/up/.env", "references/deep/package.json", "references/up/sub/.ENV", "references/venv/inside.txt"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, p string) {
		for _, name := range []string{"docs", "leaky"} {
			res, err := tool.Invoke(context.Background(), json.RawMessage(`{"name":`+quote(name)+`,"path":`+quote(p)+`}`))
			if err != nil {
				t.Fatalf("%q: host error %v", p, err)
			}
			if strings.Contains(res.Text, outsideSecret) {
				t.Fatalf("%s %q read a file outside the skill or its machinery: %q", name, p, res.Text)
			}
		}
	})
}

// infraSkill writes a skill on disk whose references reach its
// infrastructure in every way: a link to its own folder (up -> ..), links to
// infra files and folders, infra files in subfolders, and a link loop.
func infraSkill(t testing.TB) (*skill.Skill, string) {
	t.Helper()
	root := t.TempDir()
	dir := filepath.Join(root, "leaky")
	write := func(rel, content string) {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("SKILL.md", "---\nname: leaky\ndescription: Its references lead to its machinery.\n---\nLeaky.\n")
	write("references/guide.md", "# Guide\n")
	for _, name := range skill.InfraFiles() {
		write(name, outsideSecret+" in "+name)
		write("sub/"+name, outsideSecret+" in sub/"+name)
	}
	for _, d := range skill.InfraDirs() {
		write(d+"/inside.txt", outsideSecret+" in "+d)
	}
	write("sub/.ENV", outsideSecret+" in sub/.ENV")
	for link, target := range map[string]string{
		"references/up":      "..",
		"references/env.md":  "../.env",
		"references/deep":    "../sub",
		"references/venv":    "../.venv",
		"references/loop":    "loop",
		"references/self.md": "guide.md",
	} {
		if err := os.Symlink(target, filepath.Join(dir, filepath.FromSlash(link))); err != nil {
			t.Skip("cannot create symbolic links:", err)
		}
	}
	s, diags := skill.Load(os.DirFS(root), "leaky", &skill.LoadOptions{DiskRoot: root})
	if s == nil {
		t.Fatal(diags)
	}
	return s, dir
}

// Infrastructure is refused by the path a read resolves to, at any depth,
// and whatever the letter case: every file of skill.InfraFiles, and the
// names the documentation promises, so a list that shrinks fails here too.
func TestReadSkillFileRefusesInfrastructure(t *testing.T) {
	s, _ := infraSkill(t)
	tool, err := tools.ReadSkillFile(mapLookup{"leaky": s}, []string{"leaky"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	pinned := []string{"skill.config.yaml", "requirements.txt", "package.json", "package-lock.json", "tsconfig.json", ".env"}
	for _, name := range pinned {
		if !slices.Contains(skill.InfraFiles(), name) {
			t.Errorf("skill.InfraFiles() lost %s", name)
		}
	}
	paths := map[string]string{ // path: what the refusal says
		"references/up/.env":            "leads to .env, which is part of the skill's machinery",
		"references/env.md":             "leads to .env",
		"references/deep/.env":          "leads to sub/.env",
		"references/deep/.ENV":          "leads to sub/.ENV",
		"sub/.ENV":                      "machinery",
		"references/venv/inside.txt":    "leads to .venv/inside.txt",
		"references/up/.git/inside.txt": "leads to .git/inside.txt",
		"references/loop":               "more than 40 symbolic links",
		"references/up/SKILL.md":        "use read_skill",
	}
	for _, name := range append(slices.Clone(pinned), skill.InfraFiles()...) {
		paths[name] = "machinery"
		paths["sub/"+name] = "machinery"
		paths["references/up/"+name] = "leads to " + name
		paths["references/up/sub/"+name] = "leads to sub/" + name
		paths["references/deep/"+name] = "leads to sub/" + name
	}
	for _, d := range skill.InfraDirs() {
		paths[d+"/inside.txt"] = "machinery"
		paths["references/up/"+d+"/inside.txt"] = "leads to " + d + "/inside.txt"
	}
	for p, want := range paths {
		res := call(t, tool, `{"name":"leaky","path":`+quote(p)+`}`)
		if !res.IsError || !strings.Contains(res.Text, want) || strings.Contains(res.Text, outsideSecret) {
			t.Errorf("%s: want a refusal saying %q, got %+v", p, want, res)
		}
	}
	for p, want := range map[string]string{
		"references/up/references/guide.md": "# Guide",
		"references/self.md":                "# Guide",
		"references/up":                     "leads to the folder of leaky",
	} {
		if res := call(t, tool, `{"name":"leaky","path":`+quote(p)+`}`); !strings.Contains(res.Text, want) {
			t.Errorf("%s: want %q, got %+v", p, want, res)
		}
	}
	if slices.ContainsFunc(s.Files, skill.IsInfra) {
		t.Errorf("the skill lists infrastructure as its files: %q", s.Files)
	}
}

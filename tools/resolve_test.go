package tools_test

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/skillkit-go/skillkit/authoring"
	"github.com/skillkit-go/skillkit/diagnostics"
	"github.com/skillkit-go/skillkit/executor"
	"github.com/skillkit-go/skillkit/internal/skillsdir"
	"github.com/skillkit-go/skillkit/loader"
	"github.com/skillkit-go/skillkit/prompt"
	"github.com/skillkit-go/skillkit/registry"
	"github.com/skillkit-go/skillkit/tools"
)

// fixture writes a skills folder with one skill of each kind and returns a
// loader over it and its registry.
func fixture(t *testing.T) (*loader.Loader, *registry.MemStore) {
	t.Helper()
	dir := t.TempDir()
	write := func(rel, content string) { writeFile(t, dir, rel, content) }
	write("notes/SKILL.md", "---\nname: notes\ndescription: Take notes.\n---\nWrite notes.\n")
	write("notes/references/style.md", "Be brief.\n")
	write("echo/SKILL.md", "---\nname: echo\ndescription: Echo the input.\n---\nCall execute_skill.\n")
	write("echo/skill.config.yaml", "runtime: bash\nentrypoint: run.sh\ninterface:\n  input:\n    text: {type: string, required: true}\n")
	write("echo/run.sh", "cat\n")
	write("csv/SKILL.md", "---\nname: csv\ndescription: CSV scripts.\n---\nRun scripts/x.sh.\n")
	write("csv/skill.config.yaml", "runtime: bash\n")
	write("secret-handshake/SKILL.md", "---\nname: secret-handshake\ndescription: Only by name.\ndisable-model-invocation: true\n---\nHidden body.\n")
	write("browser/SKILL.md", "---\nname: browser\ndescription: Needs a browser tool.\nmetadata:\n  conditions:\n    requires_tools: [browser]\n---\n")
	write("old/SKILL.md", "---\nname: old\ndescription: Disabled in the registry.\n---\n")
	reg := &registry.MemStore{}
	if err := reg.Put(context.Background(), registry.Record{Name: "old", Source: registry.SourceLocal, Enabled: false}); err != nil {
		t.Fatal(err)
	}
	l, err := loader.New(context.Background(), []loader.Source{{Name: "workspace", FS: os.DirFS(dir), Dir: dir, Writable: true}}, reg, nil)
	if err != nil {
		t.Fatal(err)
	}
	return l, reg
}

// manager returns the agents' writer on the fixture's skills folder and
// registry, as the Kit wires one.
func manager(t *testing.T, l *loader.Loader, reg registry.Store) *authoring.Writer {
	t.Helper()
	folder, err := skillsdir.Open(l.Sources()[0].Dir, reg, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { folder.Close() })
	return authoring.New(folder, nil)
}

func toolNames(ts tools.Toolset) []string {
	var names []string
	for _, t := range ts.Tools {
		names = append(names, t.Name)
	}
	return names
}

func TestResolve(t *testing.T) {
	l, reg := fixture(t)
	r := &tools.Resolver{Loader: l, Executor: executor.New(l, nil, nil)}
	ctx := context.Background()

	ts, err := r.Resolve(ctx, tools.Agent{})
	if err != nil {
		t.Fatal(err)
	}
	if got := toolNames(ts); !slices.Equal(got, []string{"read_skill", "read_skill_file", "execute_skill"}) {
		t.Errorf("tools = %v", got)
	}
	for _, want := range []string{`name="notes"`, `name="echo" type="compute-entry"`, `name="csv" type="compute-toolkit"`} {
		if !strings.Contains(ts.Prompt, want) {
			t.Errorf("catalog lacks %s:\n%s", want, ts.Prompt)
		}
	}
	for _, absent := range []string{"secret-handshake", "browser", `"old"`} {
		if strings.Contains(ts.Prompt, absent) {
			t.Errorf("catalog lists %s", absent)
		}
	}
	if len(ts.Warnings) != 1 || !strings.Contains(ts.Warnings[0], "csv are compute-toolkit") {
		t.Errorf("warnings = %q", ts.Warnings)
	}
	// The hidden skill is readable by name; the disabled one is not.
	read, _ := ts.Tool("read_skill")
	if res := call(t, read, `{"name":"secret-handshake"}`); res.IsError || !strings.Contains(res.Text, "Hidden body.") {
		t.Errorf("hidden skill by name: %+v", res)
	}
	if res := call(t, read, `{"name":"old"}`); !res.IsError {
		t.Errorf("a disabled skill was readable: %+v", res)
	}
	exec, _ := ts.Tool("execute_skill")
	if res := call(t, exec, `{"name":"echo","input":{"text":"hi"}}`); res.IsError || res.Text != `{"text":"hi"}` {
		t.Errorf("execute_skill echo: %+v", res)
	}

	ts, _ = r.Resolve(ctx, tools.Agent{Tools: []string{"bash", "browser"}, DisableExecute: true})
	if got := toolNames(ts); !slices.Equal(got, []string{"read_skill", "read_skill_file"}) {
		t.Errorf("tools = %v", got)
	}
	if !strings.Contains(ts.Prompt, `name="browser"`) {
		t.Error("requires_tools met, but the skill is not listed")
	}
	if strings.Contains(ts.Prompt, "execute_skill") || !strings.Contains(ts.Prompt, `name="echo" type="compute-entry"`) {
		t.Errorf("without execute_skill the catalog must not tell the model to call it:\n%s", ts.Prompt)
	}
	if len(ts.Warnings) != 1 || !strings.Contains(ts.Warnings[0], "echo are compute-entry but execute_skill is not offered") {
		t.Errorf("warnings = %q", ts.Warnings)
	}

	ts, _ = r.Resolve(ctx, tools.Agent{Skills: []string{"notes", "browser", "ghost", "old"}})
	if got := toolNames(ts); !slices.Equal(got, []string{"read_skill", "read_skill_file"}) {
		t.Errorf("tools = %v", got)
	}
	want := []string{
		"skill browser is assigned to this agent but hidden: ",
		"skill ghost is assigned to this agent but is not installed",
		"skill old is assigned to this agent but hidden: ",
	}
	if len(ts.Warnings) != 3 {
		t.Fatalf("warnings = %q", ts.Warnings)
	}
	for i, w := range want {
		if !strings.HasPrefix(ts.Warnings[i], w) {
			t.Errorf("warning %d = %q, want prefix %q", i, ts.Warnings[i], w)
		}
	}

	for _, agent := range []tools.Agent{{Skills: []string{}}, {Skills: []string{"browser"}}} {
		ts, _ = r.Resolve(ctx, agent)
		if ts.Prompt != "" || len(ts.Tools) != 0 {
			t.Errorf("agent %+v sees no skill, yet got prompt %q and tools %v", agent.Skills, ts.Prompt, toolNames(ts))
		}
	}

	withManager := &tools.Resolver{Loader: l, Executor: executor.New(l, nil, nil), Manager: manager(t, l, reg)}
	ts, _ = withManager.Resolve(ctx, tools.Agent{Tools: []string{"bash"}})
	if got := toolNames(ts); !slices.Equal(got, []string{"read_skill", "read_skill_file", "execute_skill", "skill_manage"}) {
		t.Errorf("tools = %v", got)
	}
	ts, _ = withManager.Resolve(ctx, tools.Agent{DisableManage: true})
	if slices.Contains(toolNames(ts), "skill_manage") {
		t.Error("DisableManage ignored")
	}
	// An agent that sees no skill may still write one.
	ts, _ = withManager.Resolve(ctx, tools.Agent{Skills: []string{}})
	if got := toolNames(ts); !slices.Equal(got, []string{"skill_manage"}) || ts.Prompt != "" {
		t.Errorf("agent without skills: tools %v, prompt %q", got, ts.Prompt)
	}
	if _, err := (&tools.Resolver{}).Resolve(ctx, tools.Agent{}); err == nil {
		t.Error("a resolver without loader resolved")
	}
}

// Hidden skills "can still be loaded explicitly through read_skill": an
// agent assigned only hidden skills has an empty catalog, and still the
// read tools over exactly those skills.
func TestResolveOnlyHiddenSkills(t *testing.T) {
	l, reg := fixture(t)
	r := &tools.Resolver{Loader: l, Executor: executor.New(l, nil, nil), Manager: manager(t, l, reg)}
	ts, err := r.Resolve(t.Context(), tools.Agent{Skills: []string{"secret-handshake"}, DisableManage: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := toolNames(ts); !slices.Equal(got, []string{"read_skill", "read_skill_file"}) || ts.Prompt != "" || len(ts.Warnings) != 0 {
		t.Fatalf("tools %v, prompt %q, warnings %q; want the read tools, no catalog, no warning", got, ts.Prompt, ts.Warnings)
	}
	read, _ := ts.Tool("read_skill")
	if res := call(t, read, `{"name":"secret-handshake"}`); res.IsError || !strings.Contains(res.Text, "Hidden body.") {
		t.Errorf("read_skill of the hidden skill: %+v", res)
	}
	if res := call(t, read, `{"name":"notes"}`); !res.IsError {
		t.Errorf("read_skill of a skill not assigned: %+v", res)
	}
	// With skill_manage allowed it comes after the read tools, as always.
	ts, _ = r.Resolve(t.Context(), tools.Agent{Skills: []string{"secret-handshake"}})
	if got := toolNames(ts); !slices.Equal(got, []string{"read_skill", "read_skill_file", "skill_manage"}) {
		t.Errorf("tools %v", got)
	}
}

// TestToolSchemas decodes every tool's InputSchema with an independent JSON
// Schema compiler and feeds each tool valid and invalid arguments.
func TestToolSchemas(t *testing.T) {
	l, reg := fixture(t)
	r := &tools.Resolver{Loader: l, Executor: executor.New(l, nil, nil), Manager: manager(t, l, reg)}
	ts, err := r.Resolve(context.Background(), tools.Agent{Tools: []string{"bash"}})
	if err != nil {
		t.Fatal(err)
	}
	fresh := `"---\nname: fresh\ndescription: A skill the agent wrote.\n---\nDo it.\n"`
	// valid: the schema accepts them and the tool succeeds (in order);
	// invalid: the schema refuses them; mistakes: the schema accepts them,
	// the tool answers IsError.
	cases := map[string]struct{ valid, invalid, mistakes []string }{
		"skill_manage": {
			valid: []string{
				`{"action":"create","name":"fresh","content":` + fresh + `,"files":{"references/a.md":"A","scripts/run.sh":"echo hi"}}`,
				`{"action":"edit","name":"fresh","files":{"templates/t.md":"T"},"remove_files":["references/a.md"]}`,
				`{"action":"edit","name":"fresh","content":` + strings.Replace(fresh, "Do it.", "Do it well.", 1) + `}`,
				`{"action":"delete","name":"fresh"}`,
			},
			invalid: []string{
				`{}`, `{"action":"create"}`, `{"name":"x"}`, `{"action":"rename","name":"x"}`,
				`{"action":"create","name":"a/b","content":"x"}`, `{"action":"create","name":"../x","content":"x"}`,
				`{"action":"create","name":"Bad","content":"x"}`, `{"action":"create","name":"x","content":5}`,
				`{"action":"create","name":"x","content":""}`, `{"action":"create","name":"x","content":"x","extra":1}`,
				`{"action":"edit","name":"x","files":{"../x":"y"}}`, `{"action":"edit","name":"x","files":{"references/../../x":"y"}}`, `{"action":"edit","name":"x","files":{"/etc/passwd":"y"}}`,
				`{"action":"edit","name":"x","files":{"SKILL.md":"y"}}`, `{"action":"edit","name":"x","files":{"references/.env":"y"}}`,
				`{"action":"edit","name":"x","files":{"references/a.md":1}}`, `{"action":"edit","name":"x","remove_files":"references/a.md"}`,
				`{"action":"create","name":"x","content":"` + strings.Repeat("x", 10<<20) + `"}`,
			},
			mistakes: []string{
				`{"action":"create","name":"fresh"}`,
				`{"action":"create","name":"notes","content":"---\nname: notes\ndescription: d\n---\nx"}`,
				`{"action":"create","name":"other","content":"---\nname: fresh\ndescription: d\n---\nx"}`,
				`{"action":"create","name":"other","content":"no frontmatter"}`,
				`{"action":"create","name":"other","content":"---\nname: other\ndescription: d\n---\nx","files":{"references/a/../../../x":"y"}}`,
				`{"action":"edit","name":"fresh"}`,
				`{"action":"edit","name":"nosuch","content":"x"}`,
				`{"action":"edit","name":"notes","content":"---\nname: notes\ndescription: hijacked\n---\nx"}`,
				`{"action":"delete","name":"notes"}`,
				`{"action":"delete","name":"fresh","content":"x"}`,
				`{"action":"delete","name":"nosuch"}`,
			},
		},
		"read_skill": {
			valid:   []string{`{"name":"notes"}`, `{"name":"echo","task":"echo hi"}`},
			invalid: []string{`{}`, `{"name":"nope"}`, `{"name":1}`, `{"name":"notes","task":5}`, `{"name":"notes","x":1}`, `[]`, `"notes"`},
		},
		"read_skill_file": {
			valid:   []string{`{"name":"notes","path":"references/style.md"}`},
			invalid: []string{`{"name":"notes"}`, `{"path":"a"}`, `{"name":"notes","path":""}`, `{"name":"notes","path":7}`, `{"name":"notes","path":"a","z":0}`},
		},
		"execute_skill": {
			valid:   []string{`{"name":"echo","input":{"text":"x"}}`},
			invalid: []string{`{"name":"echo"}`, `{"name":"notes","input":{}}`, `{"name":"echo","input":"x"}`, `{"input":{}}`},
		},
	}
	for _, tool := range ts.Tools {
		c, ok := cases[tool.Name]
		if !ok {
			t.Errorf("no cases for tool %s", tool.Name)
			continue
		}
		doc, err := jsonschema.UnmarshalJSON(strings.NewReader(string(tool.InputSchema)))
		if err != nil {
			t.Fatalf("%s: schema is not JSON: %v", tool.Name, err)
		}
		if m, _ := doc.(map[string]any); m["type"] != "object" {
			t.Errorf("%s: root type is %v, want object", tool.Name, m["type"])
		}
		comp := jsonschema.NewCompiler()
		if err := comp.AddResource("tool.json", doc); err != nil {
			t.Fatal(err)
		}
		sch, err := comp.Compile("tool.json")
		if err != nil {
			t.Fatalf("%s: not a valid JSON Schema: %v", tool.Name, err)
		}
		for _, args := range c.valid {
			v, _ := jsonschema.UnmarshalJSON(strings.NewReader(args))
			if err := sch.Validate(v); err != nil {
				t.Errorf("%s %s: the schema refuses valid arguments: %v", tool.Name, args, err)
			}
			if res := call(t, tool, args); res.IsError {
				t.Errorf("%s %s: %s", tool.Name, args, res.Text)
			}
		}
		for _, args := range c.invalid {
			v, _ := jsonschema.UnmarshalJSON(strings.NewReader(args))
			if err := sch.Validate(v); err == nil {
				t.Errorf("%s %.80s: the schema accepts invalid arguments", tool.Name, args)
			}
			if res := call(t, tool, args); !res.IsError || !strings.Contains(res.Text, "invalid arguments") {
				t.Errorf("%s %.80s: want an invalid-arguments result, got %.200s", tool.Name, args, res.Text)
			}
		}
		for _, args := range c.mistakes {
			v, _ := jsonschema.UnmarshalJSON(strings.NewReader(args))
			if err := sch.Validate(v); err != nil {
				t.Errorf("%s %s: the schema refuses it (%v); the tool should explain", tool.Name, args, err)
			}
			if res := call(t, tool, args); !res.IsError || strings.Contains(res.Text, "invalid arguments") {
				t.Errorf("%s %s: want an IsError result saying what to fix, got %+v", tool.Name, args, res)
			}
		}
	}
}

// A catalog that shortens descriptions or leaves skills out to fit its
// budget says so to the host: a warning, a diagnostic and the result.
func TestResolveReportsCatalogDegradation(t *testing.T) {
	l, _ := fixture(t)
	r := &tools.Resolver{Loader: l}
	ctx := context.Background()
	whole, err := r.Resolve(ctx, tools.Agent{})
	if err != nil {
		t.Fatal(err)
	}
	if whole.Catalog.Compaction != prompt.CompactionNone || len(whole.Diagnostics) != 0 || slices.ContainsFunc(whole.Warnings, func(w string) bool { return strings.Contains(w, "catalog") }) {
		t.Fatalf("a catalog within budget reports degradation: %+v", whole)
	}
	n := len([]rune(whole.Prompt))
	for _, tt := range []struct {
		budget int
		code   diagnostics.Code
	}{{n - 5, diagnostics.PromptCompacted}, {n / 2, diagnostics.PromptTruncated}} {
		ts, err := r.Resolve(ctx, tools.Agent{Catalog: &prompt.Options{MaxChars: tt.budget}})
		if err != nil {
			t.Fatal(err)
		}
		d := ts.Diagnostics.WithCode(tt.code)
		if len(d) != 1 || !slices.Contains(ts.Warnings, d[0].Message) || ts.Prompt != ts.Catalog.Text {
			t.Errorf("budget %d: warnings %q, diagnostics %v", tt.budget, ts.Warnings, ts.Diagnostics)
		}
	}
}

// Issue 15: a compute skill whose required variable has no value is left
// out of execute_skill, with a warning naming the variable, unless the
// agent keeps it; then a call says what is missing.
func TestResolveLeavesOutUnconfiguredSkills(t *testing.T) {
	dir := t.TempDir()
	for rel, content := range map[string]string{
		"token/SKILL.md":          "---\nname: token\ndescription: Calls an API.\n---\nCall execute_skill.\n",
		"token/skill.config.yaml": "runtime: bash\nentrypoint: run.sh\nenv:\n  - name: DEMO_TOKEN\n    required: true\n",
		"token/run.sh":            "echo '{}'\n",
		"echo/SKILL.md":           "---\nname: echo\ndescription: Echo.\n---\nCall execute_skill.\n",
		"echo/skill.config.yaml":  "runtime: bash\nentrypoint: run.sh\n",
		"echo/run.sh":             "echo '{}'\n",
	} {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	l, err := loader.New(t.Context(), []loader.Source{{Name: "workspace", FS: os.DirFS(dir), Dir: dir}}, &registry.MemStore{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	r := &tools.Resolver{Loader: l, Executor: executor.New(l, nil, nil)}
	offered := func(ts tools.Toolset) []string {
		tool, ok := ts.Tool("execute_skill")
		if !ok {
			return nil
		}
		var names []string
		for _, s := range []string{"echo", "token"} {
			if strings.Contains(string(tool.InputSchema), `"`+s+`"`) {
				names = append(names, s)
			}
		}
		return names
	}
	ts, err := r.Resolve(t.Context(), tools.Agent{})
	if err != nil {
		t.Fatal(err)
	}
	if got := offered(ts); !slices.Equal(got, []string{"echo"}) {
		t.Errorf("execute_skill offers %v, want [echo]", got)
	}
	if !slices.ContainsFunc(ts.Warnings, func(w string) bool { return strings.Contains(w, "token") && strings.Contains(w, "DEMO_TOKEN") }) {
		t.Errorf("no warning names DEMO_TOKEN: %q", ts.Warnings)
	}

	ts, _ = r.Resolve(t.Context(), tools.Agent{OfferUnconfigured: true})
	if got := offered(ts); !slices.Equal(got, []string{"echo", "token"}) {
		t.Fatalf("with OfferUnconfigured execute_skill offers %v", got)
	}
	exec, _ := ts.Tool("execute_skill")
	if res := call(t, exec, `{"name":"token","input":{}}`); !res.IsError || !strings.Contains(res.Text, "DEMO_TOKEN") {
		t.Errorf("a call to the unconfigured skill: %+v", res)
	}
}

// The agent a toolset was resolved for is named in the audit line of each
// run of its execute_skill.
func TestExecuteSkillAuditNamesTheAgent(t *testing.T) {
	l, _ := fixture(t)
	var logs bytes.Buffer
	r := &tools.Resolver{Loader: l, Executor: executor.New(l, nil, &executor.Options{Logger: slog.New(slog.NewJSONHandler(&logs, nil))})}
	for _, name := range []string{"support-bot", ""} {
		ts, err := r.Resolve(t.Context(), tools.Agent{Name: name})
		if err != nil {
			t.Fatal(err)
		}
		exec, _ := ts.Tool("execute_skill")
		if res := call(t, exec, `{"name":"echo","input":{"text":"hi"}}`); res.IsError {
			t.Fatalf("execute_skill: %+v", res)
		}
	}
	lines := strings.Split(strings.TrimSpace(logs.String()), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], `"agent":"support-bot"`) || strings.Contains(lines[1], `"agent"`) {
		t.Errorf("audit lines:\n%s", logs.String())
	}
}

// TestResolveCatalogKeepsPrecedence: a catalog that cannot list every skill
// keeps those of the first source.
func TestResolveCatalogKeepsPrecedence(t *testing.T) {
	var sources []loader.Source
	for _, name := range []string{"workspace", "bundled"} {
		dir := t.TempDir()
		for i := range 8 {
			skill := name[:1] + strings.Repeat("x", i) // w, wx, ... in workspace; b, bx, ... bundled
			p := filepath.Join(dir, skill, "SKILL.md")
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte("---\nname: "+skill+"\ndescription: d\n---\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		sources = append(sources, loader.Source{Name: name, Dir: dir})
	}
	l, err := loader.New(t.Context(), sources, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	full, err := (&tools.Resolver{Loader: l}).Resolve(t.Context(), tools.Agent{Catalog: &prompt.Options{MaxChars: 1 << 20, Format: prompt.FormatAgentSkills, HideLocation: true}})
	if err != nil {
		t.Fatal(err)
	}
	names := strings.Index(full.Prompt, "<available_skills>")
	budget := names + (len(full.Prompt)-names)/2 // about half the names
	ts, err := (&tools.Resolver{Loader: l}).Resolve(t.Context(), tools.Agent{Catalog: &prompt.Options{MaxChars: budget, Format: prompt.FormatAgentSkills, HideLocation: true}})
	if err != nil {
		t.Fatal(err)
	}
	if len(ts.Catalog.Omitted) == 0 || len(ts.Catalog.Listed) == 0 {
		t.Fatalf("budget %d: listed %v, omitted %v", budget, ts.Catalog.Listed, ts.Catalog.Omitted)
	}
	for _, name := range ts.Catalog.Listed {
		if name[0] == 'b' && slices.ContainsFunc(ts.Catalog.Omitted, func(n string) bool { return n[0] == 'w' }) {
			t.Errorf("bundled %s listed while workspace skills are left out: %v", name, ts.Catalog.Omitted)
		}
	}
}

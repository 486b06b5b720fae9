package loader_test

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"testing"
	"testing/fstest"

	"github.com/skillkit-go/skillkit/diagnostics"
	"github.com/skillkit-go/skillkit/loader"
	"github.com/skillkit-go/skillkit/registry"
	"github.com/skillkit-go/skillkit/skill"
)

// ruleSkills has one skill per rule, plus a plain one.
func ruleSkills() fstest.MapFS {
	m := fstest.MapFS{}
	add := func(name string, extra ...string) {
		m[name+"/SKILL.md"] = &fstest.MapFile{Data: []byte(skillMD(name, extra...))}
	}
	add("plain")
	add("needs-bash", "metadata:\n  conditions:\n    requires_tools: [bash, read]")
	add("browser-fallback", "metadata:\n  conditions:\n    fallback_for_tools: [browser]")
	add("needs-web-set", "metadata:\n  hermes:\n    requires_toolsets: [web]")
	add("web-set-fallback", "metadata:\n  hermes:\n    fallback_for_toolsets: [web]")
	add("needs-ffmpeg", "metadata:\n  requires:\n    bins: [ffmpeg, ffprobe]")
	add("any-runtime", "metadata:\n  requires:\n    anyBins: [node, bun]")
	add("needs-key", "metadata:\n  openclaw:\n    requires:\n      env: [API_KEY]")
	add("mac-only", "metadata:\n  openclaw:\n    os: [macos]")
	add("needs-config", "metadata:\n  openclaw:\n    requires:\n      config: [browser.enabled]")
	add("manual", "disable-model-invocation: true")
	add("off")
	return m
}

func TestFilterRules(t *testing.T) {
	reg := new(registry.MemStore)
	reg.Put(t.Context(), registry.Record{Name: "off", Enabled: false})
	reg.Put(t.Context(), registry.Record{Name: "plain", Enabled: true})
	l := newLoaderWith(t, reg, nil, loader.Source{Name: "m", FS: ruleSkills()})
	bare := loader.Env{
		OS:        "linux",
		LookPath:  func(string) bool { return false },
		LookupEnv: func(string) (string, bool) { return "", false },
	}
	v, err := l.Filter(t.Context(), bare)
	if err != nil {
		t.Fatal(err)
	}
	wantNames(t, skillNames(v.Catalog), "browser-fallback", "needs-config", "plain", "web-set-fallback")
	wantRules := map[string][]loader.Rule{
		"off":           {loader.RuleDisabled},
		"needs-bash":    {loader.RuleRequiresTools},
		"needs-web-set": {loader.RuleRequiresToolsets},
		"needs-ffmpeg":  {loader.RuleBins},
		"any-runtime":   {loader.RuleAnyBins},
		"needs-key":     {loader.RuleEnv},
		"mac-only":      {loader.RuleOS},
		"manual":        {loader.RuleModelInvocation},
	}
	checkHidden(t, v, wantRules)
	if r, _ := v.Why("needs-ffmpeg"); !slices.Equal(r[0].Items, []string{"ffmpeg", "ffprobe"}) {
		t.Errorf("items %v", r[0].Items)
	}
	// disable-model-invocation: not in the catalog, still readable by name.
	if _, ok := v.Get("manual"); !ok {
		t.Error("manual is not readable")
	}
	if _, ok := v.Get("off"); ok {
		t.Error("a disabled skill is readable")
	}

	// Everything present: the fallbacks hide, the rest shows.
	full := loader.Env{
		Tools: []string{"bash", "read", "browser"}, Toolsets: []string{"web"}, OS: "darwin",
		LookPath:  func(bin string) bool { return bin != "bun" },
		LookupEnv: func(n string) (string, bool) { return "x", n == "API_KEY" },
		HasConfig: func(string) bool { return false },
	}
	v, err = l.Filter(t.Context(), full)
	if err != nil {
		t.Fatal(err)
	}
	wantNames(t, skillNames(v.Catalog), "any-runtime", "mac-only", "needs-bash", "needs-ffmpeg", "needs-key", "needs-web-set", "plain")
	checkHidden(t, v, map[string][]loader.Rule{
		"off": {loader.RuleDisabled}, "manual": {loader.RuleModelInvocation},
		"browser-fallback": {loader.RuleFallbackForTools}, "web-set-fallback": {loader.RuleFallbackForToolsets},
		"needs-config": {loader.RuleConfig},
	})

	// The allowlist, and several reasons at once.
	v, _ = l.Filter(t.Context(), loader.Env{Skills: []string{"plain", "needs-bash"}, OS: "linux"})
	wantNames(t, skillNames(v.Catalog), "plain")
	if r, _ := v.Why("needs-bash"); len(r) != 1 || r[0].Rule != loader.RuleRequiresTools {
		t.Errorf("needs-bash: %+v", r)
	}
	if r, _ := v.Why("mac-only"); len(r) != 2 || r[0].Rule != loader.RuleNotAllowed || r[1].Rule != loader.RuleOS {
		t.Errorf("mac-only: %+v", r)
	}
	v, _ = l.Filter(t.Context(), loader.Env{Skills: []string{}})
	if len(v.Catalog) != 0 {
		t.Errorf("an empty allowlist shows %v", skillNames(v.Catalog))
	}
	// Enabling it in the registry shows it at once: no rescan needed.
	reg.Put(t.Context(), registry.Record{Name: "off", Enabled: true})
	v, _ = l.Filter(t.Context(), loader.Env{})
	if _, ok := v.Get("off"); !ok {
		t.Error("enabled skill still hidden")
	}
}

func checkHidden(t *testing.T, v *loader.Visibility, want map[string][]loader.Rule) {
	t.Helper()
	if len(v.Hidden) != len(want) {
		t.Errorf("%d hidden, want %d: %+v", len(v.Hidden), len(want), v.Hidden)
	}
	for _, h := range v.Hidden {
		var rules []loader.Rule
		for _, r := range h.Reasons {
			rules = append(rules, r.Rule)
			if r.Message == "" {
				t.Errorf("%s: reason %s has no message", h.Name, r.Rule)
			}
		}
		if !slices.Equal(rules, want[h.Name]) {
			t.Errorf("%s hidden by %v, want %v", h.Name, rules, want[h.Name])
		}
		if h.Readable != (h.Name == "manual") || h.Skill.Name != h.Name {
			t.Errorf("%s readable %v", h.Name, h.Readable)
		}
	}
}

type failingStore struct{ registry.MemStore }

func (*failingStore) List(context.Context) ([]registry.Record, error) {
	return nil, errors.New("disk on fire")
}

func TestFilterRegistryError(t *testing.T) {
	l := newLoaderWith(t, &failingStore{}, nil, loader.Source{Name: "m", FS: mapSkills("a")})
	if _, err := l.Filter(t.Context(), loader.Env{}); err == nil {
		t.Error("a registry that cannot be read hid nothing and said nothing")
	}
}

// Checkers run when asked, not during a scan; the registry brings the
// fingerprint checker.
func TestDoctorRunsCheckers(t *testing.T) {
	root := t.TempDir()
	writeSkill(t, root, "pdf", "pdf")
	writeSkill(t, root, "doc", "doc")
	reg := registry.NewFSStore(root)
	sum, err := registry.Fingerprint(t.Context(), skillDirFS(root), "pdf")
	if err != nil {
		t.Fatal(err)
	}
	reg.Put(t.Context(), registry.Record{Name: "pdf", Fingerprint: sum, Enabled: true})
	var calls int
	var mu = make(chan struct{}, 1)
	custom := loader.CheckerFunc(func(_ context.Context, s *skill.Skill) diagnostics.List {
		mu <- struct{}{}
		calls++
		<-mu
		if s.Name == "doc" {
			return diagnostics.List{diagnostics.New(diagnostics.EnvNotConfigured, s.Name, s.DiskDir, "DOC_KEY is not set")}
		}
		return nil
	})
	l := newLoaderWith(t, reg, &loader.Options{Checkers: []loader.Checker{registry.FingerprintChecker{Store: reg}, custom}}, loader.Source{Name: "s", Dir: root})
	if calls != 0 {
		t.Fatal("a checker ran during the scan")
	}
	d := l.Doctor(t.Context())
	only(t, d, diagnostics.EnvNotConfigured, 1)
	only(t, d, diagnostics.FingerprintChanged, 0)
	writeFile(t, filepath.Join(root, "pdf", "notes.md"), "hand edit")
	// No rescan: the checker looks at the files now.
	d = l.Doctor(t.Context())
	if fc := only(t, d, diagnostics.FingerprintChanged, 1); len(fc) == 1 && fc[0].Skill != "pdf" {
		t.Errorf("%v", fc)
	}
	if calls != 4 {
		t.Errorf("custom checker ran %d times, want 4", calls)
	}
	if l.Snapshot().Diagnostics().Has(diagnostics.FingerprintChanged) {
		t.Error("a checker's finding leaked into the snapshot")
	}
}

func TestResolveByPath(t *testing.T) {
	root := t.TempDir()
	writeSkill(t, root, "pdf", "pdf")
	writeSkill(t, root, "pdf-tools", "pdf-tools")
	writeSkill(t, root, "group/deep", "deep")
	l := newLoader(t, nil, loader.Source{Name: "s", Dir: root}, loader.Source{Name: "mem", FS: mapSkills("mem-only")})
	tests := []struct {
		path, want string
	}{
		{filepath.Join(root, "pdf"), "pdf"},
		{filepath.Join(root, "pdf") + string(filepath.Separator), "pdf"},
		{filepath.Join(root, "pdf", "scripts", "run.py"), "pdf"},
		{filepath.Join(root, "pdf-tools", "x"), "pdf-tools"},
		{filepath.Join(root, "pdf", "..", "pdf-tools"), "pdf-tools"},
		{filepath.Join(root, "pdfx"), ""},
		{filepath.Join(root, "group"), ""},
		{filepath.Join(root, "group", "deep", "a"), "deep"},
		{root, ""},
		{"mem-only", ""},
		{"", ""},
	}
	for _, tt := range tests {
		got := ""
		if s, ok := l.ResolveByPath(tt.path); ok {
			got = s.Name
		}
		if got != tt.want {
			t.Errorf("ResolveByPath(%q) = %q, want %q", tt.path, got, tt.want)
		}
	}
	t.Chdir(filepath.Join(root, "pdf"))
	if s, ok := l.ResolveByPath("scripts"); !ok || s.Name != "pdf" {
		t.Errorf("relative path: %v %v", s, ok)
	}
}

func TestFilterAlwaysAndSkillEnv(t *testing.T) {
	m := fstest.MapFS{}
	m["always/SKILL.md"] = &fstest.MapFile{Data: []byte(skillMD("always", "metadata:\n  openclaw:\n    always: true\n    os: [macos]\n    requires:\n      bins: [nope]\n      env: [NOPE]\n  conditions:\n    requires_tools: [browser]"))}
	m["keyed/SKILL.md"] = &fstest.MapFile{Data: []byte(skillMD("keyed", "metadata:\n  openclaw:\n    requires:\n      env: [API_KEY]"))}
	l := newLoader(t, nil, loader.Source{Name: "m", FS: m})
	env := loader.Env{
		OS:        "linux",
		LookPath:  func(string) bool { return false },
		LookupEnv: func(string) (string, bool) { return "", false },
	}
	v, err := l.Filter(t.Context(), env)
	if err != nil {
		t.Fatal(err)
	}
	// always skips the machine checks, not the tool conditions.
	checkHidden(t, v, map[string][]loader.Rule{"always": {loader.RuleRequiresTools}, "keyed": {loader.RuleEnv}})
	env.Tools = []string{"browser"}
	env.SkillEnv = func(skillName, variable string) bool { return skillName == "keyed" && variable == "API_KEY" }
	v, err = l.Filter(t.Context(), env)
	if err != nil {
		t.Fatal(err)
	}
	wantNames(t, skillNames(v.Catalog), "always", "keyed")
}

package skill_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/skillkit-go/skillkit/diagnostics"
	"github.com/skillkit-go/skillkit/skill"
)

// seedConfig is the full example of seed 000 §2.3.
const seedConfig = `
runtime: python
entrypoint: src/ocr.py
timeout: 30000
env:
  - name: OCR_API_KEY
    required: true
    description: "OCR 服务 API Key"
  - name: OCR_ENDPOINT
    required: false
    default: "https://api.ocr.com/v1"
dependencies:
  system:
    - name: ffmpeg
      check: "ffmpeg -version"
    - name: libreoffice
      check: "soffice --version"
  python:
    source: requirements.txt
  node:
    packages: ["pptxgenjs"]
  dotnet:
    project: scripts/dotnet/MyProject.Cli
setup:
  posix: scripts/setup.sh
  win32: scripts/setup.ps1
interface:
  input:
    image_path: { type: string, required: true, description: "图片路径" }
    language: { type: string, default: "auto" }
  output:
    text: { type: string }
    confidence: { type: number }
references:
  required:
    - references/create.md
    - references/format.md
  optional:
    - references/tracing.md
  routes:
    - match: ["create", "generate", "new"]
      required_refs: ["references/create.md", "references/format.md"]
    - match: ["edit", "modify", "fill"]
      required_refs: ["references/edit.md"]
`

func TestParseSeedConfig(t *testing.T) {
	cfg, diags := skill.ParseConfig([]byte(seedConfig))
	if cfg == nil || len(diags) != 0 {
		t.Fatalf("config = %v, diagnostics: %v", cfg, diags)
	}
	endpoint := "https://api.ocr.com/v1"
	want := &skill.Config{
		Runtime:    skill.RuntimePython,
		Entrypoint: "src/ocr.py",
		Timeout:    30 * time.Second,
		Env: []skill.EnvVar{
			{Name: "OCR_API_KEY", Required: true, Description: "OCR 服务 API Key"},
			{Name: "OCR_ENDPOINT", Default: &endpoint},
		},
		Dependencies: skill.Dependencies{
			System: []skill.SystemDep{{Name: "ffmpeg", Check: "ffmpeg -version"}, {Name: "libreoffice", Check: "soffice --version"}},
			Python: &skill.PythonDeps{Source: "requirements.txt"},
			Node:   &skill.NodeDeps{Packages: []string{"pptxgenjs"}},
			Dotnet: &skill.DotnetProject{Project: "scripts/dotnet/MyProject.Cli"},
		},
		Setup: skill.Setup{Posix: "scripts/setup.sh", Win32: "scripts/setup.ps1"},
		Interface: skill.Interface{
			Input:  json.RawMessage(`{"properties":{"image_path":{"description":"图片路径","type":"string"},"language":{"default":"auto","type":"string"}},"required":["image_path"],"type":"object"}`),
			Output: json.RawMessage(`{"properties":{"confidence":{"type":"number"},"text":{"type":"string"}},"type":"object"}`),
			InputFields: []skill.Field{
				{Name: "image_path", Type: "string", Required: true, Description: "图片路径"},
				{Name: "language", Type: "string", Default: "auto"},
			},
		},
		References: &skill.References{
			Required: []string{"references/create.md", "references/format.md"},
			Optional: []string{"references/tracing.md"},
			Routes: []skill.Route{
				{Match: []string{"create", "generate", "new"}, RequiredRefs: []string{"references/create.md", "references/format.md"}},
				{Match: []string{"edit", "modify", "fill"}, RequiredRefs: []string{"references/edit.md"}},
			},
		},
	}
	if diff := cmp.Diff(want, cfg); diff != "" {
		t.Errorf("config (-want +got):\n%s", diff)
	}
	if cfg.Class() != skill.ClassComputeEntry {
		t.Errorf("class = %s", cfg.Class())
	}
}

func TestConfigJSONSchemaInput(t *testing.T) {
	cfg, diags := skill.ParseConfig([]byte(`
entrypoint: main.js
interface:
  input:
    type: object
    properties:
      zeta: {type: integer, minimum: 1}
      alpha: {type: string, enum: [a, b]}
    required: [zeta]
    additionalProperties: false
`))
	if cfg == nil || len(diags) != 0 {
		t.Fatal(diags)
	}
	if cfg.Runtime != skill.RuntimeNode {
		t.Errorf("runtime from .js = %q", cfg.Runtime)
	}
	want := `{"additionalProperties":false,"properties":{"alpha":{"enum":["a","b"],"type":"string"},"zeta":{"minimum":1,"type":"integer"}},"required":["zeta"],"type":"object"}`
	if string(cfg.Interface.Input) != want {
		t.Errorf("schema = %s", cfg.Interface.Input)
	}
	wantFields := []skill.Field{{Name: "zeta", Type: "integer", Required: true}, {Name: "alpha", Type: "string", Enum: []any{"a", "b"}}}
	if diff := cmp.Diff(wantFields, cfg.Interface.InputFields); diff != "" {
		t.Errorf("fields keep source order (-want +got):\n%s", diff)
	}
}

func TestConfigErrors(t *testing.T) {
	tests := []struct {
		name, config, wantIn string
	}{
		{"not YAML", "runtime: [", "not valid YAML"},
		{"not a mapping", "- a\n", "not a mapping"},
		{"duplicate key", "runtime: bash\nruntime: node\n", "duplicate"},
		{"bad runtime", "runtime: cobol\n", "not one of"},
		{"no runtime and unknown extension", "entrypoint: main.rb\n", "no runtime"},
		{"negative timeout", "runtime: bash\ntimeout: -5\n", "positive whole number"},
		{"string timeout", "runtime: bash\ntimeout: soon\n", "positive whole number"},
		{"fractional timeout", "runtime: bash\ntimeout: 1.5\n", "positive whole number"},
		{"entrypoint escapes", "entrypoint: ../../etc/passwd.sh\n", "leaves the skill folder"},
		{"entrypoint absolute", "entrypoint: /bin/sh\n", "absolute"},
		{"windows absolute", "entrypoint: 'C:\\evil.py'\n", "absolute"},
		{"setup escapes", "runtime: bash\nsetup:\n  posix: scripts/../../x.sh\n", "leaves the skill folder"},
		{"reference escapes", "runtime: bash\nreferences:\n  required: [../x.md]\n", "leaves the skill folder"},
		{"python source escapes", "runtime: python\ndependencies:\n  python:\n    source: ../req.txt\n", "leaves the skill folder"},
		{"python both", "runtime: python\ndependencies:\n  python:\n    source: r.txt\n    inline: [x]\n", "not both"},
		{"python neither", "runtime: python\ndependencies:\n  python: {}\n", "give source"},
		{"unknown dependency kind", "runtime: bash\ndependencies:\n  ruby: [x]\n", "unknown dependency kind"},
		{"env bad name", "runtime: bash\nenv:\n  - name: LD_PRELOAD\n", "change how programs start"},
		{"env not a list", "runtime: bash\nenv: X\n", "want a list"},
		{"input field not a mapping", "entrypoint: a.py\ninterface:\n  input:\n    x: [1]\n", "want {type"},
		{"input field bad required", "entrypoint: a.py\ninterface:\n  input:\n    x: {type: string, required: maybe}\n", "want true or false"},
		{"input schema not object", "entrypoint: a.py\ninterface:\n  input:\n    type: array\n", "type object"},
		{"unknown interface key", "entrypoint: a.py\ninterface:\n  inputs: {}\n", "unknown field"},
		{"infinite default", "entrypoint: a.py\ninterface:\n  input:\n    x: {type: number, default: .inf}\n", "finite"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, diags := skill.ParseConfig([]byte(tt.config))
			if cfg != nil {
				t.Fatalf("invalid config accepted: %+v", cfg)
			}
			errs := diags.WithCode(diagnostics.ConfigParseError)
			if len(errs) == 0 || errs[0].Level != diagnostics.Error {
				t.Fatalf("want CONFIG_PARSE_ERROR, got %v", diags)
			}
			var all []string
			for _, d := range errs {
				all = append(all, d.Message)
			}
			if !strings.Contains(strings.Join(all, "\n"), tt.wantIn) {
				t.Errorf("messages %q do not mention %q", all, tt.wantIn)
			}
		})
	}
}

func TestConfigDefaultsAndShorthands(t *testing.T) {
	cfg, diags := skill.ParseConfig([]byte("runtime: Bash\nenv: [TOKEN]\ndependencies:\n  system: [jq]\n  python:\n    inline: ['httpx>=0.27', pillow]\ninterface:\n  input:\n    q: string\n"))
	if cfg == nil || len(diags) != 0 {
		t.Fatal(diags)
	}
	if cfg.Timeout != skill.DefaultTimeout || cfg.Runtime != skill.RuntimeBash || cfg.Class() != skill.ClassComputeToolkit {
		t.Errorf("timeout %v runtime %q class %s", cfg.Timeout, cfg.Runtime, cfg.Class())
	}
	if diff := cmp.Diff([]skill.EnvVar{{Name: "TOKEN"}}, cfg.Env); diff != "" {
		t.Error(diff)
	}
	if diff := cmp.Diff([]string{"httpx>=0.27", "pillow"}, cfg.Dependencies.Python.Inline); diff != "" {
		t.Error(diff)
	}
	if string(cfg.Interface.Input) != `{"properties":{"q":{"type":"string"}},"type":"object"}` {
		t.Errorf("shorthand schema = %s", cfg.Interface.Input)
	}
	empty, diags := skill.ParseConfig(nil)
	if empty == nil || len(diags) != 0 || empty.Class() != skill.ClassPrompt {
		t.Errorf("an empty config is a prompt skill: %v %v", empty, diags)
	}
}

func TestValidateEnvName(t *testing.T) {
	for _, ok := range []string{"A", "_X", "OCR_API_KEY", "key2", "NPM_TOKEN", "GITHUB_TOKEN", "GITLAB_TOKEN", "HOMEBREW_NO_ANALYTICS",
		"PROXY_URL", "MY_SERVICE_PROXY", "EDITOR_THEME", "BROWSERLESS_TOKEN", "PAGE_SIZE"} {
		if err := skill.ValidateEnvName(ok); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
	for _, bad := range []string{"", "1A", "A-B", "A B", "A=B", "LD_PRELOAD", "ld_library_path", "DYLD_INSERT_LIBRARIES",
		"NODE_OPTIONS", "PYTHONPATH", "PYTHONHOME", "BASH_ENV", "PATH", "BASH_FUNC_x%%",
		"GCONV_PATH", "GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT", "GIT_CONFIG_KEY_0", "git_config_value_0", "GIT_ASKPASS",
		"npm_config_script_shell", "NPM_CONFIG_NODE_OPTIONS", "PROMPT_COMMAND", "PYTHONBREAKPOINT", "LUA_INIT_5_4",
		"OPENSSL_CONF", "ZDOTDIR",
		// Configuration and helper programs of the commands run in a skill's folder.
		"HOME", "home", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_RUNTIME_DIR", "GIT_DIR", "GIT_WORK_TREE", "GIT_PAGER",
		"GIT_EDITOR", "GIT_SEQUENCE_EDITOR", "GIT_AUTHOR_NAME", "git_index_file", "PAGER", "MANPAGER", "EDITOR", "VISUAL",
		"BROWSER", "LESS", "LESSOPEN", "LESSCLOSE", "lesskey", "SUDO_ASKPASS",
		// Where their traffic goes, in any case.
		"HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "ALL_PROXY", "FTP_PROXY", "http_proxy", "https_proxy", "no_proxy", "all_proxy", "Https_Proxy"} {
		if err := skill.ValidateEnvName(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestValidateName(t *testing.T) {
	for _, ok := range []string{"a", "pdf", "pdf-tools", "a1-b2", strings.Repeat("x", 64), "ｐｄｆ"} {
		if err := skill.ValidateName(ok); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
	for _, bad := range []string{"", " ", "-a", "a-", "a--b", "A", "a_b", "a.b", "a/b", "数据", strings.Repeat("x", 65), "a b"} {
		if err := skill.ValidateName(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestValidateKey(t *testing.T) {
	// Every name ValidateName accepts, and the looser names of hand-placed
	// skills.
	for _, ok := range []string{"a", "pdf-tools", strings.Repeat("x", 64), "My_Tool", "pdf tools", "数据", "a.b", "v1.2", "CONSOLE", strings.Repeat("é", 64)} {
		if err := skill.ValidateKey(ok); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
	for _, bad := range []string{
		"", " pad", "pad ", ".hidden", "..", "dot.", "a/b", `a\b`, "a:b", "a*b", "a?b", `a"b`, "a<b", "a>b", "a|b",
		"a\x00b", "a\nb", "a\u202eb", "a\u200bb", "a\U000E0041b", "ｐｄｆ", "CON", "nul.txt", "com1", "LPT9",
		strings.Repeat("x", skill.MaxKeyBytes+1), "\xff",
	} {
		if err := skill.ValidateKey(bad); !errors.Is(err, skill.ErrInvalidName) {
			t.Errorf("%q: %v, want ErrInvalidName", bad, err)
		}
	}
}

// TestLoadSkipsNameThatCannotBeAKey: a skill whose name could not identify
// it in the registry, the secrets store or a lock file is not loaded, and an
// error diagnostic says why; a looser name that can is loaded with a warning.
func TestLoadSkipsNameThatCannotBeAKey(t *testing.T) {
	fsys := fstest.MapFS{
		"bad/SKILL.md":     {Data: []byte("---\nname: \"a\\u202Eb\"\ndescription: Reversed text.\n---\n")},
		"My_Tool/SKILL.md": {Data: []byte("---\nname: My_Tool\ndescription: A hand-placed tool.\n---\n")},
	}
	s, diags := skill.Load(fsys, "bad", nil)
	if s != nil {
		t.Fatalf("loaded %q", s.Name)
	}
	if got := diags.AtLeast(diagnostics.Error); len(got) != 1 || got[0].Code != diagnostics.NameInvalid {
		t.Fatalf("diagnostics: %v", diags)
	}
	s, diags = skill.Load(fsys, "My_Tool", nil)
	if s == nil || s.Name != "My_Tool" {
		t.Fatalf("My_Tool not loaded: %v", diags)
	}
	if len(diags.AtLeast(diagnostics.Error)) != 0 || !diags.Has(diagnostics.NameInvalid) {
		t.Fatalf("want a NAME_INVALID warning only: %v", diags)
	}
}

package skillkit_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/skillkit-go/skillkit"
	"github.com/skillkit-go/skillkit/deps"
	"github.com/skillkit-go/skillkit/diagnostics"
	"github.com/skillkit-go/skillkit/executor"
	"github.com/skillkit-go/skillkit/installer"
	"github.com/skillkit-go/skillkit/loader"
	"github.com/skillkit-go/skillkit/tools"
)

// TestOpenScansNothing: opening a Kit reads no skill; pinning, enabling a
// skill of the folder, saving and listing one skill's secrets do not scan
// the folder either; the first call that needs every skill does.
func TestOpenScansNothing(t *testing.T) {
	ctx := t.Context()
	dir := t.TempDir()
	write(t, dir, "ocr/SKILL.md", "---\nname: ocr\ndescription: Reads text.\nmetadata:\n  env:\n    - {name: OCR_KEY, required: true}\n---\n")
	write(t, dir, "other/SKILL.md", "---\nname: other\ndescription: Another.\n---\n")
	kit, err := skillkit.Open(ctx, skillkit.Options{Dir: dir, Keyring: testKeyring(t)})
	if err != nil {
		t.Fatal(err)
	}
	defer kit.Close()
	if _, err := kit.Install(ctx, installer.Source{Dir: filepath.Join(dir, "other")}, &installer.InstallOptions{Force: true}); err != nil {
		t.Fatal(err)
	}
	if err := kit.Pin(ctx, "other"); err != nil {
		t.Fatal(err)
	}
	if err := kit.SetEnabled(ctx, "ocr", false); err != nil {
		t.Fatal(err)
	}
	if err := kit.Vault().Save(ctx, "ocr", map[string]string{"OCR_KEY": "k"}); err != nil {
		t.Fatal(err)
	}
	s, ok, err := kit.Skill(ctx, "ocr")
	if err != nil || !ok || len(s.Env) != 1 || s.Env[0].Name != "OCR_KEY" {
		t.Fatalf("Skill(ocr) = %+v, %v, %v", s, ok, err)
	}
	if skillkit.Scanned(kit) {
		t.Fatal("a command on one skill scanned the skills folder")
	}
	if _, err := kit.Toolset(ctx, tools.Agent{}); err != nil {
		t.Fatal(err)
	}
	if !skillkit.Scanned(kit) {
		t.Fatal("Toolset did not scan")
	}
}

// TestScanOnOpen scans at Open; bad sources fail Open with or without it.
func TestScanOnOpen(t *testing.T) {
	kit, err := skillkit.Open(t.Context(), skillkit.Options{Dir: t.TempDir(), ScanOnOpen: true})
	if err != nil {
		t.Fatal(err)
	}
	defer kit.Close()
	if !skillkit.Scanned(kit) {
		t.Error("ScanOnOpen did not scan")
	}
	dup := []loader.Source{{Name: "skills", FS: fstest.MapFS{}}} // the skills folder's own name
	if _, err := skillkit.Open(t.Context(), skillkit.Options{Dir: t.TempDir(), Sources: dup}); !errors.Is(err, loader.ErrInvalidSource) {
		t.Errorf("a source named like the skills folder: %v", err)
	}
}

// TestHandPlacedNameOutsideTheSpecification: a skill folder placed by hand
// as My_Tool (a name the loader accepts with a warning, the specification
// does not) can be disabled and enabled, and its secrets resolve.
func TestHandPlacedNameOutsideTheSpecification(t *testing.T) {
	ctx := t.Context()
	dir := t.TempDir()
	write(t, dir, "My_Tool/SKILL.md", "---\nname: My_Tool\ndescription: A hand-placed tool.\n---\nUse it.\n")
	write(t, dir, "My_Tool/skill.config.yaml", "runtime: bash\nentrypoint: run.sh\nenv:\n  - {name: TOOL_TOKEN, required: true}\n")
	write(t, dir, "My_Tool/run.sh", `printf '{"len":%d}' "${#TOOL_TOKEN}"`+"\n")
	kit, err := skillkit.Open(ctx, skillkit.Options{Dir: dir, Keyring: testKeyring(t)})
	if err != nil {
		t.Fatal(err)
	}
	defer kit.Close()
	if err := kit.Vault().Save(ctx, "My_Tool", map[string]string{"TOOL_TOKEN": "abc"}); err != nil {
		t.Fatal(err)
	}
	if err := kit.SetEnabled(ctx, "My_Tool", false); err != nil {
		t.Fatalf("disable: %v", err)
	}
	if skillkit.Scanned(kit) {
		t.Error("disabling a skill of the folder scanned it")
	}
	ts, err := kit.Toolset(ctx, tools.Agent{})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(ts.Prompt, "My_Tool") {
		t.Errorf("a disabled skill is offered:\n%s", ts.Prompt)
	}
	if err := kit.SetEnabled(ctx, "My_Tool", true); err != nil {
		t.Fatalf("enable: %v", err)
	}
	ts, _ = kit.Toolset(ctx, tools.Agent{})
	if !strings.Contains(ts.Prompt, "My_Tool") {
		t.Errorf("the enabled skill is not offered:\n%s", ts.Prompt)
	}
	if d := doctor(t, kit).WithCode(diagnostics.NameInvalid); len(d) != 1 || d[0].Level != diagnostics.Warning {
		t.Errorf("want one NAME_INVALID warning: %v", d)
	}
	env, err := kit.EnvFor(ctx, filepath.Join(dir, "My_Tool"))
	if err != nil || env["TOOL_TOKEN"] != "abc" {
		t.Fatalf("EnvFor: %v, %v", env, err)
	}
	ex, err := kit.Executor(ctx)
	if err != nil {
		t.Fatal(err)
	}
	out, err := ex.Execute(ctx, "My_Tool", []byte(`{}`))
	if err != nil || string(out.Output) != `{"len":3}` {
		t.Fatalf("Execute: %s, %v", out.Output, err)
	}
}

// TestAgentEnvSchema: metadata.env in an agent's SKILL.md becomes the
// skill's env schema, which the secrets vault lists and Doctor checks.
func TestAgentEnvSchema(t *testing.T) {
	ctx := t.Context()
	kit, err := skillkit.Open(ctx, skillkit.Options{Dir: t.TempDir(), Keyring: testKeyring(t)})
	if err != nil {
		t.Fatal(err)
	}
	defer kit.Close()
	content := `---
name: weather
description: Looks up the weather. Use when the user asks about the weather.
metadata:
  env:
    - name: WEATHER_API_KEY
      required: true
      description: API key of the weather service
    - name: WEATHER_UNITS
      description: metric or imperial
---
Call the weather service with $WEATHER_API_KEY.
`
	if _, err := kit.CreateSkill(ctx, "weather", content, nil); err != nil {
		t.Fatal(err)
	}
	s, ok, err := kit.Skill(ctx, "weather")
	if err != nil || !ok {
		t.Fatalf("the agent's skill is not loaded: %v", err)
	}
	if len(s.Env) != 2 || s.Env[0].Name != "WEATHER_API_KEY" || !s.Env[0].Required || s.Env[1].Required || s.Env[1].Default != nil {
		t.Fatalf("env schema %+v", s.Env)
	}
	status, err := kit.Vault().Configured(ctx, "weather", s.Env)
	if err != nil {
		t.Fatal(err)
	}
	if len(status) != 2 || !status[0].Declared || status[0].HasValue || status[1].HasDefault {
		t.Errorf("configured %+v", status)
	}
	diags := doctor(t, kit).ForSkill("weather")
	if missing := diags.WithCode(diagnostics.EnvNotConfigured); len(missing) != 1 || missing[0].Detail["env"] != "WEATHER_API_KEY" {
		t.Errorf("doctor %v", diags)
	}
	if err := kit.Vault().Save(ctx, "weather", map[string]string{"WEATHER_API_KEY": "k-123"}); err != nil {
		t.Fatal(err)
	}
	if diags := doctor(t, kit).ForSkill("weather"); slices.ContainsFunc(diags, func(d diagnostics.Diagnostic) bool { return d.Level >= diagnostics.Warning }) {
		t.Errorf("after saving the key: %v", diags)
	}
}

// recordingRunner records the commands it is asked to run and makes each
// succeed, building what python -m venv would.
type recordingRunner struct {
	mu   sync.Mutex
	cmds []string
}

func (r *recordingRunner) Run(ctx context.Context, c executor.Command) (executor.Result, error) {
	r.mu.Lock()
	r.cmds = append(r.cmds, filepath.Base(c.Path)+" "+strings.Join(c.Args, " "))
	r.mu.Unlock()
	if len(c.Args) == 3 && c.Args[0] == "-m" && c.Args[1] == "venv" {
		bin := filepath.Join(c.Args[2], "bin")
		if err := os.MkdirAll(bin, 0o755); err != nil {
			return executor.Result{}, err
		}
		return executor.Result{}, os.WriteFile(filepath.Join(bin, "python"), []byte("#!/bin/sh\n"), 0o755)
	}
	if filepath.Base(c.Path) == "uv" {
		return executor.Result{ExitCode: 127}, nil // no uv: pip is used
	}
	return executor.Result{}, nil
}

func (r *recordingRunner) commands() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.cmds)
}

// TestAgentDepsNeedPermission: the dependencies of a skill an agent wrote
// install only when a person allows it; without that nothing runs.
func TestAgentDepsNeedPermission(t *testing.T) {
	ctx := t.Context()
	runner := &recordingRunner{}
	kit, err := skillkit.Open(ctx, skillkit.Options{Dir: t.TempDir(), Deps: &deps.Options{Runner: runner}})
	if err != nil {
		t.Fatal(err)
	}
	defer kit.Close()
	if _, err := kit.CreateSkill(ctx, "agentpy", "---\nname: agentpy\ndescription: d\nmetadata:\n  install:\n    - {kind: uv, package: requests}\n---\nx\n", nil); err != nil {
		t.Fatal(err)
	}
	if _, err := kit.InstallDeps(ctx, "agentpy", nil); !errors.Is(err, deps.ErrNotAllowed) || len(runner.commands()) != 0 {
		t.Errorf("agent-written: %v, commands %q", err, runner.commands())
	}
	res, err := kit.InstallDeps(ctx, "agentpy", &deps.InstallOptions{AllowAgentWritten: true})
	if err != nil || res.Status(deps.StepPython) != deps.Installed {
		t.Errorf("agent-written, allowed: %v %+v", err, res)
	}
	if !slices.ContainsFunc(runner.commands(), func(c string) bool { return strings.Contains(c, "install") && strings.Contains(c, "-r") }) {
		t.Errorf("no pip install ran: %q", runner.commands())
	}
}

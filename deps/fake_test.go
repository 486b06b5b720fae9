package deps

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/skillkit-go/skillkit/diagnostics"
	"github.com/skillkit-go/skillkit/executor"
	"github.com/skillkit-go/skillkit/installer"
	"github.com/skillkit-go/skillkit/internal/fixture"
	"github.com/skillkit-go/skillkit/internal/skillsdir"
	"github.com/skillkit-go/skillkit/registry"
)

// fakeTools is a Runner standing in for uv and dotnet: it does on disk what
// they would (a venv with absolute paths in it, obj/ beside a project) and
// records every command. Any other program is not installed.
type fakeTools struct {
	mu       sync.Mutex
	cmds     []executor.Command
	reqs     []string // the requirements files uv pip install read
	noDotnet bool
	result   func(c executor.Command) (executor.Result, bool) // overrides, for timeouts
	nugetCfg []string                                         // the NuGet configuration files dotnet would have read
}

func (f *fakeTools) Run(ctx context.Context, c executor.Command) (executor.Result, error) {
	f.mu.Lock()
	f.cmds = append(f.cmds, c)
	f.mu.Unlock()
	if f.result != nil {
		if res, ok := f.result(c); ok {
			return res, nil
		}
	}
	line := strings.Join(append([]string{c.Path}, c.Args...), " ")
	switch {
	case line == "uv --version":
		return executor.Result{Stdout: []byte("uv 0.9.0\n")}, nil
	case strings.HasPrefix(line, "uv venv --quiet "):
		venv := c.Args[2]
		bin := filepath.Join(venv, "bin")
		if err := os.MkdirAll(bin, 0o755); err != nil {
			return executor.Result{}, err
		}
		os.WriteFile(filepath.Join(bin, "python"), []byte("fake interpreter"), 0o755)
		os.Symlink(filepath.Join(bin, "python"), filepath.Join(bin, "python3"))
		os.WriteFile(filepath.Join(bin, "tool"), []byte("#!"+filepath.Join(bin, "python")+"\nimport tool\n"), 0o755)
		os.WriteFile(filepath.Join(venv, "pyvenv.cfg"), []byte("home = /usr/bin\ncommand = uv venv "+venv+"\n"), 0o644)
		return executor.Result{}, nil
	case strings.HasPrefix(line, "uv pip install "):
		data, err := os.ReadFile(c.Args[slices.Index(c.Args, "-r")+1])
		if err != nil {
			return executor.Result{}, err
		}
		f.mu.Lock()
		f.reqs = append(f.reqs, string(data))
		f.mu.Unlock()
		return executor.Result{Stdout: []byte("Installed 2 packages\n")}, nil
	case c.Path == "dotnet" && !f.noDotnet:
		filepath.WalkDir(c.Dir, func(p string, d fs.DirEntry, err error) error {
			if err == nil && strings.EqualFold(d.Name(), "nuget.config") {
				f.mu.Lock()
				f.nugetCfg = append(f.nugetCfg, p)
				f.mu.Unlock()
			}
			return nil
		})
		os.MkdirAll(filepath.Join(c.Dir, "obj"), 0o755)
		os.WriteFile(filepath.Join(c.Dir, "obj", "project.assets.json"), []byte("{}"), 0o644)
		return executor.Result{Stdout: []byte("Restored\n")}, nil
	}
	return executor.Result{}, fmt.Errorf("run %s: %w", c.Path, &exec.Error{Name: c.Path, Err: exec.ErrNotFound})
}

func (f *fakeTools) lines() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []string
	for _, c := range f.cmds {
		out = append(out, strings.Join(append([]string{c.Path}, c.Args...), " "))
	}
	return out
}

const uvSkillConfig = `runtime: python
entrypoint: main.py
dependencies:
  python:
    inline: ["httpx>=0.27"]
`

const uvSkillMD = `---
name: fetcher
description: Fetches things.
metadata:
  install:
    - {kind: uv, package: rich, label: Install rich}
    - {kind: brew, formula: jq}
    - {kind: node, package: left-pad, os: [plan9]}
---
Fetch.
`

// TestInstallDepsUV checks the uv path through a fake uv: the commands, the
// controlled environment, the requirements written, the frontmatter install
// specs, and the relocation of the venv's absolute paths.
func TestInstallDepsUV(t *testing.T) {
	ctx := t.Context()
	tools := &fakeTools{}
	host := map[string]string{"PATH": "/usr/bin:/bin", "HOME": "/home/h", "DB_PASSWORD": "hunter2", "PIP_INDEX_URL": "http://host-only"}
	in, dir := newTestInstaller(t, &Options{Runner: tools,
		PipArgs:   []string{"--no-index"},
		Env:       map[string]string{"UV_INDEX_URL": "http://mirror.example/simple"},
		LookupEnv: func(k string) (string, bool) { v, ok := host[k]; return v, ok },
	})
	src := skillFolder(t, "fetcher", "", map[string]string{"SKILL.md": uvSkillMD, "skill.config.yaml": uvSkillConfig, "main.py": "print('{}')\n"})
	if _, err := in.add(ctx, installer.Source{Dir: src}); err != nil {
		t.Fatal(err)
	}
	res, err := in.Install(ctx, "fetcher", nil)
	if err != nil {
		t.Fatal(err)
	}
	lines := tools.lines()
	if len(lines) != 3 || lines[0] != "uv --version" || !strings.HasPrefix(lines[1], "uv venv --quiet ") ||
		!strings.HasPrefix(lines[2], "uv pip install --python ") || !strings.HasSuffix(lines[2], "requirements.txt --no-index") {
		t.Fatalf("commands %q", lines)
	}
	if len(tools.reqs) != 1 || tools.reqs[0] != "httpx>=0.27\nrich\n" {
		t.Errorf("requirements %q", tools.reqs)
	}
	env := tools.cmds[2].Env
	if env["PATH"] != "/usr/bin:/bin" || env["HOME"] != "/home/h" || env["PIP_NO_INPUT"] != "1" || env["UV_INDEX_URL"] != "http://mirror.example/simple" {
		t.Errorf("env %v", env)
	}
	if _, ok := env["DB_PASSWORD"]; ok {
		t.Error("a host secret reached the tools")
	}
	if _, ok := env["PIP_INDEX_URL"]; ok {
		t.Error("the host's own PIP_INDEX_URL reached the tools without Env passing it")
	}
	if !slices.ContainsFunc(res.Logs, func(l string) bool { return strings.Contains(l, "install spec brew jq: not run") }) {
		t.Errorf("the brew spec is not reported: %q", res.Logs)
	}
	if res.Status(StepPython) != Installed || res.Status(StepNode) != "" {
		t.Errorf("steps %+v (the node spec is for plan9 only)", res.Steps)
	}
	final := filepath.Join(dir, "fetcher", ".venv")
	if got := readFile(t, filepath.Join(final, "bin", "tool")); got != "#!"+filepath.Join(final, "bin", "python")+"\nimport tool\n" {
		t.Errorf("tool's shebang not relocated: %q", got)
	}
	if got := readFile(t, filepath.Join(final, "pyvenv.cfg")); !strings.Contains(got, "command = uv venv "+final+"\n") {
		t.Errorf("pyvenv.cfg not relocated: %q", got)
	}
	if target, err := os.Readlink(filepath.Join(final, "bin", "python3")); err != nil || target != filepath.Join(final, "bin", "python") {
		t.Errorf("python3 links to %q, %v", target, err)
	}
	assertNoLeftovers(t, dir)
}

// TestInstallDepsEmptyRequirements: a skill that declares Python
// dependencies gets a .venv even when its requirements file lists none,
// since the executor runs such a skill only with its own interpreter.
func TestInstallDepsEmptyRequirements(t *testing.T) {
	ctx := t.Context()
	tools := &fakeTools{}
	in, dir := newTestInstaller(t, &Options{Runner: tools})
	cfg := "runtime: python\nentrypoint: main.py\ndependencies:\n  python:\n    source: requirements.txt\n"
	src := skillFolder(t, "bare", "x", map[string]string{"skill.config.yaml": cfg, "requirements.txt": "# nothing yet\n", "main.py": "1\n"})
	if _, err := in.add(ctx, installer.Source{Dir: src}); err != nil {
		t.Fatal(err)
	}
	res, err := in.Install(ctx, "bare", nil)
	if err != nil || res.Status(StepPython) != Installed {
		t.Fatalf("%v %+v", err, res)
	}
	if lines := tools.lines(); len(lines) != 2 || !strings.HasPrefix(lines[1], "uv venv ") {
		t.Errorf("commands %q", lines)
	}
	if diags := in.Checker().Check(ctx, skillsLookup{dir}.mustGet(t, "bare")); diags.Has(diagnostics.VenvMissing) {
		t.Errorf("checker: %v", diags)
	}
}

// TestInstallDepsPlaceFaults fails and crashes between moving the old venv
// out and the new one in: a failure puts the old one back; after a crash the
// skill has no venv (VENV_MISSING), never a half-built one.
func TestInstallDepsPlaceFaults(t *testing.T) {
	for _, crash := range []bool{false, true} {
		t.Run(fmt.Sprint("crash=", crash), func(t *testing.T) {
			ctx := t.Context()
			in, dir := newTestInstaller(t, &Options{Runner: &fakeTools{}})
			src := skillFolder(t, "fetcher", "", map[string]string{"SKILL.md": uvSkillMD, "skill.config.yaml": uvSkillConfig, "main.py": "1\n"})
			if _, err := in.add(ctx, installer.Source{Dir: src}); err != nil {
				t.Fatal(err)
			}
			if _, err := in.Install(ctx, "fetcher", nil); err != nil {
				t.Fatal(err)
			}
			stamp := readFile(t, filepath.Join(dir, "fetcher", ".venv", stampFile))
			fail := errors.New("injected")
			if crash {
				fail = skillsdir.ErrSimulatedCrash
			}
			in.dir.Fault = func(p string) error {
				if p == "deps-old-moved" {
					return fail
				}
				return nil
			}
			if _, err := in.Install(ctx, "fetcher", &InstallOptions{Force: true}); !errors.Is(err, fail) {
				t.Fatalf("err %v, want %v", err, fail)
			}
			in.dir.Fault = nil
			if !crash {
				assertNoLeftovers(t, dir)
				if got := readFile(t, filepath.Join(dir, "fetcher", ".venv", stampFile)); got != stamp {
					t.Errorf("the old venv is not back: %q", got)
				}
				return
			}
			in.dir.Close()
			in = openTestInstaller(t, dir, &Options{Runner: &fakeTools{}})
			assertNoLeftovers(t, dir)
			if _, err := os.Lstat(filepath.Join(dir, "fetcher", ".venv")); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("after the crash: %v, want no .venv", err)
			}
			s := skillsLookup{dir}.mustGet(t, "fetcher")
			if diags := in.Checker().Check(ctx, s); !diags.Has(diagnostics.VenvMissing) {
				t.Errorf("checker: %v", diags)
			}
		})
	}
}

// TestInstallDepsDotnet: dotnet restore runs in a copy of the skill without
// its NuGet configuration files, so the skill cannot choose package sources
// or credentials, and the skill's files do not change; without dotnet the
// result says so with RUNTIME_UNAVAILABLE, and that is not an error.
func TestInstallDepsDotnet(t *testing.T) {
	ctx := t.Context()
	tools := &fakeTools{}
	in, dir := newTestInstaller(t, &Options{Runner: tools})
	zip := writeZip(t, map[string]string{
		"SKILL.md":          skillMD("conv", "Convert."),
		"skill.config.yaml": "runtime: dotnet\nentrypoint: tool/Tool.csproj\ndependencies:\n  dotnet:\n    project: tool/Tool.csproj\n",
		"tool/Tool.csproj":  "<Project/>\n",
		"NuGet.Config":      `<configuration><packageSources><add key="evil" value="https://evil.example/v3/index.json"/></packageSources></configuration>`,
		"tool/nuget.config": `<configuration/>`,
	})
	if _, err := in.add(ctx, installer.Source{ZipFile: zip}); err != nil {
		t.Fatal(err)
	}
	before := fixture.Fingerprint(t, filepath.Join(dir, "conv"))
	res, err := in.Install(ctx, "conv", nil)
	if err != nil || res.Status(StepDotnet) != Installed {
		t.Fatalf("%v %+v", err, res)
	}
	if lines := tools.lines(); len(lines) != 1 || lines[0] != "dotnet restore "+filepath.FromSlash("tool/Tool.csproj") {
		t.Errorf("commands %q", lines)
	}
	if run := tools.cmds[0].Dir; run == filepath.Join(dir, "conv") || !strings.HasPrefix(run, filepath.Join(dir, filepath.FromSlash(skillsdir.StagingDir))) {
		t.Errorf("dotnet restore ran in %s, want a copy in staging", run)
	}
	if len(tools.nugetCfg) != 0 {
		t.Errorf("dotnet restore saw the skill's NuGet configuration: %v", tools.nugetCfg)
	}
	if got := fixture.Fingerprint(t, filepath.Join(dir, "conv")); got != before {
		t.Error("dotnet restore changed the skill's files")
	}
	if rec, _ := in.Registry().Get(ctx, "conv"); rec.Fingerprint != before {
		t.Error("the record changed")
	}
	if !slices.ContainsFunc(res.Logs, func(l string) bool { return strings.Contains(l, "not using the skill's NuGet.Config") }) {
		t.Errorf("the logs do not say the NuGet.Config was dropped: %q", res.Logs)
	}
	assertNoLeftovers(t, dir)
	if _, err := in.install.Update(ctx, "conv", nil); err != nil {
		t.Errorf("update after restore: %v", err)
	}

	tools.noDotnet = true
	res, err = in.Install(ctx, "conv", nil)
	if err != nil || res.Status(StepDotnet) != Unavailable || !res.Diagnostics.Has(diagnostics.RuntimeUnavailable) {
		t.Errorf("without dotnet: %v %+v", err, res)
	}
}

// TestInstallDepsSystem runs real check commands without a shell.
func TestInstallDepsSystem(t *testing.T) {
	fixture.NeedGit(t)
	ctx := t.Context()
	in, _ := newTestInstaller(t, nil)
	cfg := `dependencies:
  system:
    - {name: git, check: "git --version"}
    - {name: ghost, check: "skillkit-no-such-program-7 --version"}
    - {name: git-bad-flag, check: "git --skillkit-no-such-option"}
    - git
    - skillkit-no-such-program-8
`
	if _, err := in.add(ctx, installer.Source{Dir: skillFolder(t, "sys", "x", map[string]string{"skill.config.yaml": cfg})}); err != nil {
		t.Fatal(err)
	}
	res, err := in.Install(ctx, "sys", nil)
	if err != nil {
		t.Fatal(err)
	}
	var statuses []Status
	for _, s := range res.Steps {
		statuses = append(statuses, s.Status)
	}
	if want := []Status{Present, Missing, Missing, Present, Missing}; !slices.Equal(statuses, want) {
		t.Errorf("statuses %v, want %v (%+v)", statuses, want, res.Steps)
	}
	missing := res.Diagnostics.WithCode(diagnostics.SystemDepMissing)
	if len(missing) != 3 || missing[0].Level != diagnostics.Warning || missing[0].Detail["dependency"] != "ghost" {
		t.Errorf("diagnostics %v", res.Diagnostics)
	}

	// A check with shell characters is refused before anything runs.
	in2, _ := newTestInstaller(t, &Options{Runner: failRunner(t)})
	bad := "dependencies:\n  system:\n    - {name: x, check: \"x --version; touch /tmp/pwned\"}\n"
	if _, err := in2.add(ctx, installer.Source{Dir: skillFolder(t, "sysbad", "x", map[string]string{"skill.config.yaml": bad})}); err != nil {
		t.Fatal(err)
	}
	if _, err := in2.Install(ctx, "sysbad", nil); !errors.Is(err, ErrInvalid) {
		t.Errorf("err %v", err)
	}
}

// TestDepsChecker covers each code, from PATH lookups and the file system
// only: it never runs a program, not even a check command whose program is
// on PATH.
func TestDepsChecker(t *testing.T) {
	ctx := t.Context()
	bin := t.TempDir()
	marker := filepath.Join(t.TempDir(), "ran")
	writeTree(t, bin, map[string]string{
		"node":     "#!/bin/sh\n",
		"finetool": "#!/bin/sh\ntouch " + marker + "\n",
	})
	for _, p := range []string{"node", "finetool"} {
		os.Chmod(filepath.Join(bin, p), 0o755)
	}
	c := NewChecker(&Options{Runner: failRunner(t), Env: map[string]string{"PATH": bin}})

	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"py/SKILL.md":            skillMD("py", "x"),
		"py/skill.config.yaml":   "runtime: python\nentrypoint: m.py\ndependencies:\n  python:\n    inline: [requests]\n",
		"py/m.py":                "",
		"js/SKILL.md":            skillMD("js", "x"),
		"js/skill.config.yaml":   "runtime: node\nentrypoint: m.js\n",
		"js/package.json":        `{"dependencies":{"left-pad":"^1.0.0"}}`,
		"js/m.js":                "",
		"sys/SKILL.md":           skillMD("sys", "x"),
		"sys/skill.config.yaml":  "dependencies:\n  system:\n    - {name: slow, check: slowtool --version}\n    - {name: fine, check: finetool -v}\n    - {name: node}\n    - {name: shipped, check: scripts/check.sh}\n    - {name: ghost}\n",
		"venv/SKILL.md":          skillMD("venv", "x"),
		"venv/skill.config.yaml": "runtime: python\nentrypoint: m.py\ndependencies:\n  python:\n    inline: [requests]\n",
		"venv/m.py":              "",
		"venv/.venv/bin/python":  "",
		// Files the config names that are not there, and the tools to
		// install what it declares, which are not on PATH either.
		"decl/SKILL.md":          skillMD("decl", "x"),
		"decl/skill.config.yaml": "dependencies:\n  python:\n    source: reqs/missing.txt\n  dotnet:\n    project: tools/Conv.csproj\nsetup:\n  posix: scripts/setup.py\n  win32: scripts/setup.py\n",
	})
	l := skillsLookup{dir}
	codes := func(name string) []diagnostics.Code {
		var out []diagnostics.Code
		for _, d := range c.Check(ctx, l.mustGet(t, name)) {
			out = append(out, d.Code)
		}
		return out
	}
	if got := codes("py"); !slices.Equal(got, []diagnostics.Code{diagnostics.RuntimeUnavailable, diagnostics.VenvMissing}) {
		t.Errorf("py: %v", got)
	}
	if got := codes("js"); !slices.Equal(got, []diagnostics.Code{diagnostics.DepsMissing, diagnostics.RuntimeUnavailable}) {
		t.Errorf("js (no npm to install its packages): %v", got)
	}
	decl := c.Check(ctx, l.mustGet(t, "decl"))
	var missing, tools []string
	for _, d := range decl {
		switch d.Code {
		case diagnostics.DeclaredFileMissing:
			missing = append(missing, fmt.Sprint(d.Detail["field"]))
		case diagnostics.RuntimeUnavailable:
			tools = append(tools, fmt.Sprint(d.Detail["program"]))
		}
	}
	setupField := "setup.posix"
	if runtime.GOOS == "windows" {
		setupField = "setup.win32"
	}
	if want := []string{"dependencies.python.source", "dependencies.dotnet.project", setupField}; !slices.Equal(missing, want) {
		t.Errorf("decl: declared files missing %v, want %v (%v)", missing, want, decl)
	}
	if want := []string{defaultPython(), "dotnet"}; !slices.Equal(tools, want) {
		t.Errorf("decl: tools missing %v, want %v (%v)", tools, want, decl)
	}
	if got := codes("venv"); len(got) != 0 {
		t.Errorf("venv (its own interpreter, python3 not needed): %v", got)
	}
	sys := c.Check(ctx, l.mustGet(t, "sys"))
	var deps []string
	for _, d := range sys {
		if d.Code != diagnostics.SystemDepMissing || d.Level != diagnostics.Warning {
			t.Errorf("sys: %v", d)
		}
		deps = append(deps, fmt.Sprint(d.Detail["dependency"]))
	}
	if want := []string{"slow", "shipped", "ghost"}; !slices.Equal(deps, want) {
		t.Errorf("sys: missing %v, want %v (%v)", deps, want, sys)
	}
	if _, err := os.Stat(marker); !errors.Is(err, os.ErrNotExist) {
		t.Error("the checker ran a check command")
	}
	if d := c.Check(ctx, l.mustGet(t, "py")); d[0].Level != diagnostics.Error || d[1].Level != diagnostics.Warning {
		t.Errorf("levels %v", d)
	}
}

// TestSetupScripts: a setup script runs only when confirmed and only for
// skills installed from GitHub, git or a ZIP; its path must stay inside
// the skill, without links.
func TestSetupScripts(t *testing.T) {
	fixture.NeedTool(t, "bash", "bash", "-c", "true")
	ctx := t.Context()
	// The setup script runs for at most 120 s (SetupTimeout, documented).
	var setupTimeout atomic.Int64
	local := &executor.LocalRunner{}
	in, dir := newTestInstaller(t, &Options{Runner: executor.RunnerFunc(func(ctx context.Context, c executor.Command) (executor.Result, error) {
		if slices.ContainsFunc(c.Args, func(a string) bool { return strings.HasSuffix(a, "setup.sh") }) {
			setupTimeout.Store(int64(c.Timeout))
		}
		return local.Run(ctx, c)
	})})
	files := map[string]string{
		"SKILL.md": skillMD("setupper", "x"),
		// The script writes into its folder, which the skill declares.
		"skill.config.yaml": "setup:\n  posix: scripts/setup.sh\npermissions:\n  write: [.]\n",
		"scripts/setup.sh":  "echo \"ran in $PWD\" > setup-ran.txt\necho setting up\n",
	}
	if _, err := in.add(ctx, installer.Source{ZipFile: writeZip(t, files)}); err != nil {
		t.Fatal(err)
	}
	marker := filepath.Join(dir, "setupper", "setup-ran.txt")
	res, err := in.Install(ctx, "setupper", nil)
	if err != nil || res.Status(StepSetup) != Skipped {
		t.Fatalf("unconfirmed: %v %+v", err, res)
	}
	if _, err := os.Stat(marker); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("the setup script ran without confirmation")
	}
	res, err = in.Install(ctx, "setupper", &InstallOptions{Setup: true})
	if err != nil || res.Status(StepSetup) != Ran {
		t.Fatalf("confirmed: %v %+v", err, res)
	}
	if got := readFile(t, marker); got != "ran in "+filepath.Join(dir, "setupper")+"\n" {
		t.Errorf("marker %q", got)
	}
	if !slices.ContainsFunc(res.Logs, func(l string) bool { return strings.HasSuffix(l, "setting up") }) {
		t.Errorf("the script's output is not in the logs: %q", res.Logs)
	}
	if got := time.Duration(setupTimeout.Load()); got != 120*time.Second {
		t.Errorf("the setup script ran with a timeout of %v, want 120s", got)
	}
	rec, _ := in.Registry().Get(ctx, "setupper")
	if rec.Fingerprint != fixture.Fingerprint(t, filepath.Join(dir, "setupper")) {
		t.Error("the record does not account for what the setup script wrote")
	}

	// On a replica sharing its registry, the record is every replica's: the
	// setup's writes move only this replica's note of what it placed, and
	// the files still count as unedited.
	fleetDir := filepath.Join(t.TempDir(), "skills")
	shared := &registry.MemStore{}
	d, err := skillsdir.Open(fleetDir, shared, &skillsdir.Options{Packages: &registry.MemPackages{}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	replica := &folder{Installer: New(d, nil), dir: d, install: installer.New(d, nil)}
	if _, err := replica.add(ctx, installer.Source{ZipFile: writeZip(t, files)}); err != nil {
		t.Fatal(err)
	}
	recorded, _ := shared.Get(ctx, "setupper")
	if _, err := replica.Install(ctx, "setupper", &InstallOptions{Setup: true}); err != nil {
		t.Fatal(err)
	}
	after, _ := shared.Get(ctx, "setupper")
	placed, err := d.Placed("setupper")
	if err != nil || !after.Equal(recorded) || placed != fixture.Fingerprint(t, filepath.Join(fleetDir, "setupper")) || placed == recorded.Fingerprint {
		t.Errorf("on a replica: record %s (was %s), placed %s, files %s (%v)", after.Fingerprint, recorded.Fingerprint, placed,
			fixture.Fingerprint(t, filepath.Join(fleetDir, "setupper")), err)
	}
	if modified, err := d.Modified(ctx, after); err != nil || modified {
		t.Errorf("the setup's writes count as an edit on the replica: %v %v", modified, err)
	}

	// The same skill copied from a local folder: refused, before anything runs.
	src := skillFolder(t, "localsetup", "x", map[string]string{"skill.config.yaml": files["skill.config.yaml"], "scripts/setup.sh": files["scripts/setup.sh"]})
	inLocal, localDir := newTestInstaller(t, &Options{Runner: failRunner(t)})
	if _, err := inLocal.add(ctx, installer.Source{Dir: src}); err != nil {
		t.Fatal(err)
	}
	if _, err := inLocal.Install(ctx, "localsetup", &InstallOptions{Setup: true}); !errors.Is(err, ErrNotAllowed) {
		t.Errorf("setup on a local skill: %v", err)
	}
	if _, err := os.Stat(filepath.Join(localDir, "localsetup", "setup-ran.txt")); !errors.Is(err, os.ErrNotExist) {
		t.Error("the setup script of a local skill ran")
	}

	// A path that leaves the skill makes the config invalid.
	escape := map[string]string{"SKILL.md": skillMD("escaper", "x"), "skill.config.yaml": "setup:\n  posix: ../escape.sh\n"}
	if _, err := in.add(ctx, installer.Source{ZipFile: writeZip(t, escape)}); err != nil {
		t.Fatal(err)
	}
	if _, err := in.Install(ctx, "escaper", &InstallOptions{Setup: true}); !errors.Is(err, ErrInvalidSkill) {
		t.Errorf("setup ../escape.sh: %v", err)
	}

	// A link in place of the script is refused.
	outside := filepath.Join(t.TempDir(), "evil.sh")
	writeTree(t, filepath.Dir(outside), map[string]string{"evil.sh": "touch " + filepath.Join(dir, "pwned") + "\n"})
	script := filepath.Join(dir, "setupper", "scripts", "setup.sh")
	os.Remove(script)
	if err := os.Symlink(outside, script); err != nil {
		t.Skip("no symbolic links here")
	}
	if _, err := in.Install(ctx, "setupper", &InstallOptions{Setup: true}); !errors.Is(err, ErrInvalid) {
		t.Errorf("setup through a link: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "pwned")); !errors.Is(err, os.ErrNotExist) {
		t.Error("the linked script ran")
	}

	// A failing script is an error naming the step.
	os.Remove(script)
	writeTree(t, filepath.Join(dir, "setupper"), map[string]string{"scripts/setup.sh": "echo broken >&2\nexit 3\n"})
	_, err = in.Install(ctx, "setupper", &InstallOptions{Setup: true})
	var de *CommandError
	if !errors.As(err, &de) || de.Step != StepSetup || de.ExitCode != 3 || de.Output != "broken" {
		t.Errorf("failing setup: %v", err)
	}
}

func TestSetupRules(t *testing.T) {
	for src, ok := range map[registry.Source]bool{
		registry.SourceGitHub: true, registry.SourceGit: true, registry.SourceZip: true,
		registry.SourceLocal: false, registry.SourceAgent: false,
	} {
		err := SetupAllowed("x", &registry.Record{Name: "x", Source: src})
		if (err == nil) != ok || err != nil && !errors.Is(err, ErrNotAllowed) {
			t.Errorf("%s: %v", src, err)
		}
	}
	if err := SetupAllowed("x", nil); !errors.Is(err, ErrNotAllowed) {
		t.Errorf("hand-placed: %v", err)
	}
	for _, p := range []string{"scripts/../setup.sh", "../x.sh", "/etc/x.sh", `..\x.ps1`, "a/./../../b"} {
		if _, err := insidePath("setup", p); !errors.Is(err, ErrInvalid) {
			t.Errorf("%q accepted", p)
		}
	}
}

// TestInstallDepsRefusals: bad declarations fail before any command.
func TestInstallDepsRefusals(t *testing.T) {
	ctx := t.Context()
	in, _ := newTestInstaller(t, &Options{Runner: failRunner(t)})
	for name, files := range map[string]map[string]string{
		"badnpm":   {"skill.config.yaml": "dependencies:\n  node:\n    packages: [\"left-pad; rm -rf /\"]\n"},
		"badurl":   {"skill.config.yaml": "dependencies:\n  node:\n    packages: [\"https://evil.example/x.tgz\"]\n"},
		"dashnpm":  {"skill.config.yaml": "dependencies:\n  node:\n    packages: [\"--registry=http://evil\"]\n"},
		"badpy":    {"skill.config.yaml": "dependencies:\n  python:\n    inline: [\"requests ; os_name=='nt'\"]\n"},
		"spacepy":  {"skill.config.yaml": "dependencies:\n  python:\n    inline: [\"requests evil\"]\n"},
		"reqfile":  {"skill.config.yaml": "dependencies:\n  python:\n    source: requirements.txt\n", "requirements.txt": "--index-url http://evil/simple\nrequests\n"},
		"gitdep":   {"package.json": `{"dependencies":{"x":"git+https://github.com/a/b.git"}}`},
		"ghdep":    {"package.json": `{"dependencies":{"x":"a/b"}}`},
		"filedep":  {"package.json": `{"dependencies":{"x":"file:../../etc"}}`},
		"fileabs":  {"package.json": `{"dependencies":{"x":"file:/etc"}}`},
		"filepct":  {"package.json": `{"dependencies":{"x":"file:%2e%2e/%2e%2e/etc"}}`},
		"filehome": {"package.json": `{"dependencies":{"x":"file:~/x"}}`},
		"filetxt":  {"package.json": `{"dependencies":{"x":"file:assets/x.txt"}}`, "assets/x.txt": "x"},
		"filegone": {"package.json": `{"dependencies":{"x":"file:assets/none"}}`},
		"nested": {
			"package.json":          `{"dependencies":{"a":"file:assets/a"}}`,
			"assets/a/package.json": `{"name":"a","version":"1.0.0","dependencies":{"b":"file:../b"}}`,
			"assets/b/package.json": `{"name":"b","version":"1.0.0","dependencies":{"c":"file:../../../c"}}`,
		},
		"nestedgit": {
			"package.json":          `{"dependencies":{"a":"file:assets/a"}}`,
			"assets/a/package.json": `{"name":"a","version":"1.0.0","optionalDependencies":{"g":"github:a/b"}}`,
		},
		"workspace": {"package.json": `{"private":true,"workspaces":["../outside"]}`},
		"tarfile": {
			"package.json":       `{"dependencies":{"t":"file:vendor/t-1.0.0.tgz"}}`,
			"vendor/t-1.0.0.tgz": string(tgzOf(t, map[string]string{"package/package.json": `{"name":"t","version":"1.0.0","dependencies":{"o":"file:../o"}}`})),
		},
		"targit": {
			"package.json":       `{"dependencies":{"t":"file:vendor/t-1.0.0.tgz"}}`,
			"vendor/t-1.0.0.tgz": string(tgzOf(t, map[string]string{"package/package.json": `{"name":"t","version":"1.0.0","dependencies":{"o":"git+https://example.com/o.git"}}`})),
		},
		"specdep": {"SKILL.md": "---\nname: specdep\ndescription: d\nmetadata:\n  install:\n    - {kind: node, package: \"-x\"}\n---\n"},
	} {
		if files["SKILL.md"] == "" {
			files["SKILL.md"] = skillMD(name, "x")
		}
		if _, err := in.add(ctx, installer.Source{Dir: skillFolder(t, name, "", files)}); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if _, err := in.Install(ctx, name, nil); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: %v, want ErrInvalid", name, err)
		}
	}
	if _, err := in.Install(ctx, "nosuch", nil); !errors.Is(err, ErrNotInstalled) {
		t.Errorf("unknown skill: %v", err)
	}
	if _, err := in.Install(ctx, "../x", nil); err == nil {
		t.Error("a bad name was accepted")
	}
}

// tgzOf builds a gzipped tar archive of files, as npm pack would.
func tgzOf(t testing.TB, files map[string]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for name, data := range files {
		if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(data)), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		tw.Write([]byte(data))
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestInstallDepsPutBackFails: placing the new venv fails and so does
// putting the old one back. The old venv is then only in the operation's
// trash, which must be kept (and named in the error), not emptied.
func TestInstallDepsPutBackFails(t *testing.T) {
	ctx := t.Context()
	in, dir := newTestInstaller(t, &Options{Runner: &fakeTools{}})
	src := skillFolder(t, "fetcher", "", map[string]string{"SKILL.md": uvSkillMD, "skill.config.yaml": uvSkillConfig, "main.py": "1\n"})
	if _, err := in.add(ctx, installer.Source{Dir: src}); err != nil {
		t.Fatal(err)
	}
	if _, err := in.Install(ctx, "fetcher", nil); err != nil {
		t.Fatal(err)
	}
	stamp := readFile(t, filepath.Join(dir, "fetcher", ".venv", stampFile))
	moveFailed, putBackFailed := errors.New("injected: move"), errors.New("injected: put back")
	in.dir.Fault = func(p string) error {
		switch p {
		case "deps-old-moved":
			return moveFailed
		case "deps-put-back":
			return putBackFailed
		}
		return nil
	}
	_, err := in.Install(ctx, "fetcher", &InstallOptions{Force: true})
	if !errors.Is(err, moveFailed) || !errors.Is(err, putBackFailed) {
		t.Fatalf("err %v", err)
	}
	in.dir.Fault = nil
	trash := filepath.Join(dir, filepath.FromSlash(skillsdir.TrashDir))
	entries, _ := os.ReadDir(trash)
	if len(entries) != 1 {
		t.Fatalf("trash holds %v, want the old venv", entries)
	}
	kept := filepath.Join(trash, entries[0].Name())
	if got := readFile(t, filepath.Join(kept, stampFile)); got != stamp {
		t.Errorf("the trash holds %q, want the old venv's stamp %q", got, stamp)
	}
	if !strings.Contains(err.Error(), kept) {
		t.Errorf("the error does not say where the old venv is: %v", err)
	}
}

// TestInstallDepsMasksCredentials: a host's PipArgs and NpmArgs may carry
// an index URL with a token. The commands run with them; the logs, progress
// events and errors show them masked.
func TestInstallDepsMasksCredentials(t *testing.T) {
	ctx := t.Context()
	tools := &fakeTools{result: func(c executor.Command) (executor.Result, bool) {
		if c.Path == "uv" && len(c.Args) > 0 && c.Args[0] == "pip" {
			return executor.Result{ExitCode: 1, Stderr: []byte("error: cannot reach https://__token__:SECRET-ONE@pypi.example/simple\n")}, true
		}
		return executor.Result{}, false
	}}
	var ev events
	in, _ := newTestInstaller(t, &Options{Runner: tools, Progress: ev.add, PipArgs: []string{
		"--index-url", "https://__token__:SECRET-ONE@pypi.example/simple",
		"--extra-index-url=https://user:SECRET-TWO@mirror.example/simple",
		"--find-links", "https://SECRET-THREE@files.example/wheels",
		"--password", "SECRET-FOUR",
		"--//registry.example/:_authToken=SECRET-FIVE",
	}})
	src := skillFolder(t, "fetcher", "", map[string]string{"SKILL.md": uvSkillMD, "skill.config.yaml": uvSkillConfig, "main.py": "1\n"})
	if _, err := in.add(ctx, installer.Source{Dir: src}); err != nil {
		t.Fatal(err)
	}
	res, err := in.Install(ctx, "fetcher", nil)
	var de *CommandError
	if !errors.As(err, &de) {
		t.Fatalf("err %v, want a CommandError", err)
	}
	shown := append(append([]string{err.Error(), de.Command, de.Output}, res.Logs...), ev.messages(OpDeps)...)
	for _, st := range res.Steps {
		shown = append(shown, st.Detail)
	}
	if last := ev.last(); last.Err != nil {
		shown = append(shown, last.Err.Error())
	}
	for _, s := range shown {
		if strings.Contains(s, "SECRET") {
			t.Errorf("a credential is shown: %s", s)
		}
	}
	for _, want := range []string{"https://***@pypi.example/simple", "--extra-index-url=https://***@mirror.example/simple", "https://***@files.example/wheels", "--password ***", "--//registry.example/:_authToken=***"} {
		if !strings.Contains(de.Command, want) {
			t.Errorf("command %q does not show %q", de.Command, want)
		}
	}
	ran := tools.lines()
	if len(ran) < 3 || !strings.Contains(ran[2], "https://__token__:SECRET-ONE@pypi.example/simple") || !strings.Contains(ran[2], "SECRET-FOUR") || !strings.Contains(ran[2], "_authToken=SECRET-FIVE") {
		t.Errorf("the command did not run with the real arguments: %q", ran)
	}
}

// TestInstallDepsCheckCommands: InstallDeps runs a check command only when
// its program is a bare name found on PATH, in the skill folder; a program
// given as a path (one the skill ships) is refused before anything runs.
func TestInstallDepsCheckCommands(t *testing.T) {
	ctx := t.Context()
	bin := t.TempDir()
	writeTree(t, bin, map[string]string{"mytool": "#!/bin/sh\n"})
	os.Chmod(filepath.Join(bin, "mytool"), 0o755)
	var ran []executor.Command
	runner := executor.RunnerFunc(func(_ context.Context, c executor.Command) (executor.Result, error) {
		ran = append(ran, c)
		return executor.Result{}, nil
	})
	in, dir := newTestInstaller(t, &Options{Runner: runner, Env: map[string]string{"PATH": bin}})
	cfg := "dependencies:\n  system:\n    - {name: mine, check: mytool --version}\n    - {name: absent, check: othertool --version}\n"
	if _, err := in.add(ctx, installer.Source{Dir: skillFolder(t, "checked", "x", map[string]string{"skill.config.yaml": cfg})}); err != nil {
		t.Fatal(err)
	}
	res, err := in.Install(ctx, "checked", nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(ran) != 1 || ran[0].Path != "mytool" || ran[0].Dir != filepath.Join(dir, "checked") {
		t.Fatalf("ran %+v, want only mytool in the skill folder", ran)
	}
	if got := []Status{res.Steps[0].Status, res.Steps[1].Status}; !slices.Equal(got, []Status{Present, Missing}) {
		t.Errorf("steps %+v", res.Steps)
	}

	ran = nil
	shipped := "dependencies:\n  system:\n    - {name: mine, check: mytool --version}\n    - {name: own, check: scripts/check.sh}\n"
	if _, err := in.add(ctx, installer.Source{Dir: skillFolder(t, "shipped", "x", map[string]string{"skill.config.yaml": shipped, "scripts/check.sh": "echo hi\n"})}); err != nil {
		t.Fatal(err)
	}
	if _, err := in.Install(ctx, "shipped", nil); !errors.Is(err, ErrInvalid) || len(ran) != 0 {
		t.Errorf("a shipped check program: %v, ran %+v", err, ran)
	}
}

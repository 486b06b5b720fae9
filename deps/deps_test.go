package deps

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/skillkit-go/skillkit/diagnostics"
	"github.com/skillkit-go/skillkit/executor"
	"github.com/skillkit-go/skillkit/installer"
	"github.com/skillkit-go/skillkit/internal/fixture"
	"github.com/skillkit-go/skillkit/internal/skillsdir"
	"github.com/skillkit-go/skillkit/skill"
)

const greeterConfig = `runtime: python
entrypoint: main.py
dependencies:
  python:
    source: requirements.txt
`

const greeterMain = `import json, sys
import greetlib
data = json.load(sys.stdin)
print(json.dumps({"greeting": greetlib.greet(data.get("name", "")), "prefix": sys.prefix}))
`

// probeMain reports whether a module is importable from the skill.
const probeMain = `import json, sys
try:
    import greetlib
    found = True
except ImportError:
    found = False
print(json.dumps({"found": found}, separators=(",", ":")))
`

// TestInstallDepsPython builds a real venv with python -m venv and pip,
// offline: the requirement is a wheel made in the test, found through the
// pip arguments the host passes. The skill's entrypoint then imports it
// from its own .venv through the executor; another skill cannot.
func TestInstallDepsPython(t *testing.T) {
	needVenv(t)
	ctx := t.Context()
	wheels := t.TempDir()
	buildWheel(t, wheels, "greetlib", "1.0", "def greet(n):\n    return 'hello ' + n\n")
	var ev events
	in, dir := newTestInstaller(t, &Options{
		Progress: ev.add,
		NoUV:     true,
		PipArgs:  []string{"--no-index", "--find-links", wheels},
		Env:      map[string]string{"HOME": t.TempDir()},
	})
	for name, files := range map[string]map[string]string{
		"greeter": {"skill.config.yaml": greeterConfig, "requirements.txt": "# the greeting library\ngreetlib==1.0\n", "main.py": greeterMain},
		"probe":   {"skill.config.yaml": "runtime: python\nentrypoint: main.py\n", "main.py": probeMain},
	} {
		if _, err := in.add(ctx, installer.Source{Dir: skillFolder(t, name, "Run it.", files)}); err != nil {
			t.Fatal(err)
		}
	}
	ex := executor.New(skillsLookup{dir}, nil, nil)
	if _, err := ex.Execute(ctx, "greeter", json.RawMessage(`{"name":"x"}`)); !errors.Is(err, executor.ErrNotRunnable) {
		t.Fatalf("before InstallDeps: %v, want not runnable (VENV_MISSING)", err)
	}
	checker := in.Checker()
	if diags := checker.Check(ctx, skillsLookup{dir}.mustGet(t, "greeter")); !diags.Has(diagnostics.VenvMissing) {
		t.Errorf("checker before InstallDeps: %v", diags)
	}

	res, err := in.Install(ctx, "greeter", nil)
	if err != nil {
		t.Fatalf("%v\n%s", err, strings.Join(res.Logs, "\n"))
	}
	if res.Status(StepPython) != Installed {
		t.Fatalf("steps %+v", res.Steps)
	}
	if !slices.ContainsFunc(ev.messages(OpDeps), func(m string) bool { return strings.Contains(m, "-m pip install") }) {
		t.Errorf("no progress event for pip: %q", ev.messages(OpDeps))
	}
	if last := ev.last(); last.Op != OpDeps || !last.Done || last.Err != nil {
		t.Errorf("final event %+v", last)
	}
	assertNoLeftovers(t, dir)
	if diags := checker.Check(ctx, skillsLookup{dir}.mustGet(t, "greeter")); len(diags) != 0 {
		t.Errorf("checker after InstallDeps: %v", diags)
	}
	// Building dependencies is not an edit of the skill.
	rec, _ := in.Registry().Get(ctx, "greeter")
	if changed, err := in.dir.Modified(ctx, rec); err != nil || changed {
		t.Errorf("the skill looks modified after InstallDeps: %v %v", changed, err)
	}

	out, err := ex.Execute(ctx, "greeter", json.RawMessage(`{"name":"x"}`))
	if err != nil {
		t.Fatalf("%v: %s", err, out.Error)
	}
	var got struct{ Greeting, Prefix string }
	json.Unmarshal(out.Output, &got)
	if got.Greeting != "hello x" || got.Prefix != filepath.Join(dir, "greeter", ".venv") {
		t.Errorf("output %s", out.Output)
	}
	// The venv was built in the staging area: its console scripts point at
	// where it is now.
	pip := filepath.Join(dir, "greeter", ".venv", "bin", "pip")
	if data, err := os.ReadFile(pip); err == nil {
		if strings.Contains(string(data), skillsdir.StagingDir) {
			t.Errorf("pip still points into the staging area: %.200s", data)
		}
		if out, err := exec.Command(pip, "--version").CombinedOutput(); err != nil {
			t.Errorf("the relocated pip does not run: %v %s", err, out)
		}
	}
	// Another skill does not see greeter's packages.
	out, err = ex.Execute(ctx, "probe", nil)
	if err != nil || string(out.Output) != `{"found":false}` {
		t.Errorf("probe: %s %v", out.Output, err)
	}

	// Again: nothing to do.
	res, err = in.Install(ctx, "greeter", nil)
	if err != nil || res.Status(StepPython) != UpToDate {
		t.Fatalf("second InstallDeps: %v %+v", err, res.Steps)
	}

	// A rebuild that fails leaves the working venv in place.
	writeTree(t, filepath.Join(dir, "greeter"), map[string]string{"requirements.txt": "greetlib==1.0\nnowhere-to-be-found==9\n"})
	res, err = in.Install(ctx, "greeter", nil)
	var de *CommandError
	if !errors.As(err, &de) || de.Step != StepPython || res.Status(StepPython) != Failed {
		t.Fatalf("failing rebuild: %v %+v", err, res)
	}
	if !strings.Contains(err.Error(), "nowhere-to-be-found") {
		t.Errorf("the error does not say what pip could not find: %v", err)
	}
	assertNoLeftovers(t, dir)
	if out, err := ex.Execute(ctx, "greeter", json.RawMessage(`{"name":"y"}`)); err != nil || !strings.Contains(string(out.Output), "hello y") {
		t.Errorf("after a failed rebuild: %s %v", out.Output, err)
	}
}

func (l skillsLookup) mustGet(t testing.TB, name string) *skill.Skill {
	t.Helper()
	s, ok := l.Get(name)
	if !ok {
		t.Fatalf("skill %s does not load", name)
	}
	return s
}

const padderMain = `const pad = require('leftpad-local');
const shout = require('shout-local');
let input = '';
process.stdin.on('data', d => input += d);
process.stdin.on('end', () => {
  const x = JSON.parse(input || '{}');
  console.log(JSON.stringify({text: shout(pad(x.text, 6))}));
});
`

const nodeProbeMain = `let found = true;
try { require('leftpad-local'); } catch (e) { found = false; }
console.log(JSON.stringify({found}));
`

// TestInstallDepsNode runs a real npm install, offline: one package is a
// tarball made with npm pack and shipped in the skill (a file: dependency
// of its package.json), the other comes from a registry on the loopback
// interface that the host names in npm_config_registry.
func TestInstallDepsNode(t *testing.T) {
	needNpm(t)
	ctx := t.Context()
	reg := newNpmRegistry(t, map[string][]byte{
		"shout-local": npmPack(t, "shout-local", "1.0.0", "module.exports = s => String(s).toUpperCase() + '!';\n"),
	})
	// Install scripts, of the skill's package and of a dependency, must not
	// run (npm install --ignore-scripts): each would leave a marker.
	markers := t.TempDir()
	script := func(name string) string {
		return `node -e \"require('fs').writeFileSync(require('path').join('` + filepath.ToSlash(markers) + `', '` + name + `'), 'ran')\"`
	}
	leftpad := tgzOf(t, map[string]string{
		"package/package.json": `{"name":"leftpad-local","version":"1.0.0","main":"index.js","scripts":{"preinstall":"` + script("dep-preinstall") + `","postinstall":"` + script("dep-postinstall") + `"}}`,
		"package/index.js":     "module.exports = (s, n) => String(s).padStart(n, '*');\n",
	})
	in, dir := newTestInstaller(t, &Options{
		Env: map[string]string{"HOME": t.TempDir(), "npm_config_registry": reg.URL + "/"},
	})
	padder := map[string]string{
		"skill.config.yaml":              "runtime: node\nentrypoint: main.js\ndependencies:\n  node:\n    packages: [shout-local@1.0.0]\n",
		"package.json":                   `{"name":"padder","private":true,"scripts":{"postinstall":"` + script("skill-postinstall") + `","prepare":"` + script("skill-prepare") + `"},"dependencies":{"leftpad-local":"file:vendor/leftpad-local-1.0.0.tgz"}}`,
		"vendor/leftpad-local-1.0.0.tgz": string(leftpad),
		"main.js":                        padderMain,
		".npmrc":                         "registry=http://127.0.0.1:9/\n",
	}
	for name, files := range map[string]map[string]string{
		"padder":    padder,
		"nodeprobe": {"skill.config.yaml": "runtime: node\nentrypoint: main.js\n", "main.js": nodeProbeMain},
	} {
		if _, err := in.add(ctx, installer.Source{Dir: skillFolder(t, name, "Run it.", files)}); err != nil {
			t.Fatal(err)
		}
	}
	if diags := in.Checker().Check(ctx, skillsLookup{dir}.mustGet(t, "padder")); !diags.Has(diagnostics.DepsMissing) {
		t.Errorf("checker before InstallDeps: %v", diags)
	}
	res, err := in.Install(ctx, "padder", nil)
	if err != nil {
		if res != nil {
			t.Log(strings.Join(res.Logs, "\n"))
		}
		t.Fatal(err)
	}
	if res.Status(StepNode) != Installed {
		t.Fatalf("steps %+v", res.Steps)
	}
	if hits := reg.Asked(); !slices.Contains(hits, "/shout-local") {
		t.Errorf("the registry the host named was not asked: %q", hits)
	}
	if ran, _ := os.ReadDir(markers); len(ran) != 0 {
		t.Errorf("npm ran install scripts: %v", ran)
	}
	assertNoLeftovers(t, dir)
	// npm's writes stay in the staging copy: the skill's files are as
	// installed.
	if _, err := os.Stat(filepath.Join(dir, "padder", "package-lock.json")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("npm wrote package-lock.json into the skill: %v", err)
	}
	rec, _ := in.Registry().Get(ctx, "padder")
	if changed, err := in.dir.Modified(ctx, rec); err != nil || changed {
		t.Errorf("the skill looks modified after InstallDeps: %v %v", changed, err)
	}
	if diags := in.Checker().Check(ctx, skillsLookup{dir}.mustGet(t, "padder")); len(diags) != 0 {
		t.Errorf("checker after InstallDeps: %v", diags)
	}

	ex := executor.New(skillsLookup{dir}, nil, nil)
	out, err := ex.Execute(ctx, "padder", json.RawMessage(`{"text":"ab"}`))
	if err != nil || string(out.Output) != `{"text":"****AB!"}` {
		t.Fatalf("padder: %s %v %s", out.Output, err, out.Error)
	}
	out, err = ex.Execute(ctx, "nodeprobe", nil)
	if err != nil || string(out.Output) != `{"found":false}` {
		t.Errorf("another skill sees padder's packages: %s %v", out.Output, err)
	}
	res, err = in.Install(ctx, "padder", nil)
	if err != nil || res.Status(StepNode) != UpToDate {
		t.Errorf("second InstallDeps: %v %+v", err, res.Steps)
	}
}

// TestInstallDepsNodeStaysInTheSkill runs real npm installs that would
// leave the skill or its checked dependencies: a file: dependency whose own
// package.json points out of the skill, a lock file whose "resolved" URL
// names another tarball, a registry package that depends on a git
// repository. The first is refused before npm runs; npm never sees the
// lock file; git cannot run. A chain of file: dependencies inside the skill
// still installs.
func TestInstallDepsNodeStaysInTheSkill(t *testing.T) {
	needNpm(t)
	fixture.NeedGit(t)
	ctx := t.Context()
	// A git repository holding a package, which a registry package depends on.
	repo := newRepo(t)
	repo.Write(map[string]string{"package.json": `{"name":"fromgit","version":"1.0.0"}`, "index.js": "module.exports = 'git';\n"})
	repo.Commit("x")
	shout := npmPack(t, "shout-local", "1.0.0", "module.exports = 'real';\n")
	evil := npmPack(t, "shout-local", "1.0.0", "module.exports = 'evil';\n")
	reg := newNpmRegistry(t, map[string][]byte{
		"shout-local": shout,
		"evil":        evil,
		"gitty":       npmPack(t, "gitty", "1.0.0", "module.exports = require('fromgit');\n"),
	})
	reg.Deps = map[string]map[string]string{"gitty": {"fromgit": "git+" + repo.URL()}}
	in, dir := newTestInstaller(t, &Options{
		Env: map[string]string{"HOME": t.TempDir(), "npm_config_registry": reg.URL + "/"},
	})
	outside := t.TempDir()
	writeTree(t, outside, map[string]string{"package.json": `{"name":"outside","version":"1.0.0"}`, "index.js": "module.exports = 'outside';\n"})

	install := func(name string, files map[string]string) (*Result, error) {
		t.Helper()
		if _, err := in.add(ctx, installer.Source{Dir: skillFolder(t, name, "x", files)}); err != nil {
			t.Fatal(err)
		}
		return in.Install(ctx, name, nil)
	}

	// A file: dependency's own package.json points out of the skill.
	for name, inner := range map[string]string{
		"absolute": `{"name":"inner","version":"1.0.0","dependencies":{"outside":"file:` + filepath.ToSlash(outside) + `"}}`,
		"upward":   `{"name":"inner","version":"1.0.0","dependencies":{"outside":"file:../../../outside"}}`,
		"dev":      `{"name":"inner","version":"1.0.0","devDependencies":{"outside":"file:` + filepath.ToSlash(outside) + `"}}`,
		"gitdep":   `{"name":"inner","version":"1.0.0","dependencies":{"fromgit":"git+` + repo.URL() + `"}}`,
	} {
		_, err := install("escape-"+name, map[string]string{
			"package.json":              `{"name":"s","private":true,"dependencies":{"inner":"file:assets/inner"}}`,
			"assets/inner/package.json": inner,
		})
		if !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: %v, want ErrInvalid", name, err)
		}
		if _, err := os.Lstat(filepath.Join(dir, "escape-"+name, "node_modules")); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s: npm ran: %v", name, err)
		}
	}

	// A lock file names another tarball for a checked dependency.
	lock := fmt.Sprintf(`{"name":"s","lockfileVersion":3,"requires":true,"packages":{"":{"name":"s","dependencies":{"shout-local":"1.0.0"}},`+
		`"node_modules/shout-local":{"version":"1.0.0","resolved":%q,"integrity":%q}}}`, reg.URL+"/evil/-/evil-1.0.0.tgz", fixture.NpmIntegrity(evil))
	res, err := install("locked", map[string]string{
		"package.json":      `{"name":"s","private":true,"dependencies":{"shout-local":"1.0.0"}}`,
		"package-lock.json": lock,
	})
	if err != nil {
		t.Fatalf("locked: %v\n%s", err, strings.Join(res.Logs, "\n"))
	}
	if slices.Contains(reg.Asked(), "/evil/-/evil-1.0.0.tgz") {
		t.Error("npm followed the lock file's resolved URL")
	}
	if got := readFile(t, filepath.Join(dir, "locked", "node_modules", "shout-local", "index.js")); !strings.Contains(got, "real") {
		t.Errorf("installed shout-local: %q", got)
	}

	// A registry package depends on a git repository: git cannot run.
	res, err = install("gitdeep", map[string]string{"package.json": `{"name":"s","private":true,"dependencies":{"gitty":"1.0.0"}}`})
	var de *CommandError
	if !errors.As(err, &de) {
		t.Errorf("gitdeep: %v, want a CommandError\n%s", err, strings.Join(res.Logs, "\n"))
	}
	if _, err := os.Lstat(filepath.Join(dir, "gitdeep", "node_modules")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("gitdeep: node_modules was built: %v", err)
	}

	// file: dependencies that stay inside the skill, folder to folder to
	// tarball, install.
	res, err = install("chain", map[string]string{
		"package.json":              `{"name":"s","private":true,"dependencies":{"inner":"file:./assets/inner"}}`,
		"assets/inner/package.json": `{"name":"inner","version":"1.0.0","dependencies":{"lib":"file:../lib","packed":"file:../packed-1.0.0.tgz"}}`,
		"assets/lib/package.json":   `{"name":"lib","version":"1.0.0"}`,
		"assets/packed-1.0.0.tgz":   string(npmPack(t, "packed", "1.0.0", "module.exports = 1;\n")),
	})
	if err != nil {
		t.Fatalf("chain: %v\n%s", err, strings.Join(res.Logs, "\n"))
	}
	skillDir, _ := filepath.EvalSymlinks(filepath.Join(dir, "chain"))
	for _, m := range []string{"inner", "lib"} {
		target, err := filepath.EvalSymlinks(filepath.Join(dir, "chain", "node_modules", m))
		if err != nil || !strings.HasPrefix(target, skillDir+string(filepath.Separator)) {
			t.Errorf("chain: node_modules/%s is %q (%v), want a folder of the skill", m, target, err)
		}
	}
}

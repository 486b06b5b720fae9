package skillkit_test

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/skillkit-go/skillkit"
	"github.com/skillkit-go/skillkit/deps"
	"github.com/skillkit-go/skillkit/diagnostics"
	"github.com/skillkit-go/skillkit/executor"
	"github.com/skillkit-go/skillkit/installer"
	"github.com/skillkit-go/skillkit/internal/fixture"
)

const lifePyMain = `import json, sys
import greetlib
print(json.dumps({"greeting": greetlib.greet("x")}))
`

const lifeNodeMain = `const shout = require('shout-local');
let data = ''; process.stdin.on('data', c => data += c);
process.stdin.on('end', () => console.log(JSON.stringify({out: shout('hi')})));
`

// TestUpdateKeepsWhatWorks installs a Python and a Node skill from one git
// repository with real dependencies (a venv built by python -m venv and
// pip from a local wheel, node_modules built by npm install from a local
// registry), then updates them: with nothing new, after a commit that
// leaves the requirements alone, after one that changes them, and after
// one whose new requirements cannot be installed.
func TestUpdateKeepsWhatWorks(t *testing.T) {
	fixture.NeedVenv(t)
	fixture.NeedNpm(t)
	fixture.NeedGit(t)
	ctx := t.Context()
	wheels := t.TempDir()
	fixture.BuildWheel(t, wheels, "greetlib", "1.0", "def greet(n):\n    return 'v1 ' + n\n")
	fixture.BuildWheel(t, wheels, "greetlib", "2.0", "def greet(n):\n    return 'v2 ' + n\n")
	reg := fixture.NewNpmRegistry(t, map[string][]byte{
		"shout-local": fixture.NpmPack(t, "shout-local", "1.0.0", "module.exports = s => String(s).toUpperCase() + '!';\n"),
	})
	repo := fixture.NewRepo(t)
	pyConfig := "runtime: python\nentrypoint: main.py\ndependencies:\n  python:\n    source: requirements.txt\n"
	nodeConfig := "runtime: node\nentrypoint: main.js\ndependencies:\n  node:\n    packages: [shout-local@1.0.0]\n"
	repo.Write(map[string]string{
		"skills/py/SKILL.md":          fixture.SkillMD("py", "v1"),
		"skills/py/skill.config.yaml": pyConfig,
		"skills/py/requirements.txt":  "greetlib==1.0\n",
		"skills/py/main.py":           lifePyMain,
		"skills/js/SKILL.md":          fixture.SkillMD("js", "v1"),
		"skills/js/skill.config.yaml": nodeConfig,
		"skills/js/main.js":           lifeNodeMain,
	})
	repo.Commit("v1")
	dir := t.TempDir()
	kit, err := skillkit.Open(ctx, skillkit.Options{
		Dir:       dir,
		Installer: &installer.Options{AllowFileURLs: true},
		Deps: &deps.Options{NoUV: true, PipArgs: []string{"--no-index", "--find-links", wheels},
			Env: map[string]string{"HOME": t.TempDir(), "npm_config_registry": reg.URL + "/"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer kit.Close()
	run := func(name string) (string, error) {
		t.Helper()
		ex, err := kit.Executor(ctx)
		if err != nil {
			t.Fatal(err)
		}
		out, err := ex.Execute(ctx, name, json.RawMessage(`{}`))
		return string(out.Output), err
	}
	inode := func(p string) os.FileInfo {
		t.Helper()
		st, err := os.Stat(filepath.Join(dir, p))
		if err != nil {
			t.Fatal(err)
		}
		return st
	}

	for _, name := range []string{"py", "js"} {
		res, err := kit.Install(ctx, installer.Source{Git: repo.URL(), Subdir: "skills/" + name}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.ContainsFunc(res.Notes, func(n string) bool { return strings.Contains(n, "not installed") }) {
			t.Errorf("%s: the install does not say its dependencies are missing: %q", name, res.Notes)
		}
	}
	for name, code := range map[string]diagnostics.Code{"py": diagnostics.VenvMissing, "js": diagnostics.DepsMissing} {
		var nr *executor.NotRunnableError
		if _, err := run(name); !errors.As(err, &nr) || nr.Code != code {
			t.Fatalf("%s before its dependencies: %v, want a clean refusal with %s", name, err, code)
		}
	}
	for _, name := range []string{"py", "js"} {
		if _, err := kit.InstallDeps(ctx, name, nil); err != nil {
			t.Fatal(err)
		}
	}
	if out, err := run("py"); err != nil || !strings.Contains(out, "v1 x") {
		t.Fatalf("py: %s, %v", out, err)
	}
	if out, err := run("js"); err != nil || !strings.Contains(out, "HI!") {
		t.Fatalf("js: %s, %v", out, err)
	}
	venv, modules := inode("py/.venv"), inode("js/node_modules")

	// Nothing new: nothing changes, the same folders stay.
	for _, name := range []string{"py", "js"} {
		res, err := kit.Update(ctx, name, nil)
		if err != nil || !res.UpToDate {
			t.Fatalf("%s: update with nothing new: %+v, %v", name, res, err)
		}
	}
	if !os.SameFile(venv, inode("py/.venv")) || !os.SameFile(modules, inode("js/node_modules")) {
		t.Fatal("an update with nothing new replaced .venv or node_modules")
	}

	// A new version of py with the same requirements, nothing new for js:
	// py is swapped and keeps its .venv; js is untouched.
	repo.Write(map[string]string{"skills/py/SKILL.md": fixture.SkillMD("py", "v2 instructions")})
	repo.Commit("py: new instructions")
	res, err := kit.Update(ctx, "py", nil)
	if err != nil || res.UpToDate || !res.Replaced {
		t.Fatalf("py update: %+v, %v", res, err)
	}
	if !os.SameFile(venv, inode("py/.venv")) {
		t.Error("the .venv was not carried over to the new version")
	}
	if out, err := run("py"); err != nil || !strings.Contains(out, "v1 x") {
		t.Fatalf("py after an update with the same requirements: %s, %v", out, err)
	}
	if res, err := kit.Update(ctx, "js", nil); err != nil || !res.UpToDate {
		t.Fatalf("js, unchanged in a repository that moved: %+v, %v", res, err)
	}

	// New requirements: rebuilt for the new version, and said so.
	repo.Write(map[string]string{"skills/py/requirements.txt": "greetlib==2.0\n"})
	repo.Commit("py: greetlib 2")
	res, err = kit.Update(ctx, "py", nil)
	if err != nil || !slices.ContainsFunc(res.Notes, func(n string) bool { return strings.Contains(n, "rebuilt python") }) {
		t.Fatalf("py update with new requirements: %+v, %v", res, err)
	}
	if out, err := run("py"); err != nil || !strings.Contains(out, "v2 x") {
		t.Fatalf("py after its requirements changed: %s, %v", out, err)
	}

	// Requirements that cannot be installed: the update happens, the notes
	// say the rebuild failed, and running refuses cleanly.
	repo.Write(map[string]string{"skills/py/requirements.txt": "greetlib==9.0\n"})
	repo.Commit("py: a version that does not exist")
	res, err = kit.Update(ctx, "py", nil)
	if err != nil || !slices.ContainsFunc(res.Notes, func(n string) bool { return strings.Contains(n, "failed") }) {
		t.Fatalf("py update with uninstallable requirements: %+v, %v", res, err)
	}
	var nr *executor.NotRunnableError
	if _, err := run("py"); !errors.As(err, &nr) {
		t.Fatalf("py without its requirements: %v, want a NotRunnableError", err)
	}

	// The same for npm packages: a clean refusal, never Node's stack trace.
	repo.Write(map[string]string{"skills/js/skill.config.yaml": strings.Replace(nodeConfig, "shout-local@1.0.0", "shout-local@9.0.0", 1)})
	repo.Commit("js: a version that does not exist")
	res, err = kit.Update(ctx, "js", nil)
	if err != nil || !slices.ContainsFunc(res.Notes, func(n string) bool { return strings.Contains(n, "failed") }) {
		t.Fatalf("js update with uninstallable packages: %+v, %v", res, err)
	}
	if _, err := run("js"); !errors.As(err, &nr) || nr.Code != diagnostics.DepsMissing {
		t.Fatalf("js without its packages: %v, want DEPS_MISSING", err)
	}
}

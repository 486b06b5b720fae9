package skillkit_test

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/skillkit-go/skillkit"
	"github.com/skillkit-go/skillkit/diagnostics"
	"github.com/skillkit-go/skillkit/installer"
	"github.com/skillkit-go/skillkit/loader"
	"github.com/skillkit-go/skillkit/secrets"
	"github.com/skillkit-go/skillkit/tools"
)

// copyExamples copies examples/skills into a fresh folder.
func copyExamples(t testing.TB) string {
	t.Helper()
	dst := t.TempDir()
	src := os.DirFS("examples/skills")
	err := fs.WalkDir(src, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		target := filepath.Join(dst, filepath.FromSlash(p))
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := fs.ReadFile(src, p)
		if err != nil {
			return err
		}
		info, _ := d.Info()
		return os.WriteFile(target, data, info.Mode().Perm())
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// doctor is kit.Doctor, failing the test on an error.
func doctor(t testing.TB, kit *skillkit.Kit) diagnostics.List {
	t.Helper()
	d, err := kit.Doctor(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// loaderOf is kit.Loader, failing the test on an error.
func loaderOf(t testing.TB, kit *skillkit.Kit) *loader.Loader {
	t.Helper()
	l, err := kit.Loader(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func testKeyring(t testing.TB) *secrets.Keyring {
	key, err := secrets.DeriveKey([]byte("a test secret of at least sixteen bytes"))
	if err != nil {
		t.Fatal(err)
	}
	kr, err := secrets.NewKeyring(key)
	if err != nil {
		t.Fatal(err)
	}
	return kr
}

func write(t testing.TB, dir, rel, content string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestKitEndToEnd(t *testing.T) {
	ctx := context.Background()
	dir := copyExamples(t)
	write(t, dir, "weather/SKILL.md", "---\nname: weather\ndescription: Current weather for a city.\n---\nRun scripts/now.sh.\n")
	write(t, dir, "weather/skill.config.yaml", "runtime: bash\nentrypoint: now.sh\nenv:\n  - name: WEATHER_KEY\n    required: true\n")
	write(t, dir, "weather/scripts/helper.sh", "echo helper\n")
	write(t, dir, "weather/now.sh", `printf '{"key_len":%d,"host_secret":"%s"}' "${#WEATHER_KEY}" "${HOST_SECRET:-}"`+"\n")
	bundled := fstest.MapFS{
		"greeting/SKILL.md": {Data: []byte("---\nname: greeting\ndescription: Greet people.\n---\nSay hello.\n")},
		// Shadowed by the skills folder, which comes first.
		"word-stats/SKILL.md": {Data: []byte("---\nname: word-stats\ndescription: An older copy.\n---\n")},
	}
	t.Setenv("HOST_SECRET", "must-not-leak")
	kit, err := skillkit.Open(ctx, skillkit.Options{
		Dir:     dir,
		Sources: []loader.Source{{Name: "bundled", FS: bundled}},
		Keyring: testKeyring(t),
	})
	if err != nil {
		t.Fatal(err)
	}
	defer kit.Close()

	// Doctor: the required secret is missing, the bundled copy is shadowed.
	diags := doctor(t, kit)
	if got := diags.WithCode(diagnostics.EnvNotConfigured); len(got) != 1 || got[0].Skill != "weather" {
		t.Errorf("ENV_NOT_CONFIGURED: %v", got)
	}
	if got := diags.WithCode(diagnostics.NameCollision); len(got) != 1 || got[0].Skill != "word-stats" {
		t.Errorf("NAME_COLLISION: %v", got)
	}

	if err := kit.Vault().Save(ctx, "weather", map[string]string{"WEATHER_KEY": "abcdef"}); err != nil {
		t.Fatal(err)
	}
	if got := doctor(t, kit).WithCode(diagnostics.EnvNotConfigured); len(got) != 0 {
		t.Errorf("after saving the secret: %v", got)
	}

	ts, err := kit.Toolset(ctx, tools.Agent{Tools: []string{"bash"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`name="greeting"`, `name="weather" type="compute-entry"`, `name="csv-tools"`} {
		if !strings.Contains(ts.Prompt, want) {
			t.Errorf("prompt lacks %s", want)
		}
	}
	exec, ok := ts.Tool("execute_skill")
	if !ok {
		t.Fatal("no execute_skill")
	}
	res, err := exec.Invoke(ctx, json.RawMessage(`{"name":"weather","input":{}}`))
	if err != nil || res.IsError {
		t.Fatalf("%+v %v", res, err)
	}
	if res.Text != `{"key_len":6,"host_secret":""}` {
		t.Errorf("the skill must get its own secret and not the host's: %s", res.Text)
	}

	env, err := kit.EnvFor(ctx, filepath.Join(dir, "weather", "scripts"))
	if err != nil || env["WEATHER_KEY"] != "abcdef" {
		t.Errorf("EnvFor inside the skill: %v %v", env, err)
	}
	if env, _ := kit.EnvFor(ctx, filepath.Join(dir, "csv-tools")); len(env) != 0 {
		t.Errorf("EnvFor of another skill: %v", env)
	}
	if env, _ := kit.EnvFor(ctx, t.TempDir()); len(env) != 0 {
		t.Errorf("EnvFor outside the skills: %v", env)
	}
}

func TestKitWatch(t *testing.T) {
	dir := t.TempDir()
	changed := make(chan loader.Changes, 4)
	kit, err := skillkit.Open(context.Background(), skillkit.Options{
		Dir: dir, Keyring: testKeyring(t), Watch: 20 * time.Millisecond,
		OnChange: func(c loader.Changes) { changed <- c },
	})
	if err != nil {
		t.Fatal(err)
	}
	write(t, dir, "late/SKILL.md", "---\nname: late\ndescription: Added while running.\n---\n")
	select {
	case c := <-changed:
		if !slices.Contains(c.Added, "late") {
			t.Errorf("changes %+v", c)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the new skill was not seen")
	}
	if _, ok := loaderOf(t, kit).Get("late"); !ok {
		t.Error("not in the snapshot")
	}
	if err := kit.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestOpenNeedsDir(t *testing.T) {
	if _, err := skillkit.Open(context.Background(), skillkit.Options{}); err == nil {
		t.Error("Open without Dir succeeded")
	}
}

func TestOpenRefusesWatchingAOneShotLoader(t *testing.T) {
	_, err := skillkit.Open(t.Context(), skillkit.Options{Dir: t.TempDir(), Watch: time.Second, Loader: &loader.Options{OneShot: true}})
	if err == nil || !strings.Contains(err.Error(), "OneShot") {
		t.Errorf("Open with Watch and a one-shot loader: %v", err)
	}
}

// A one-shot Kit still sees what it installs: its rescans read every skill
// again.
func TestOneShotKitSeesItsInstall(t *testing.T) {
	ctx := t.Context()
	src := t.TempDir()
	write(t, src, "SKILL.md", "---\nname: greeter\ndescription: Greets.\n---\nSay hello.\n")
	kit, err := skillkit.Open(ctx, skillkit.Options{Dir: copyExamples(t), ScanOnOpen: true, Loader: &loader.Options{OneShot: true}})
	if err != nil {
		t.Fatal(err)
	}
	defer kit.Close()
	if _, err := kit.Install(ctx, installer.Source{Dir: src}, nil); err != nil {
		t.Fatal(err)
	}
	l, err := kit.Loader(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := l.Get("greeter"); !ok {
		t.Error("the installed skill is not in the one-shot Kit's snapshot")
	}
}

func TestKitInstallUninstall(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	src := t.TempDir()
	write(t, src, "SKILL.md", "---\nname: greeter\ndescription: Greets.\n---\nSay hello.\n")
	write(t, src, "skill.config.yaml", "runtime: bash\nentrypoint: run.sh\nenv: [GREETING]\n")
	write(t, src, "run.sh", `printf '{"greeting":"%s"}' "$GREETING"`+"\n")

	kit, err := skillkit.Open(ctx, skillkit.Options{Dir: dir, Keyring: testKeyring(t)})
	if err != nil {
		t.Fatal(err)
	}
	defer kit.Close()
	if _, err := os.Stat(filepath.Join(dir, ".skillhub")); !os.IsNotExist(err) {
		t.Errorf("opening a folder must not write into it: %v", err)
	}
	res, err := kit.Install(ctx, installer.Source{Dir: src}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Name != "greeter" {
		t.Errorf("installed %q", res.Name)
	}
	if err := kit.Vault().Save(ctx, "greeter", map[string]string{"GREETING": "hi"}); err != nil {
		t.Fatal(err)
	}
	// The install is visible without an explicit rescan.
	ts, err := kit.Toolset(ctx, tools.Agent{})
	if err != nil {
		t.Fatal(err)
	}
	exec, ok := ts.Tool("execute_skill")
	if !ok {
		t.Fatalf("no execute_skill after install: %v", ts.Warnings)
	}
	if res, _ := exec.Invoke(ctx, json.RawMessage(`{"name":"greeter","input":{}}`)); res.Text != `{"greeting":"hi"}` {
		t.Errorf("%+v", res)
	}
	// Disabled: hidden from agents, still installed.
	if err := kit.SetEnabled(ctx, "greeter", false); err != nil {
		t.Fatal(err)
	}
	if ts, _ := kit.Toolset(ctx, tools.Agent{}); ts.Prompt != "" {
		t.Errorf("a disabled skill is offered:\n%s", ts.Prompt)
	}
	if err := kit.Uninstall(ctx, "greeter", nil); err != nil {
		t.Fatal(err)
	}
	if _, ok := loaderOf(t, kit).Get("greeter"); ok {
		t.Error("still loaded after uninstall")
	}
	if st, _ := kit.Vault().Configured(ctx, "greeter", nil); len(st) != 0 {
		t.Errorf("secrets kept after a purge: %+v", st)
	}
}

func TestKitBundledSkillsAndSavedEnv(t *testing.T) {
	ctx := context.Background()
	bundled := fstest.MapFS{
		"oc/SKILL.md":          {Data: []byte("---\nname: oc\ndescription: Needs a token.\nmetadata:\n  openclaw:\n    requires:\n      env: [OC_TOKEN_FOR_TEST]\n---\n")},
		"team/nested/SKILL.md": {Data: []byte("---\nname: nested\ndescription: In a sub-folder.\n---\n")},
	}
	dir := t.TempDir()
	write(t, dir, "team/deep/SKILL.md", "---\nname: deep\ndescription: A sub-folder of the skills folder.\n---\n")
	kit, err := skillkit.Open(ctx, skillkit.Options{Dir: dir, Keyring: testKeyring(t), Sources: []loader.Source{{Name: "bundled", FS: bundled}}})
	if err != nil {
		t.Fatal(err)
	}
	defer kit.Close()
	listed := func() string {
		ts, err := kit.Toolset(ctx, tools.Agent{})
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, s := range ts.Visibility.Catalog {
			names = append(names, s.Name)
		}
		return strings.Join(names, ",")
	}
	if got := listed(); got != "deep,nested" {
		t.Fatalf("catalog %q: oc needs its token", got)
	}
	// A saved secret satisfies requires.env, as it reaches the skill's processes.
	if err := kit.Vault().Save(ctx, "oc", map[string]string{"OC_TOKEN_FOR_TEST": "t"}); err != nil {
		t.Fatal(err)
	}
	if got := listed(); got != "deep,nested,oc" {
		t.Fatalf("catalog %q after saving the token", got)
	}
	// Skills the installer does not manage can be disabled all the same.
	for _, name := range []string{"oc", "nested", "deep"} {
		if err := kit.SetEnabled(ctx, name, false); err != nil {
			t.Fatalf("disable %s: %v", name, err)
		}
	}
	if got := listed(); got != "" {
		t.Fatalf("catalog %q after disabling everything", got)
	}
	if err := kit.SetEnabled(ctx, "oc", true); err != nil {
		t.Fatal(err)
	}
	if got := listed(); got != "oc" {
		t.Fatalf("catalog %q after enabling oc", got)
	}
	if err := kit.SetEnabled(ctx, "ghost", false); !errors.Is(err, installer.ErrNotInstalled) {
		t.Errorf("unknown skill: %v", err)
	}
}

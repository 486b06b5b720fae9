package executor_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
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

	"github.com/google/go-cmp/cmp"

	"github.com/skillkit-go/skillkit/diagnostics"
	"github.com/skillkit-go/skillkit/executor"
	"github.com/skillkit-go/skillkit/skill"
)

// The test secret of every skill that declares SKILL_TOKEN.
const skillToken = "tok-secret-123456"

// skillMap is the test fake of the loader: skills by name, and by folder
// with strict prefix matching.
type skillMap map[string]*skill.Skill

func (m skillMap) Get(name string) (*skill.Skill, bool) {
	s, ok := m[name]
	return s, ok
}

func (m skillMap) ResolveByPath(p string) (*skill.Skill, bool) {
	for _, s := range m {
		dir, err := filepath.EvalSymlinks(s.DiskDir)
		if err == nil && (p == dir || strings.HasPrefix(p, dir+string(filepath.Separator))) {
			return s, true
		}
	}
	return nil, false
}

// loadSkills loads every skill folder under root, on disk.
func loadSkills(t testing.TB, root string) skillMap {
	t.Helper()
	root, err := filepath.Abs(root)
	if err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	m := skillMap{}
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		s, diags := skill.Load(os.DirFS(root), e.Name(), &skill.LoadOptions{DiskRoot: root})
		if s == nil || diags.HasErrors() {
			t.Fatalf("test skill %s does not load: %v", e.Name(), diags)
		}
		m[s.Name] = s
	}
	return m
}

// vault is the test fake of the secrets vault: the value of every declared
// name it knows, plus one undeclared name that must never be injected.
// vault is an EnvResolver holding values saved per skill: py-echo has its
// declared SKILL_TOKEN and an undeclared EXTRA, bash-modes its token only.
type vault struct {
	values map[string]map[string]string // skill -> variable -> value
	err    error
	calls  atomic.Int32
}

func (v *vault) ResolveEnv(_ context.Context, skillName string, schema []skill.EnvVar) (map[string]string, error) {
	v.calls.Add(1)
	if v.err != nil {
		return nil, v.err
	}
	out := map[string]string{}
	for _, ev := range schema {
		if ev.Default != nil {
			out[ev.Name] = *ev.Default
		}
	}
	maps.Copy(out, v.values[skillName])
	return out, nil
}

func newVault() *vault {
	return &vault{values: map[string]map[string]string{
		"py-echo":    {"SKILL_TOKEN": skillToken, "EXTRA": "undeclared-value"},
		"bash-modes": {"SKILL_TOKEN": skillToken},
	}}
}

func needPrograms(t testing.TB, names ...string) {
	t.Helper()
	for _, n := range names {
		if _, err := exec.LookPath(n); err != nil {
			t.Skipf("needs %s: %v", n, err)
		}
	}
}

func newExecutor(t testing.TB, opts *executor.Options) (*executor.Executor, skillMap) {
	t.Helper()
	return newExecutorEnv(t, newVault(), opts)
}

// newExecutorEnv is newExecutor with the skills' environment from env.
func newExecutorEnv(t testing.TB, env executor.EnvResolver, opts *executor.Options) (*executor.Executor, skillMap) {
	t.Helper()
	skills := loadSkills(t, "testdata/skills")
	return executor.New(skills, env, opts), skills
}

func execute(t *testing.T, e *executor.Executor, name, input string) (executor.Outcome, error) {
	t.Helper()
	return e.Execute(deadline(t), name, json.RawMessage(input))
}

func decode(t *testing.T, raw json.RawMessage) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("output %s: %v", raw, err)
	}
	return m
}

func TestExecutePython(t *testing.T) {
	needPrograms(t, "python3")
	t.Setenv("SECRET_X", "host-secret-value")
	e, skills := newExecutor(t, nil)
	out, err := execute(t, e, "py-echo", `{"message":"hi <&>","env":["SECRET_X","SKILL_TOKEN","EXTRA","HOME","PATH"]}`)
	if err != nil {
		t.Fatal(err)
	}
	got := decode(t, out.Output)
	if got["message"] != "hi <&>hi <&>" || got["count"] != 2.0 {
		t.Errorf("output %s: want the message twice (count defaults to 2)", out.Output)
	}
	env := got["env"].(map[string]any)
	if env["SECRET_X"] != nil {
		t.Errorf("the skill saw the host's SECRET_X = %v", env["SECRET_X"])
	}
	if env["SKILL_TOKEN"] != skillToken {
		t.Errorf("the skill's own secret did not reach it: SKILL_TOKEN = %v", env["SKILL_TOKEN"])
	}
	if env["EXTRA"] != "undeclared-value" {
		t.Errorf("a value saved for the skill without being declared did not reach it: EXTRA = %v", env["EXTRA"])
	}
	// (A pyenv shim, if python3 is one, puts its own folders in front of PATH.)
	if env["HOME"] != executor.ConfinedHome || !strings.HasSuffix(fmt.Sprint(env["PATH"]), os.Getenv("PATH")) {
		t.Errorf("HOME is not the private one, or PATH was not passed on: %v", env)
	}
	if dir, _ := filepath.EvalSymlinks(skills["py-echo"].DiskDir); got["cwd"] != dir {
		t.Errorf("working directory %v, want the skill folder %s", got["cwd"], dir)
	}
	if !out.Success() || out.ExitCode != 0 || out.Duration <= 0 || out.Error != "" || out.Skill != "py-echo" {
		t.Errorf("outcome %+v", out)
	}
}

// The host variables a skill sees are exactly the documented whitelist,
// written out here rather than taken from DefaultEnvWhitelist, so that a
// name added to the list (a database password) or dropped from it (the
// proxies) fails the test.
func TestExecuteEnvironmentIsTheWhitelist(t *testing.T) {
	needPrograms(t, "python3")
	whitelisted := []string{"PATH", "HOME", "USER", "LANG", "LC_ALL", "TZ", "TEMP", "TMP", "TMPDIR", "HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY"}
	others := []string{"DB_PASSWORD", "AWS_SECRET_ACCESS_KEY", "SKILL_SECRET_KEY", "APP_SECRET", "ALL_PROXY", "FTP_PROXY",
		"http_proxy", "https_proxy", "no_proxy", "LD_PRELOAD", "PYTHONPATH", "SSH_AUTH_SOCK", "SHELL"}
	host := map[string]string{}
	for _, name := range append(slices.Clone(whitelisted), others...) {
		host[name] = "host-value-of-" + name
	}
	host["PATH"] = os.Getenv("PATH") // python3 must be found
	e, _ := newExecutor(t, &executor.Options{LookupEnv: func(name string) (string, bool) {
		v, ok := host[name]
		return v, ok
	}})
	names, _ := json.Marshal(append(slices.Clone(whitelisted), others...))
	out, err := execute(t, e, "py-echo", `{"message":"x","env":`+string(names)+`}`)
	if err != nil {
		t.Fatal(err)
	}
	env := decode(t, out.Output)["env"].(map[string]any)
	for _, name := range whitelisted {
		want := host[name]
		switch name {
		case "PATH":
			continue
		case "HOME":
			want = executor.ConfinedHome // the confinement's own, not the host's
		case "TMPDIR", "TMP", "TEMP":
			want = executor.ConfinedTemp
		}
		if env[name] != want {
			t.Errorf("the whitelisted %s = %v, want %s", name, env[name], want)
		}
	}
	for _, name := range others {
		if env[name] != nil {
			t.Errorf("the host's %s reached the skill: %v", name, env[name])
		}
	}
	if got := executor.DefaultEnvWhitelist(); !slices.Equal(got, whitelisted) {
		t.Errorf("DefaultEnvWhitelist() = %q, want %q (docs/security.md lists it)", got, whitelisted)
	}
}

func TestExecuteNodeAppliesNestedDefaults(t *testing.T) {
	needPrograms(t, "node")
	e, _ := newExecutor(t, nil)
	for _, tc := range []struct{ input, want string }{
		{`{"numbers":[1,2,3]}`, `{"label":"sum","value":6}`},
		{`{"numbers":[1,2,3],"options":{"scale":2}}`, `{"label":"sum","value":12}`},
		{`{"numbers":[1.5],"options":{"label":"total"}}`, `{"label":"total","value":1.5}`},
		{`{"numbers":[1,2,3]}`, `{"label":"sum","value":6}`}, // the defaults were not changed by use
	} {
		out, err := execute(t, e, "node-sum", tc.input)
		if err != nil {
			t.Fatalf("%s: %v", tc.input, err)
		}
		if string(out.Output) != tc.want {
			t.Errorf("%s: output %s, want %s", tc.input, out.Output, tc.want)
		}
	}
}

func TestExecuteInvalidInput(t *testing.T) {
	e, _ := newExecutor(t, &executor.Options{MaxInputBytes: 200})
	for _, tc := range []struct {
		name, skill, input string
		want               []executor.Problem // nil: no SchemaError expected
	}{
		{"wrong types and missing", "py-echo", `{"count":"x","env":[1]}`, []executor.Problem{
			{Pointer: "/count", Message: "got string, want integer"},
			{Pointer: "/env/0", Message: "got number, want string"},
			{Pointer: "/message", Message: "required property is missing"},
		}},
		{"nested", "node-sum", `{"numbers":[],"options":{"bogus":1,"scale":"x"}}`, []executor.Problem{
			{Pointer: "/numbers", Message: "minItems: got 0, want 1"},
			{Pointer: "/options/bogus", Message: "property is not allowed"},
			{Pointer: "/options/scale", Message: "got string, want number"},
		}},
		{"enum", "bash-modes", `{"mode":"explode"}`, []executor.Problem{
			{Pointer: "/mode", Message: "value must be one of 'ok', 'hold', 'flood', 'invalid', 'two', 'empty', 'fail', 'env', 'wrong-type'"},
		}},
		{"not an object", "py-echo", `[1,2]`, []executor.Problem{{Pointer: "", Message: "want a JSON object, got an array"}}},
		{"null means {}", "py-echo", `null`, []executor.Problem{{Pointer: "/message", Message: "required property is missing"}}},
		{"not JSON", "py-echo", `{"message":`, nil},
		{"two values", "py-echo", `{"message":"a"} {}`, nil},
		{"too large", "py-echo", `{"message":"` + strings.Repeat("a", 300) + `"}`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := execute(t, e, tc.skill, tc.input)
			if !errors.Is(err, executor.ErrInvalidInput) {
				t.Fatalf("err = %v, want ErrInvalidInput", err)
			}
			if out.Success() || out.Error != err.Error() || out.Output != nil || out.Duration != 0 {
				t.Errorf("outcome %+v for a run that never started", out)
			}
			var se *executor.SchemaError
			if tc.want == nil {
				if errors.As(err, &se) {
					t.Errorf("got a SchemaError %v, want a plain ErrInvalidInput", err)
				}
				return
			}
			if !errors.As(err, &se) {
				t.Fatalf("err %v is not a *SchemaError", err)
			}
			if diff := cmp.Diff(tc.want, se.Problems); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
}

func TestExecuteBashOutcomes(t *testing.T) {
	needPrograms(t, "bash")
	t.Setenv("SECRET_X", "host-secret-value")
	e, _ := newExecutor(t, nil)
	t.Run("success", func(t *testing.T) {
		out, err := execute(t, e, "bash-modes", `{"mode":"ok"}`)
		if err != nil || string(out.Output) != `{"ok":true}` {
			t.Errorf("got %s, %v", out.Output, err)
		}
	})
	t.Run("environment", func(t *testing.T) {
		out, err := execute(t, e, "bash-modes", `{"mode":"env"}`)
		if err != nil {
			t.Fatal(err)
		}
		want := `{"ok":true,"secret_x":"unset","token":"` + skillToken + `","extra":"unset"}`
		if string(out.Output) != want {
			t.Errorf("output %s, want %s", out.Output, want)
		}
	})
	t.Run("grandchild holds stdout", func(t *testing.T) {
		start := time.Now()
		out, err := execute(t, e, "bash-modes", `{"mode":"hold"}`)
		if err != nil || string(out.Output) != `{"ok":true,"held":true}` {
			t.Errorf("got %s, %v", out.Output, err)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("took %v", d)
		}
	})
	for _, tc := range []struct{ mode, want string }{
		{"invalid", "did not write one JSON value to stdout (invalid character 'h' in literal true (expecting 'r')); stdout begins: this is not {json"},
		{"two", "did not write one JSON value to stdout (more than one JSON value, or text after the value)"},
		{"empty", "wrote nothing to stdout"},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			out, err := execute(t, e, "bash-modes", fmt.Sprintf(`{"mode":%q}`, tc.mode))
			if !errors.Is(err, executor.ErrBadOutput) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want ErrBadOutput saying %q", err, tc.want)
			}
			if out.ExitCode != 0 || out.Output != nil {
				t.Errorf("outcome %+v", out)
			}
		})
	}
	t.Run("output schema", func(t *testing.T) {
		_, err := execute(t, e, "bash-modes", `{"mode":"wrong-type"}`)
		var se *executor.SchemaError
		if !errors.Is(err, executor.ErrBadOutput) || !errors.As(err, &se) || !se.Output ||
			len(se.Problems) != 1 || se.Problems[0].Pointer != "/ok" {
			t.Errorf("err = %#v, want a SchemaError about /ok in the output", err)
		}
	})
	t.Run("non-zero exit", func(t *testing.T) {
		out, err := execute(t, e, "bash-modes", `{"mode":"fail"}`)
		var ee *executor.ExitError
		if !errors.As(err, &ee) {
			t.Fatalf("err = %v, want *ExitError", err)
		}
		if ee.ExitCode != 3 || out.ExitCode != 3 {
			t.Errorf("exit code %d / %d, want 3", ee.ExitCode, out.ExitCode)
		}
		if n := len([]rune(ee.Stderr)); n != executor.StderrTailChars+1 { // the tail and a leading ellipsis
			t.Errorf("stderr tail is %d characters, want %d", n, executor.StderrTailChars+1)
		}
		if want := "fatal: could not log in with token " + executor.Redacted; !strings.HasSuffix(ee.Stderr, want) {
			t.Errorf("stderr tail %q does not end with %q", ee.Stderr, want)
		}
		if strings.Contains(out.Error, skillToken) {
			t.Errorf("the error shows the skill's secret: %s", out.Error)
		}
		if !strings.HasPrefix(out.Error, "skill bash-modes failed with exit code 3: …") {
			t.Errorf("message %q", out.Error)
		}
	})
}

func TestExecuteHundredMegabytesOfOutput(t *testing.T) {
	needPrograms(t, "bash", "head")
	e, _ := newExecutor(t, nil)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	out, err := execute(t, e, "bash-modes", `{"mode":"flood"}`)
	runtime.ReadMemStats(&after)
	if !errors.Is(err, executor.ErrBadOutput) || !strings.Contains(err.Error(), "wrote more than 1048576 bytes to stdout") {
		t.Fatalf("err = %v, want ErrBadOutput for output over the limit", err)
	}
	if out.ExitCode != 0 {
		t.Errorf("exit code %d: the skill should have run to its end", out.ExitCode)
	}
	allocated := after.TotalAlloc - before.TotalAlloc
	t.Logf("100 MB of output: %.1f MiB allocated in %v", float64(allocated)/(1<<20), out.Duration)
	if allocated > 16<<20 {
		t.Errorf("allocated %d bytes for 100 MB of output, want < 16 MiB", allocated)
	}
}

func TestExecuteCancel(t *testing.T) {
	needPrograms(t, "bash")
	e, _ := newExecutor(t, nil)
	ctx, cancel := context.WithCancel(deadline(t))
	time.AfterFunc(100*time.Millisecond, cancel)
	_, err := e.Execute(ctx, "bash-slow", json.RawMessage(fmt.Sprintf(`{"pid_file":%q}`, filepath.Join(t.TempDir(), "pid"))))
	if !errors.Is(err, context.Canceled) || errors.Is(err, executor.ErrTimeout) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
}

func TestExecuteNotRunnable(t *testing.T) {
	root := t.TempDir()
	if err := os.CopyFS(root, os.DirFS("testdata/skills")); err != nil {
		t.Fatal(err)
	}
	// An entrypoint that is a link out of the skill folder.
	modes := filepath.Join(root, "bash-modes", "modes.sh")
	outside := filepath.Join(t.TempDir(), "outside.sh")
	if err := os.WriteFile(outside, []byte("echo '{}'"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(modes); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, modes); err != nil {
		t.Skip("cannot create symbolic links:", err)
	}
	skills := loadSkills(t, root)
	// An embedded skill: loaded from an fs.FS that is not on disk.
	embedded, _ := skill.Load(os.DirFS(root), "py-echo", nil)
	skills["embedded"] = embedded
	// An entrypoint removed after loading.
	if err := os.Remove(filepath.Join(root, "node-sum", "sum.js")); err != nil {
		t.Fatal(err)
	}
	// No node on the PATH the skill gets.
	emptyPath := t.TempDir()
	e := executor.New(skills, newVault(), &executor.Options{LookupEnv: func(name string) (string, bool) {
		if name == "PATH" {
			return emptyPath, true
		}
		return os.LookupEnv(name)
	}})
	for _, tc := range []struct {
		name string
		code diagnostics.Code
	}{
		{"py-deps", diagnostics.VenvMissing},
		{"node-deps", diagnostics.DepsMissing},
		{"bash-modes", diagnostics.SymlinkEscape},
		{"embedded", diagnostics.ReadError},
		{"node-sum", diagnostics.EntrypointMissing},
	} {
		var nr *executor.NotRunnableError
		checkErr := e.Check(t.Context(), tc.name)
		_, err := e.Execute(deadline(t), tc.name, json.RawMessage(`{}`))
		if !errors.As(err, &nr) || nr.Code != tc.code || !errors.Is(err, executor.ErrNotRunnable) {
			t.Errorf("%s: err = %v, want NotRunnableError %s", tc.name, err, tc.code)
		}
		if checkErr == nil || checkErr.Error() != err.Error() {
			t.Errorf("%s: Check = %v, want the error of Execute", tc.name, checkErr)
		}
	}
	if err := e.Check(t.Context(), "prompt-only"); !errors.Is(err, executor.ErrNotComputeEntry) {
		t.Errorf("prompt-only: %v, want ErrNotComputeEntry", err)
	}
	if err := e.Check(t.Context(), "no-such-skill"); !errors.Is(err, executor.ErrNotFound) {
		t.Errorf("no-such-skill: %v, want ErrNotFound", err)
	}
	if err := e.Check(t.Context(), "py-echo"); err != nil {
		t.Errorf("py-echo: Check = %v, want nil", err)
	}

	// The runtime is checked when the program starts.
	restore := loadSkills(t, "testdata/skills")
	skills["node-sum"] = restore["node-sum"]
	var nr *executor.NotRunnableError
	_, err := e.Execute(deadline(t), "node-sum", json.RawMessage(`{"numbers":[1]}`))
	if !errors.As(err, &nr) || nr.Code != diagnostics.RuntimeUnavailable || !strings.Contains(err.Error(), "node is not installed") {
		t.Errorf("node-sum without node: err = %v, want RUNTIME_UNAVAILABLE", err)
	}
}

func TestExecutePythonVenv(t *testing.T) {
	needPrograms(t, "python3")
	if runtime.GOOS == "windows" {
		t.Skip("the venv layout differs on Windows")
	}
	root := t.TempDir()
	if err := os.CopyFS(filepath.Join(root, "py-deps"), os.DirFS("testdata/skills/py-deps")); err != nil {
		t.Fatal(err)
	}
	venv := filepath.Join(root, "py-deps", ".venv")
	if out, err := exec.Command("python3", "-m", "venv", "--without-pip", venv).CombinedOutput(); err != nil {
		t.Skipf("python3 -m venv: %v: %s", err, out)
	}
	e := executor.New(loadSkills(t, root), nil, nil)
	out, err := e.Execute(deadline(t), "py-deps", nil)
	if err != nil {
		t.Fatal(err)
	}
	got := decode(t, out.Output)
	realVenv, _ := filepath.EvalSymlinks(venv)
	if got["prefix"] != venv && got["prefix"] != realVenv {
		t.Errorf("the skill ran with sys.prefix %v, want its .venv %s", got["prefix"], venv)
	}
}

func TestExecuteFiftyConcurrent(t *testing.T) {
	needPrograms(t, "python3", "node", "bash")
	e, _ := newExecutor(t, nil)
	// 50 runs, 4 at a time per skill: python through a version manager's
	// shim takes seconds each on a loaded machine.
	ctx, cancel := context.WithTimeout(t.Context(), 4*processDeadline)
	defer cancel()
	var wg sync.WaitGroup
	start := time.Now()
	for i := range 50 {
		wg.Go(func() {
			var name, input, want string
			switch i % 3 {
			case 0:
				name, input, want = "py-echo", fmt.Sprintf(`{"message":"m%d","count":1}`, i), fmt.Sprintf(`"message": "m%d"`, i)
			case 1:
				name, input, want = "node-sum", fmt.Sprintf(`{"numbers":[%d,1]}`, i), fmt.Sprintf(`"value":%d`, i+1)
			default:
				name, input, want = "bash-modes", `{"mode":"ok"}`, `{"ok":true}`
			}
			out, err := e.Execute(ctx, name, json.RawMessage(input))
			if err != nil || !strings.Contains(string(out.Output), want) {
				t.Errorf("execution %d (%s): %s, %v; want %s", i, name, out.Output, err, want)
			}
		})
	}
	wg.Wait()
	t.Logf("50 executions in %v", time.Since(start))
}

// countingRunner is a fake Runner for the concurrency logic: it records the
// most commands in flight, overall and per working directory (skill).
type countingRunner struct {
	mu              sync.Mutex
	inFlight, most  int
	perDir, mostDir map[string]int
}

func (r *countingRunner) Run(ctx context.Context, cmd executor.Command) (executor.Result, error) {
	r.mu.Lock()
	r.inFlight++
	r.perDir[cmd.Dir]++
	r.most = max(r.most, r.inFlight)
	r.mostDir[cmd.Dir] = max(r.mostDir[cmd.Dir], r.perDir[cmd.Dir])
	r.mu.Unlock()
	select {
	case <-time.After(30 * time.Millisecond):
	case <-ctx.Done():
	}
	r.mu.Lock()
	r.inFlight--
	r.perDir[cmd.Dir]--
	r.mu.Unlock()
	return executor.Result{Stdout: []byte(`{"ok":true}`), Duration: 30 * time.Millisecond}, ctx.Err()
}

func TestExecuteConcurrencyBounds(t *testing.T) {
	inputs := map[string]string{"bash-modes": `{"mode":"ok"}`, "py-echo": `{"message":"x"}`, "node-sum": `{"numbers":[1]}`}
	names := []string{"bash-modes", "py-echo", "node-sum"}
	runAll := func(e *executor.Executor, n int, names []string) {
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() {
				name := names[i%len(names)]
				if _, err := e.Execute(deadline(t), name, json.RawMessage(inputs[name])); err != nil && !errors.Is(err, executor.ErrBadOutput) {
					t.Errorf("%s: %v", name, err)
				}
			})
		}
		wg.Wait()
	}

	overall := &countingRunner{perDir: map[string]int{}, mostDir: map[string]int{}}
	e, _ := newExecutor(t, &executor.Options{Runner: overall, MaxConcurrent: 3, MaxConcurrentPerSkill: 100})
	runAll(e, 24, names)
	if overall.most != 3 {
		t.Errorf("at most %d executions ran at once, want exactly the bound of 3", overall.most)
	}

	perSkill := &countingRunner{perDir: map[string]int{}, mostDir: map[string]int{}}
	e, skills := newExecutor(t, &executor.Options{Runner: perSkill, MaxConcurrent: 100, MaxConcurrentPerSkill: 2})
	runAll(e, 24, names)
	for _, name := range names {
		if got := perSkill.mostDir[skills[name].DiskDir]; got != 2 {
			t.Errorf("%s: at most %d ran at once, want exactly the per-skill bound of 2", name, got)
		}
	}
	if perSkill.most < 3 {
		t.Errorf("at most %d executions ran at once: the per-skill bound must not serialize different skills", perSkill.most)
	}
}

// blockingRunner holds every command until release is closed.
type blockingRunner struct {
	started chan struct{}
	release chan struct{}
}

func (r *blockingRunner) Run(ctx context.Context, cmd executor.Command) (executor.Result, error) {
	r.started <- struct{}{}
	select {
	case <-r.release:
		return executor.Result{Stdout: []byte(`{"ok":true}`)}, nil
	case <-ctx.Done():
		return executor.Result{ExitCode: -1}, ctx.Err()
	}
}

func TestExecuteWaitingForASlotEndsWithTheContext(t *testing.T) {
	r := &blockingRunner{started: make(chan struct{}, 1), release: make(chan struct{})}
	e, _ := newExecutor(t, &executor.Options{Runner: r, MaxConcurrent: 1})
	first := make(chan error, 1)
	go func() {
		_, err := e.Execute(deadline(t), "bash-modes", json.RawMessage(`{"mode":"ok"}`))
		first <- err
	}()
	<-r.started
	ctx, cancel := context.WithTimeout(deadline(t), 50*time.Millisecond)
	defer cancel()
	_, err := e.Execute(ctx, "node-sum", json.RawMessage(`{"numbers":[1]}`))
	if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "waiting for a free slot") {
		t.Errorf("err = %v, want DeadlineExceeded while waiting for a slot", err)
	}
	close(r.release)
	if err := <-first; err != nil {
		t.Errorf("first execution: %v", err)
	}
	// The slot is free again.
	go func() { <-r.started }()
	if _, err := e.Execute(deadline(t), "node-sum", json.RawMessage(`{"numbers":[1]}`)); err != nil && !errors.Is(err, executor.ErrBadOutput) {
		t.Errorf("after release: %v", err)
	}
}

func TestExecuteAudit(t *testing.T) {
	needPrograms(t, "bash")
	t.Setenv("SECRET_X", "host-secret-value")
	var buf bytes.Buffer
	var mu sync.Mutex
	logger := slog.New(slog.NewJSONHandler(lockedWriter{&mu, &buf}, nil))
	e, _ := newExecutor(t, &executor.Options{Logger: logger})
	_, _ = execute(t, e, "bash-modes", `{"mode":"ok"}`)
	_, _ = e.Execute(executor.WithAgent(deadline(t), "support-bot"), "bash-modes", json.RawMessage(`{"mode":"fail"}`))
	_, _ = execute(t, e, "py-echo", `{"message":"SENSITIVE-INPUT","count":"SENSITIVE-COUNT"}`)

	mu.Lock()
	defer mu.Unlock()
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 3 {
		t.Fatalf("%d audit lines, want 3:\n%s", len(lines), buf.String())
	}
	var ok, fail, invalid map[string]any
	for _, p := range []struct {
		line string
		dst  *map[string]any
	}{{lines[0], &ok}, {lines[1], &fail}, {lines[2], &invalid}} {
		if err := json.Unmarshal([]byte(p.line), p.dst); err != nil {
			t.Fatal(err)
		}
	}
	if ok["skill"] != "bash-modes" || ok["success"] != true || ok["exit_code"] != 0.0 || ok["level"] != "INFO" || ok["stderr"] != nil {
		t.Errorf("success line: %s", lines[0])
	}
	if ok["agent"] != nil || fail["agent"] != "support-bot" {
		t.Errorf("the agent: %v in the line of a run without one, %v in the one with", ok["agent"], fail["agent"])
	}
	if fail["success"] != false || fail["exit_code"] != 3.0 || fail["error"] != "exit" || fail["level"] != "WARN" ||
		!strings.HasSuffix(fmt.Sprint(fail["stderr"]), "token "+executor.Redacted) {
		t.Errorf("failure line: %s", lines[1])
	}
	if invalid["error"] != "invalid_input" || fmt.Sprint(invalid["pointers"]) != "[/count]" {
		t.Errorf("invalid input line: %s", lines[2])
	}
	for _, secret := range []string{"SENSITIVE", skillToken, "host-secret-value"} {
		if strings.Contains(buf.String(), secret) {
			t.Errorf("the audit log holds %q:\n%s", secret, buf.String())
		}
	}
}

type lockedWriter struct {
	mu *sync.Mutex
	w  *bytes.Buffer
}

func (l lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func TestExecuteEnvResolverError(t *testing.T) {
	boom := errors.New("SKILL_TOKEN is required and not configured")
	e, _ := newExecutorEnv(t, &vault{err: boom}, nil)
	_, err := execute(t, e, "py-echo", `{"message":"x"}`)
	if !errors.Is(err, boom) {
		t.Errorf("err = %v, want the resolver's error", err)
	}
	// A skill that declares no env still has its saved values resolved.
	_, err = execute(t, e, "node-sum", `{"numbers":[1]}`)
	if !errors.Is(err, boom) {
		t.Errorf("a skill without declared env: err = %v, want the resolver's error", err)
	}
}

// Issue 15: a required variable without a value stops the run before
// anything starts, naming the variable; Check says the same.
func TestExecuteRequiredEnvMissing(t *testing.T) {
	runner := &countingRunner{perDir: map[string]int{}, mostDir: map[string]int{}}
	v := newVault()
	delete(v.values["py-echo"], "SKILL_TOKEN")
	e, _ := newExecutorEnv(t, v, &executor.Options{Runner: runner})
	out, err := execute(t, e, "py-echo", `{"message":"x"}`)
	var nr *executor.NotRunnableError
	if !errors.As(err, &nr) || nr.Code != diagnostics.EnvNotConfigured || !slices.Equal(nr.Env, []string{"SKILL_TOKEN"}) ||
		!strings.Contains(out.Error, "SKILL_TOKEN") {
		t.Fatalf("err = %v (%+v), want ENV_NOT_CONFIGURED naming SKILL_TOKEN", err, nr)
	}
	if runner.most != 0 {
		t.Error("the program was started")
	}
	if cerr := e.Check(t.Context(), "py-echo"); cerr == nil || cerr.Error() != err.Error() {
		t.Errorf("Check = %v, want %v", cerr, err)
	}
	// No resolver at all: the same.
	e, _ = newExecutorEnv(t, nil, nil)
	if err := e.Check(t.Context(), "py-echo"); !errors.As(err, &nr) || nr.Code != diagnostics.EnvNotConfigured {
		t.Errorf("without a resolver: %v, want ENV_NOT_CONFIGURED", err)
	}
}

func TestOutcomeJSON(t *testing.T) {
	for _, tc := range []struct {
		out  executor.Outcome
		want string
	}{
		{executor.Outcome{Skill: "a", Output: json.RawMessage(`{"x":1}`), Duration: 1500 * time.Microsecond}, `{"success":true,"output":{"x":1},"duration_ms":1,"exit_code":0}`},
		{executor.Outcome{Skill: "a", Error: "boom", ExitCode: 2, Duration: 3 * time.Millisecond}, `{"success":false,"error":"boom","duration_ms":3,"exit_code":2}`},
	} {
		got, err := json.Marshal(tc.out)
		if err != nil || string(got) != tc.want {
			t.Errorf("got %s, %v; want %s", got, err, tc.want)
		}
	}
}

func TestInputSchema(t *testing.T) {
	skills := loadSkills(t, "testdata/skills")
	var schema map[string]any
	if err := json.Unmarshal(executor.InputSchema(skills["py-echo"]), &schema); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(schema["required"]) != "[message]" {
		t.Errorf("schema %v", schema)
	}
	if got := string(executor.InputSchema(skills["bash-slow"])); !strings.Contains(got, "pid_file") {
		t.Errorf("schema %s", got)
	}
	if got := string(executor.InputSchema(skills["prompt-only"])); got != `{"type":"object"}` {
		t.Errorf("schema of a skill without interface.input: %s", got)
	}
}

func TestExampleSkills(t *testing.T) {
	needPrograms(t, "python3", "node")
	e := executor.New(loadSkills(t, "../examples/skills"), nil, nil)
	for _, tc := range []struct{ name, input, want string }{
		{"word-stats", `{"text":"a b a"}`, `{"words": 3, "lines": 1, "characters": 5, "top_words": [{"word": "a", "count": 2}, {"word": "b", "count": 1}]}`},
		{"date-diff", `{"from":"2026-01-05","to":"2026-02-02"}`, `{"days":28,"weeks":4,"weekdays":20,"from_weekday":"Monday","to_weekday":"Monday"}`},
		{"date-diff", `{"from":"2026-01-09","to":"2026-01-09","include_end":true}`, `{"days":1,"weeks":0,"weekdays":1,"from_weekday":"Friday","to_weekday":"Friday"}`},
	} {
		out, err := e.Execute(deadline(t), tc.name, json.RawMessage(tc.input))
		if err != nil || string(out.Output) != tc.want {
			t.Errorf("%s %s: %s, %v; want %s", tc.name, tc.input, out.Output, err, tc.want)
		}
	}
	if _, err := e.Execute(deadline(t), "date-diff", json.RawMessage(`{"from":"5 Jan","to":"2026-02-02"}`)); !errors.Is(err, executor.ErrInvalidInput) {
		t.Errorf("a date in the wrong format: %v, want ErrInvalidInput", err)
	}
	var ee *executor.ExitError
	if _, err := e.Execute(deadline(t), "date-diff", json.RawMessage(`{"from":"2026-13-45","to":"2026-02-02"}`)); !errors.As(err, &ee) || ee.Stderr != `from: "2026-13-45" is not a date` {
		t.Errorf("an impossible date: %v, want an ExitError with the script's message", err)
	}
	if err := e.Check(t.Context(), "csv-tools"); !errors.Is(err, executor.ErrNotComputeEntry) {
		t.Errorf("csv-tools: %v, want ErrNotComputeEntry", err)
	}
}

// writeSkill writes a skill folder with the given files under root.
func writeSkill(t *testing.T, root, name string, files map[string]string) {
	t.Helper()
	files["SKILL.md"] = "---\nname: " + name + "\ndescription: Test skill " + name + ".\n---\nBody.\n"
	for rel, data := range files {
		p := filepath.Join(root, name, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestExecuteBuildsTheCommand(t *testing.T) {
	root := t.TempDir()
	writeSkill(t, root, "dn", map[string]string{"skill.config.yaml": "runtime: dotnet\nentrypoint: app/App.csproj\n", "app/App.csproj": "<Project/>"})
	writeSkill(t, root, "py", map[string]string{"skill.config.yaml": "entrypoint: main.py\ntimeout: 600000\n", "main.py": ""})
	writeSkill(t, root, "js", map[string]string{"skill.config.yaml": "entrypoint: lib/main.mjs\ntimeout: 1500\n", "lib/main.mjs": ""})
	writeSkill(t, root, "sh", map[string]string{"skill.config.yaml": "entrypoint: run.sh\n", "run.sh": ""})
	var got []executor.Command
	var mu sync.Mutex
	r := executor.RunnerFunc(func(_ context.Context, cmd executor.Command) (executor.Result, error) {
		mu.Lock()
		got = append(got, cmd)
		mu.Unlock()
		return executor.Result{Stdout: []byte("{}")}, nil
	})
	host := map[string]string{"PATH": "/opt/bin:/usr/bin", "LANG": "C.UTF-8", "SECRET_X": "no"}
	e := executor.New(loadSkills(t, root), nil, &executor.Options{
		Runner: r, MaxTimeout: time.Minute, EnvWhitelist: []string{"PATH", "LANG", "TZ"},
		LookupEnv: func(name string) (string, bool) { v, ok := host[name]; return v, ok },
	})
	for _, name := range []string{"dn", "py", "js", "sh"} {
		if _, err := e.Execute(deadline(t), name, nil); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	dir := func(name string) string { return filepath.Join(root, name) }
	wantEnv := map[string]string{"PATH": "/opt/bin:/usr/bin", "LANG": "C.UTF-8"}
	want := []executor.Command{
		{Path: "dotnet", Args: []string{"run", "--project", filepath.Join("app", "App.csproj")}, Timeout: skill.DefaultTimeout},
		{Path: "python3", Args: []string{"main.py"}, Timeout: time.Minute},
		{Path: "node", Args: []string{filepath.Join("lib", "main.mjs")}, Timeout: 1500 * time.Millisecond},
		{Path: "bash", Args: []string{"run.sh"}, Timeout: skill.DefaultTimeout},
	}
	if runtime.GOOS == "windows" {
		want[1].Path = "python"
	}
	for i, name := range []string{"dn", "py", "js", "sh"} {
		want[i].Dir, want[i].Env, want[i].Stdin = dir(name), wantEnv, []byte("{}")
		want[i].Confine = &executor.Confinement{Read: []string{}, Write: []string{}} // no permissions declared
		want[i].MaxStdout, want[i].MaxStderr = executor.DefaultMaxOutputBytes, executor.DefaultMaxStderr
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("commands (-want +got):\n%s", diff)
	}
}

func TestCheckRefusesBadSchemas(t *testing.T) {
	root := t.TempDir()
	writeSkill(t, root, "bad-in", map[string]string{"run.sh": "", "skill.config.yaml": `entrypoint: run.sh
interface:
  input:
    type: object
    properties: { a: { type: nonsense } }
`})
	writeSkill(t, root, "bad-ref", map[string]string{"run.sh": "", "skill.config.yaml": `entrypoint: run.sh
interface:
  output:
    type: object
    properties: { a: { $ref: "file:///etc/passwd" } }
`})
	e := executor.New(loadSkills(t, root), nil, nil)
	for name, want := range map[string]string{"bad-in": "interface.input is not a valid JSON Schema", "bad-ref": "external schema references are not allowed"} {
		var nr *executor.NotRunnableError
		err := e.Check(t.Context(), name)
		if !errors.As(err, &nr) || nr.Code != diagnostics.ConfigParseError || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: Check = %v, want CONFIG_PARSE_ERROR saying %q", name, err, want)
		}
	}
	if _, err := e.Execute(deadline(t), "bad-in", nil); !errors.Is(err, executor.ErrNotRunnable) {
		t.Errorf("Execute with a bad input schema: %v", err)
	}
}

// TestExecuteRedactsSecretsFromOutputErrors: when a skill's stdout is not
// valid, what the model sees of it (the start of stdout, the output schema's
// problems) has the skill's own secret values replaced, as stderr has.
func TestExecuteRedactsSecretsFromOutputErrors(t *testing.T) {
	root := t.TempDir()
	writeSkill(t, root, "leaky", map[string]string{
		"skill.config.yaml": "entrypoint: run.sh\nenv:\n  - name: SKILL_TOKEN\n    required: true\n" +
			"interface:\n  output:\n    type: object\n    additionalProperties: false\n    properties:\n      id: {type: string, pattern: \"^[0-9]+$\"}\n",
		"run.sh": "",
	})
	var stdout string
	r := executor.RunnerFunc(func(context.Context, executor.Command) (executor.Result, error) {
		return executor.Result{Stdout: []byte(stdout)}, nil
	})
	e := executor.New(loadSkills(t, root), &vault{values: map[string]map[string]string{"leaky": {"SKILL_TOKEN": skillToken}}}, &executor.Options{Runner: r})
	for _, tc := range []struct{ name, stdout string }{
		{"not JSON", "logged in with " + skillToken + ", now {oops"},
		{"cut at 200 characters", strings.Repeat("x", 195) + skillToken + " {"},
		{"a value against the schema", `{"id":"` + skillToken + `"}`},
		{"a property name against the schema", `{"` + skillToken + `":1}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stdout = tc.stdout
			out, err := e.Execute(deadline(t), "leaky", nil)
			if !errors.Is(err, executor.ErrBadOutput) {
				t.Fatalf("err %v, want ErrBadOutput", err)
			}
			for _, part := range []string{skillToken, skillToken[:8], skillToken[len(skillToken)-8:]} {
				if strings.Contains(out.Error, part) || strings.Contains(err.Error(), part) {
					t.Errorf("the error shows (part of) the skill's secret: %s", out.Error)
				}
			}
			var se *executor.SchemaError
			if errors.As(err, &se) {
				for _, p := range se.Problems {
					if strings.Contains(p.Pointer+p.Message, skillToken) {
						t.Errorf("a schema problem shows the secret: %+v", p)
					}
				}
			}
			if !strings.Contains(out.Error, "[reda") { // "[redacted]", or its start where the text is cut
				t.Errorf("nothing was redacted: %s", out.Error)
			}
		})
	}
}

// TestExecuteRedactsEscapedSecrets: a secret holding quotes, "/" and "~"
// is redacted in the forms error text quotes it in (JSON, the schema
// validator's quoting, JSON pointers).
func TestExecuteRedactsEscapedSecrets(t *testing.T) {
	const secret = `p/a"ss'w~rd`
	root := t.TempDir()
	writeSkill(t, root, "leaky", map[string]string{
		"skill.config.yaml": "entrypoint: run.sh\nenv:\n  - name: SKILL_TOKEN\n    required: true\n" +
			"interface:\n  output:\n    type: object\n    additionalProperties: false\n    properties:\n      id: {type: string, pattern: \"^[0-9]+$\"}\n",
		"run.sh": "",
	})
	var stdout string
	r := executor.RunnerFunc(func(context.Context, executor.Command) (executor.Result, error) {
		return executor.Result{Stdout: []byte(stdout)}, nil
	})
	e := executor.New(loadSkills(t, root), &vault{values: map[string]map[string]string{"leaky": {"SKILL_TOKEN": secret}}}, &executor.Options{Runner: r})
	enc, _ := json.Marshal(secret)
	for _, s := range []string{
		"echoing " + string(enc) + " {",
		`{"id":` + string(enc) + `}`,
		`{` + string(enc) + `:1}`,
	} {
		stdout = s
		out, err := e.Execute(deadline(t), "leaky", nil)
		if !errors.Is(err, executor.ErrBadOutput) {
			t.Fatalf("%s: err %v", s, err)
		}
		for _, part := range []string{"ss'w", `ss\'w`, `a"ss`, `a\"ss`, "w~rd", "w~0rd"} {
			if strings.Contains(out.Error, part) {
				t.Errorf("the error shows the secret (%s): %s", part, out.Error)
			}
		}
	}
}

// TestExecuteDeclaredDefaultsAndUTF8: a real bash skill gets the default of
// a variable it declares (the executor hands the resolver the skill's env
// declaration), and standard output that is JSON but not UTF-8 is bad
// output, not a result passed on to the model.
func TestExecuteDeclaredDefaultsAndUTF8(t *testing.T) {
	needPrograms(t, "bash")
	root := t.TempDir()
	writeSkill(t, root, "greet", map[string]string{
		"skill.config.yaml": "runtime: bash\nentrypoint: run.sh\nenv:\n  - name: GREETING\n    default: hello\n",
		"run.sh":            `printf '{"greeting":"%s"}' "$GREETING"`,
	})
	writeSkill(t, root, "latin1", map[string]string{
		"skill.config.yaml": "runtime: bash\nentrypoint: run.sh\n",
		"run.sh":            `printf '"caf\351"'`,
	})
	e := executor.New(loadSkills(t, root), newVault(), nil)
	out, err := e.Execute(deadline(t), "greet", nil)
	if err != nil || string(out.Output) != `{"greeting":"hello"}` {
		t.Errorf("greet: output %s, err %v; want the declared default", out.Output, err)
	}
	out, err = e.Execute(deadline(t), "latin1", nil)
	if !errors.Is(err, executor.ErrBadOutput) || !strings.Contains(out.Error, "not UTF-8") || out.Output != nil {
		t.Errorf("latin1: output %q, err %v; want ErrBadOutput saying not UTF-8", out.Output, err)
	}
}

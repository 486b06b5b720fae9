package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/skillkit-go/skillkit"
	"github.com/skillkit-go/skillkit/installer"
	"github.com/skillkit-go/skillkit/loader"
	"github.com/skillkit-go/skillkit/mcpskills"
	"github.com/skillkit-go/skillkit/registry"
	"github.com/skillkit-go/skillkit/tools"
)

// TestMain lets the test binary stand in for skillkit-mcp: with
// SKILLKIT_MCP_MAIN set it runs as the server, with the arguments in
// SKILLKIT_MCP_ARGS (a JSON array); "lying" makes it a server that lists
// a wrong digest. So the tests talk to it as any client would, a child
// process over standard input and output, without building it first.
func TestMain(m *testing.M) {
	switch os.Getenv("SKILLKIT_MCP_MAIN") {
	case "":
		os.Exit(m.Run())
	case "lying":
		runLying()
		os.Exit(0)
	}
	var args []string
	json.Unmarshal([]byte(os.Getenv("SKILLKIT_MCP_ARGS")), &args)
	os.Args = append([]string{"skillkit-mcp"}, args...)
	main()
	os.Exit(0)
}

// serverCommand is the command and environment that start the test binary
// as skillkit-mcp serving dir.
func serverCommand(t *testing.T, mode, dir string) ([]string, map[string]string) {
	t.Helper()
	args, _ := json.Marshal([]string{"-dir", dir})
	return []string{os.Args[0], "-test.run=^$"}, map[string]string{"SKILLKIT_MCP_MAIN": mode, "SKILLKIT_MCP_ARGS": string(args)}
}

// servedFolder writes the skills skillkit-mcp serves in the tests.
func servedFolder(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	// The server runs confined, as nobody when the tests run as root: the
	// folder it serves must be readable by others.
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	writeFiles(t, dir, map[string]string{
		"pdf-forms/SKILL.md":            "---\nname: pdf-forms\ndescription: Fill PDF forms.\n---\nRead references/FORMS.md first.\n",
		"pdf-forms/references/FORMS.md": "# Forms\nField names are case-sensitive.\n",
		"pdf-forms/scripts/fill.py":     "print('fill')\n",
		"pdf-forms/skill.config.yaml":   "runtime: python\n",
		"pdf-forms/.env":                "API_TOKEN=secret-token\n",
		"git-flow/SKILL.md":             "---\nname: git-flow\ndescription: Branch from main.\n---\nUse feature branches.\n",
	})
	return dir
}

// writeFiles writes files (content by slash path) into dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for p, content := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func start(t *testing.T, mode, dir string) *mcpskills.Client {
	t.Helper()
	argv, env := serverCommand(t, mode, dir)
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	c, err := mcpskills.Start(ctx, argv, &mcpskills.Options{Env: env, Stderr: testWriter{t}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Logf("server: %s", bytes.TrimSpace(p))
	return len(p), nil
}

// skillkit's own client loads the skills skillkit-mcp serves from another
// folder into a Kit, as a read-only source after the Kit's own folder:
// verified, scanned, readable by the agent, never runnable.
func TestKitLoadsSkillsFromServer(t *testing.T) {
	served := servedFolder(t)
	c := start(t, "1", served)
	// The Go SDK's server speaks the revision the extension is written
	// against: no session, each request with its _meta.
	if v := c.ProtocolVersion(); v != mcpskills.ProtocolVersion {
		t.Errorf("negotiated %q, want %q", v, mcpskills.ProtocolVersion)
	}
	src, diags, err := c.Source(t.Context(), "docs-server")
	if err != nil || len(diags) > 0 {
		t.Fatalf("Source: %v %v", err, diags)
	}
	ctx := t.Context()
	kit, err := skillkit.Open(ctx, skillkit.Options{Dir: t.TempDir(), Sources: []loader.Source{src}})
	if err != nil {
		t.Fatal(err)
	}
	defer kit.Close()
	ts, err := kit.Toolset(ctx, tools.Agent{Tools: []string{"bash"}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(ts.Prompt, `<skill name="pdf-forms" type="prompt" origin="mcp:docs-server">`) {
		t.Errorf("the catalog does not show the served skill with its server:\n%s", ts.Prompt)
	}
	s, ok, err := kit.Skill(ctx, "pdf-forms")
	if err != nil || !ok || s.Source != "mcp:docs-server" || s.DiskDir != "" {
		t.Fatalf("pdf-forms: %+v %v %v", s, ok, err)
	}
	if diff := cmp.Diff([]string{"references/FORMS.md", "scripts/fill.py"}, s.Files); diff != "" {
		t.Errorf("files (-want +got): the infrastructure must not be served\n%s", diff)
	}
	read, _ := ts.Tool(tools.ReadSkillFileName)
	res, err := read.Invoke(ctx, json.RawMessage(`{"name":"pdf-forms","path":"references/FORMS.md"}`))
	if err != nil || res.IsError || !strings.Contains(res.Text, "case-sensitive") {
		t.Errorf("read_skill_file: %+v %v", res, err)
	}
	readSkill, _ := ts.Tool(tools.ReadSkillName)
	res, err = readSkill.Invoke(ctx, json.RawMessage(`{"name":"pdf-forms"}`))
	if err != nil || !strings.HasPrefix(res.Text, `<skill_content name="pdf-forms" origin="mcp:docs-server">`) {
		t.Errorf("read_skill does not name the server: %+v %v", res, err)
	}
	if _, ok := ts.Tool(tools.ExecuteSkillName); ok {
		t.Error("execute_skill is offered for skills served over MCP")
	}
}

// A server that lists a digest its content does not have is caught: the
// skill does not load, and a diagnostic says why; an install from it
// fails and leaves nothing.
func TestLyingServerIsRefused(t *testing.T) {
	c := start(t, "lying", servedFolder(t))
	fsys, _, err := c.FS(t.Context(), "liar")
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	kit, err := skillkit.Open(ctx, skillkit.Options{Dir: t.TempDir(), Sources: []loader.Source{{Name: "mcp:liar", FS: fsys}}})
	if err != nil {
		t.Fatal(err)
	}
	defer kit.Close()
	if _, ok, _ := kit.Skill(ctx, "git-flow"); ok {
		t.Error("git-flow loaded from a lying server")
	}
	if _, ok, _ := kit.Skill(ctx, "pdf-forms"); !ok {
		t.Error("pdf-forms, which the server did not lie about, did not load")
	}
	diags, err := kit.Doctor(ctx)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, d := range diags.ForSkill("git-flow") {
		found = found || strings.Contains(d.Message, "does not match its entry")
	}
	if !found {
		t.Errorf("no diagnostic says git-flow did not match its digest:\n%v", diags)
	}

	dest := t.TempDir()
	argv, env := serverCommand(t, "lying", servedFolder(t))
	ikit, err := skillkit.Open(ctx, skillkit.Options{Dir: dest})
	if err != nil {
		t.Fatal(err)
	}
	defer ikit.Close()
	_, err = ikit.Install(ctx, installer.Source{Remote: &mcpskills.Remote{Command: argv, URI: "skill://git-flow/SKILL.md", Options: &mcpskills.Options{Env: env}}}, nil)
	if !errors.Is(err, installer.ErrDigestMismatch) {
		t.Fatalf("install from a lying server: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dest, "git-flow")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("git-flow was installed: %v", err)
	}
}

// runLying serves like skillkit-mcp, except that skills/list and
// skills/get give git-flow's SKILL.md a digest its bytes do not have.
func runLying() {
	var args []string
	json.Unmarshal([]byte(os.Getenv("SKILLKIT_MCP_ARGS")), &args)
	ctx := context.Background()
	kit, err := skillkit.Open(ctx, skillkit.Options{Dir: args[1]})
	if err != nil {
		panic(err)
	}
	server, err := newServer(ctx, kit, tools.Agent{}, io.Discard, nil)
	if err != nil {
		panic(err)
	}
	server.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			res, err := next(ctx, method, req)
			if err != nil || method != mcpskills.MethodList && method != mcpskills.MethodGet {
				return res, err
			}
			b, err := json.Marshal(res)
			if err != nil {
				return nil, err
			}
			var out map[string]any
			json.Unmarshal(b, &out)
			entries, _ := out["skills"].([]any)
			if s, ok := out["skill"]; ok {
				entries = append(entries, s)
			}
			for _, e := range entries {
				e := e.(map[string]any)
				for _, r := range e["resources"].([]any) {
					if r := r.(map[string]any); r["uri"] == "skill://git-flow/SKILL.md" {
						r["digest"] = mcpskills.Digest([]byte("what the server pretends"))
					}
				}
			}
			b, err = json.Marshal(out)
			return &rawResult{data: b}, err
		}
	})
	server.Run(ctx, &mcp.StdioTransport{})
}

// rawResult is a result given as JSON.
type rawResult struct {
	mcp.ResultBase
	data json.RawMessage
}

func (r *rawResult) MarshalJSON() ([]byte, error) { return r.data, nil }

// The official TypeScript MCP SDK, as a client: it starts skillkit-mcp,
// sees the extension, lists and gets every skill, and reads every file,
// whose bytes match the digests listed (testdata/ts-client.mjs). The test
// skips only when node or npm is absent, and with CI=true not even then.
func TestTypeScriptClient(t *testing.T) {
	node, sdk := typeScriptSDK(t)
	argv, env := serverCommand(t, "1", servedFolder(t))
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	stdout := runScript(t, ctx, node, sdk, "ts-client.mjs", argv, env)
	var summary struct {
		Extension bool `json:"extension"`
		Skills    []struct {
			URI   string   `json:"uri"`
			Name  string   `json:"name"`
			Files []string `json:"files"`
		} `json:"skills"`
		UnknownSkillCode int `json:"unknownSkillCode"`
	}
	if err := json.Unmarshal(stdout, &summary); err != nil {
		t.Fatalf("%v: %s", err, stdout)
	}
	if !summary.Extension || summary.UnknownSkillCode != -32602 || len(summary.Skills) != 2 {
		t.Fatalf("summary %s", stdout)
	}
	pdf := summary.Skills[1]
	if pdf.URI != "skill://pdf-forms/SKILL.md" || !slices.Equal(pdf.Files, []string{"SKILL.md", "references/FORMS.md", "scripts/fill.py"}) {
		t.Errorf("pdf-forms as the TypeScript client read it: %+v", pdf)
	}
}

// On the corpus of real published skills, the clients Skills-extension
// hosts use accept everything skillkit-mcp serves: the MCP Inspector's
// --verify (SEP-2640 conformance and digests) exits 0, and the TypeScript
// SDK v2's SkillsClient lists every served skill, which it would refuse
// all at once for one entry it rejects, and verifies each SKILL.md. What
// is served is every skill the Kit loads but those clients reject
// (mcpskills.Entry). It needs SKILLKIT_CORPUS, node and npm.
func TestCorpusClients(t *testing.T) {
	corpus := os.Getenv("SKILLKIT_CORPUS")
	if corpus == "" {
		t.Skip("SKILLKIT_CORPUS is not set")
	}
	node, modules := typeScriptSDK(t)
	served := servedCount(t, corpus)
	argv, env := serverCommand(t, "1", corpus)
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
	defer cancel()

	// The Inspector's launcher (its mcp-inspector command), in CLI mode.
	launcher := filepath.Join(modules, "@modelcontextprotocol", "inspector", "clients", "launcher", "build", "index.js")
	args := append([]string{launcher, "--cli"}, "--method", "skills/list", "--verify", "--format", "json", "-q", "--skill-catalog-max-skills", "1000")
	for k, v := range env {
		args = append(args, "-e", k+"="+v)
	}
	cmd := exec.CommandContext(ctx, node, append(args, argv...)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("mcp-inspector --verify: %v\n%s\n%.4000s", err, stderr.String(), stdout.String())
	}
	reports := 0
	for _, line := range bytes.Split(bytes.TrimSpace(stdout.Bytes()), []byte("\n")) {
		var r struct {
			URI string `json:"uri"`
			OK  bool   `json:"ok"`
		}
		if err := json.Unmarshal(line, &r); err != nil || !r.OK {
			t.Errorf("inspector report %v: %s", err, line)
		}
		reports++
	}
	if reports != served {
		t.Errorf("the inspector verified %d skills, skillkit-mcp serves %d", reports, served)
	}

	out := runScript(t, ctx, node, modules, "skills-client.mjs", argv, env)
	var got struct{ Listed, Read int }
	if err := json.Unmarshal(out, &got); err != nil || got.Listed != served || got.Read != served {
		t.Errorf("SkillsClient listed %d and read %d of %d served (%v): %.2000s", got.Listed, got.Read, served, err, out)
	}
}

// runScript runs testdata/script with node beside the node_modules folder
// modules, giving it the server command argv and env, and returns its
// standard output; a failure ends the test.
func runScript(t *testing.T, ctx context.Context, node, modules, script string, argv []string, env map[string]string) []byte {
	t.Helper()
	work := t.TempDir()
	code, err := os.ReadFile(filepath.Join("testdata", script))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(work, script), code, 0o644)
	if err := os.Symlink(modules, filepath.Join(work, "node_modules")); err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(ctx, node, append([]string{script}, argv...)...)
	cmd.Dir = work
	cmd.Env = os.Environ()
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("node %s failed: %v\n%.4000s", script, err, stderr.String())
	}
	return stdout.Bytes()
}

// servedCount is how many skills skillkit-mcp serves from dir: those its
// Kit loads (an agent with no tools: the corpus skills' tool conditions
// left as they are) that get an entry.
func servedCount(t *testing.T, dir string) int {
	t.Helper()
	c := start(t, "1", dir)
	entries, _, err := c.List(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) < 100 {
		t.Fatalf("skillkit-mcp serves %d corpus skills", len(entries))
	}
	return len(entries)
}

// typeScriptSDK returns node and a node_modules folder holding the
// TypeScript MCP SDK: the one SKILLKIT_MCP_TS_SDK names (.ci/run sets it),
// else the one .ci/run installs in .ci/mcp-ts, else one npm installs now
// into a temporary folder from .ci/mcp-ts's lock file. It skips the test
// when node or npm is missing, unless CI=true, where that fails it.
func typeScriptSDK(t *testing.T) (node, modules string) {
	const mcpTS = "../../../../.ci/mcp-ts"
	missing := func(msg string) {
		msg += ": the TypeScript MCP SDK client test needs node and npm"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		missing("node is not installed")
	}
	hasSDK := func(modules string) bool {
		for _, pkg := range []string{"sdk", "client", "inspector"} {
			if _, err := os.Stat(filepath.Join(modules, "@modelcontextprotocol", pkg, "package.json")); err != nil {
				return false
			}
		}
		return true
	}
	if modules = os.Getenv("SKILLKIT_MCP_TS_SDK"); modules != "" {
		if !hasSDK(modules) {
			t.Fatalf("SKILLKIT_MCP_TS_SDK=%s lacks one of @modelcontextprotocol/sdk, client and inspector", modules)
		}
		return node, modules
	}
	if modules, _ = filepath.Abs(filepath.Join(mcpTS, "node_modules")); hasSDK(modules) {
		return node, modules
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		missing("npm is not installed")
	}
	dir := t.TempDir()
	for _, f := range []string{"package.json", "package-lock.json"} {
		b, err := os.ReadFile(filepath.Join(mcpTS, f))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, f), b, 0o644)
	}
	cmd := exec.CommandContext(t.Context(), npm, "ci", "--prefer-offline", "--no-audit", "--no-fund", "--ignore-scripts", "--loglevel=error")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("npm ci of the TypeScript MCP SDK (.ci/mcp-ts/package-lock.json) failed: %v\n%s", err, out)
	}
	return node, filepath.Join(dir, "node_modules")
}

// A skill installed from skillkit-mcp through skillkit's client is
// recorded with the server's command and the skill's URI; the record lets
// update checks and updates ask the server again.
func TestInstallFromServer(t *testing.T) {
	served := servedFolder(t)
	argv, env := serverCommand(t, "1", served)
	ctx := t.Context()
	dest := t.TempDir()
	opts := &mcpskills.Options{Env: env}
	kit, err := skillkit.Open(ctx, skillkit.Options{Dir: dest, Installer: &installer.Options{Remote: func(rec registry.Record) (installer.Remote, error) {
		return mcpskills.FromRecord(rec, [][]string{argv}, opts)
	}}})
	if err != nil {
		t.Fatal(err)
	}
	defer kit.Close()
	res, err := kit.Install(ctx, installer.Source{Remote: &mcpskills.Remote{Command: argv, URI: "skill://pdf-forms/SKILL.md", Options: opts}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Record.Source != registry.SourceMCP || res.Record.Subdir != "skill://pdf-forms/SKILL.md" || !strings.HasPrefix(res.Record.URL, "mcp+stdio:") {
		t.Errorf("record %+v", res.Record)
	}
	b, err := os.ReadFile(filepath.Join(dest, "pdf-forms", "references", "FORMS.md"))
	if err != nil || !strings.Contains(string(b), "case-sensitive") {
		t.Fatalf("FORMS.md: %q %v", b, err)
	}
	for _, infra := range []string{"skill.config.yaml", ".env"} {
		if _, err := os.Stat(filepath.Join(dest, "pdf-forms", infra)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s was installed: %v", infra, err)
		}
	}
	st, err := kit.CheckUpdates(ctx)
	if err != nil || len(st) != 1 || !st[0].Checked || st[0].HasUpdate {
		t.Fatalf("check: %+v %v", st, err)
	}
	if err := os.WriteFile(filepath.Join(served, "pdf-forms", "references", "FORMS.md"), []byte("# Forms v2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if st, err = kit.CheckUpdates(ctx); err != nil || !st[0].HasUpdate {
		t.Fatalf("check after a change: %+v %v", st, err)
	}
	if _, err := kit.Update(ctx, "pdf-forms", nil); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(dest, "pdf-forms", "references", "FORMS.md")); string(b) != "# Forms v2\n" {
		t.Errorf("after update: %q", b)
	}
}

// The skillkit command installs a skill from skillkit-mcp, given as
// mcp+stdio: and the server's command: the list of what the server
// offers, then the skill picked, verified and installed; outdated asks the
// server again. Both programs run for real: the command is built from this
// tree, the server is this test binary.
func TestCommandInstallsFromServer(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the skillkit command")
	}
	// Built in the core module's folder, with the core's go.mod: this
	// module requires none of the command's own dependencies, and outside
	// the workspace (adapters/check-latest.sh) its go.sum lacks them.
	core, err := exec.CommandContext(t.Context(), "go", "list", "-m", "-f", "{{.Dir}}", "github.com/skillkit-go/skillkit").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "skillkit")
	build := exec.CommandContext(t.Context(), "go", "build", "-o", bin, "./cmd/skillkit")
	build.Dir = strings.TrimSpace(string(core))
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	served := servedFolder(t)
	argv, env := serverCommand(t, "1", served)
	// The command gives the server a small environment, so the test's
	// variables go through env(1).
	server := []string{"env", "SKILLKIT_MCP_MAIN=" + env["SKILLKIT_MCP_MAIN"], "SKILLKIT_MCP_ARGS=" + env["SKILLKIT_MCP_ARGS"]}
	server = append(server, argv...)
	dest := t.TempDir()
	skillkitCmd := func(args ...string) (int, string) {
		cmd := exec.CommandContext(t.Context(), bin, args...)
		out, err := cmd.CombinedOutput()
		var exit *exec.ExitError
		if err != nil && !errors.As(err, &exit) {
			t.Fatal(err)
		}
		return cmd.ProcessState.ExitCode(), string(out)
	}
	code, out := skillkitCmd(append([]string{"install", "--dir", dest, "--"}, append([]string{"mcp+stdio:" + server[0]}, server[1:]...)...)...)
	if code != 2 || !strings.Contains(out, "skill://git-flow/SKILL.md") || !strings.Contains(out, "skill://pdf-forms/SKILL.md") {
		t.Fatalf("without --skill: exit %d\n%s", code, out)
	}
	code, out = skillkitCmd("install", "--dir", dest, "--skill", "pdf-forms", mcpskills.CommandURL(server))
	if code != 0 || !strings.Contains(out, "installed pdf-forms from mcp mcp+stdio:env ") {
		t.Fatalf("install: exit %d\n%s", code, out)
	}
	if b, err := os.ReadFile(filepath.Join(dest, "pdf-forms", "references", "FORMS.md")); err != nil || !strings.Contains(string(b), "case-sensitive") {
		t.Fatalf("FORMS.md: %q %v", b, err)
	}
	os.WriteFile(filepath.Join(served, "pdf-forms", "references", "FORMS.md"), []byte("# Forms v2\n"), 0o644)
	code, out = skillkitCmd("outdated", "--dir", dest)
	if code != 0 || !strings.Contains(out, "pdf-forms") {
		t.Fatalf("outdated: exit %d\n%s", code, out)
	}
}

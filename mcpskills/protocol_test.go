package mcpskills

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/skillkit-go/skillkit/executor"
	"github.com/skillkit-go/skillkit/installer"
	"github.com/skillkit-go/skillkit/registry"
	"github.com/skillkit-go/skillkit/skill"
)

func TestHandshake(t *testing.T) {
	if _, err := connectFake(t, &fakeServer{noExt: true}, nil); !errors.Is(err, ErrNoExtension) {
		t.Errorf("no extension: %v", err)
	}
	if _, err := connectFake(t, &fakeServer{version: "2099-01-01"}, nil); !errors.Is(err, ErrProtocol) {
		t.Errorf("unknown revision: %v", err)
	}
	if _, err := connectFake(t, &fakeServer{extraOut: "not json\n"}, nil); !errors.Is(err, ErrProtocol) {
		t.Errorf("garbage on the wire: %v", err)
	}
	// A server may ping the client; the session goes on.
	c, err := connectFake(t, &fakeServer{ping: true, skills: twoSkills()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if name, _ := c.ServerName(); name != "fake" {
		t.Errorf("server name %q", name)
	}
	if _, _, err := c.List(t.Context()); err != nil {
		t.Fatal(err)
	}
}

func TestListPages(t *testing.T) {
	skills := map[string]map[string]string{}
	for i := range 7 {
		name := fmt.Sprintf("s%d", i)
		skills[name] = skillFiles(name, "x", nil)
	}
	c, err := connectFake(t, &fakeServer{skills: skills, pageSize: 2}, &Options{MaxSkills: 5})
	if err != nil {
		t.Fatal(err)
	}
	got, problems, err := c.List(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	var uris []string
	for _, s := range got {
		uris = append(uris, s.URI)
	}
	if diff := cmp.Diff([]string{"skill://s0/SKILL.md", "skill://s1/SKILL.md", "skill://s2/SKILL.md", "skill://s3/SKILL.md", "skill://s4/SKILL.md"}, uris); diff != "" {
		t.Errorf("listed (-want +got):\n%s", diff)
	}
	if len(problems) != 2 {
		t.Errorf("problems %v, want the two past MaxSkills", problems)
	}
	// A server whose cursor comes back is stopped.
	c, err = connectFake(t, &fakeServer{skills: skills, pageSize: 2, cursors: func(int) string { return "2" }}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.List(t.Context()); !errors.Is(err, ErrProtocol) {
		t.Errorf("looping cursor: %v", err)
	}
}

// A message over the size limit ends the session with an error, not an
// allocation as large as the server likes.
func TestMessageLimit(t *testing.T) {
	skills := map[string]map[string]string{"big": skillFiles("big", strings.Repeat("x", 4096), nil)}
	c, err := connectFake(t, &fakeServer{skills: skills}, &Options{MaxMessageBytes: 2048})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Read(t.Context(), SkillURI("big")); !errors.Is(err, ErrProtocol) {
		t.Errorf("read: %v, want ErrProtocol", err)
	}
	if _, _, err := c.List(t.Context()); err == nil {
		t.Error("the session went on")
	}
}

func TestGetUnknownSkill(t *testing.T) {
	c, err := connectFake(t, &fakeServer{skills: twoSkills()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var rpc *RPCError
	if _, err := c.Get(t.Context(), SkillURI("nope")); !errors.As(err, &rpc) || rpc.Code != -32602 || rpc.Method != MethodGet {
		t.Errorf("get: %v", err)
	}
}

func TestCancel(t *testing.T) {
	c, err := connectFake(t, &fakeServer{skills: twoSkills()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := c.Get(ctx, SkillURI("git-flow")); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
	if _, err := c.Get(t.Context(), SkillURI("git-flow")); err != nil {
		t.Errorf("after a cancelled call: %v", err)
	}
}

// A call cancelled while the server works on it returns the context's
// error, tells the server with notifications/cancelled naming the request,
// and leaves the session usable.
func TestCancelInFlight(t *testing.T) {
	srv := &fakeServer{skills: twoSkills(), unanswered: MethodGet, notified: make(chan message, 8)}
	c, err := connectFake(t, srv, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 100*time.Millisecond)
	defer cancel()
	if _, err := c.Get(ctx, SkillURI("git-flow")); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("get: %v, want the deadline", err)
	}
	timeout := time.After(10 * time.Second)
	for heard := false; !heard; {
		select {
		case m := <-srv.notified:
			if m.Method != "notifications/cancelled" {
				continue
			}
			var p struct {
				RequestID json.RawMessage `json:"requestId"`
			}
			if err := json.Unmarshal(m.Params, &p); err != nil || len(p.RequestID) == 0 {
				t.Errorf("notifications/cancelled without a request id: %s", m.Params)
			}
			heard = true
		case <-timeout:
			t.Fatal("the server was never told the call was cancelled")
		}
	}
	if _, _, err := c.List(t.Context()); err != nil {
		t.Errorf("after a cancelled call: %v", err)
	}
}

func TestURIs(t *testing.T) {
	for _, tc := range []struct{ path, rel, uri string }{
		{"git-flow", "SKILL.md", "skill://git-flow/SKILL.md"},
		{"pdf", "docs/a b#c.md", "skill://pdf/docs/a%20b%23c.md"},
		{"pdf", "references/é.md", "skill://pdf/references/%C3%A9.md"},
	} {
		if got := URI(tc.path, tc.rel); got != tc.uri {
			t.Errorf("URI(%q, %q) = %q, want %q", tc.path, tc.rel, got, tc.uri)
		}
		name, rel, err := SplitServed(tc.uri)
		if err != nil || name != tc.path || rel != tc.rel {
			t.Errorf("SplitServed(%q) = %q %q %v", tc.uri, name, rel, err)
		}
	}
	for uri, want := range map[string]string{
		"skill://acme/billing/refunds/SKILL.md":     "acme/billing/refunds",
		"github://owner/repo/skills/pdf/SKILL.md":   "github/owner/repo/skills/pdf",
		"skill://git-flow/SKILL.md":                 "git-flow",
		"skill://%2E%2E/SKILL.md":                   "",
		"skill://SKILL.md":                          "",
		"skill:///SKILL.md":                         "",
		"https://example.com/skills/pdf/README.md":  "",
		"skill://a/b%2Fc/SKILL.md":                  "",
		"skill://a/\u202eb/SKILL.md":                "",
		"skill://a/b/SKILL.md#frag":                 "",
		"skill://a/b?x=SKILL.md":                    "",
		"skill://a/b/../SKILL.md":                   "",
		"skill://acme/refunds/SKILL.md/../SKILL.md": "",
	} {
		got, err := SkillPath(uri)
		if got != want || (want == "") != (err != nil) {
			t.Errorf("SkillPath(%q) = %q %v, want %q", uri, got, err, want)
		}
	}
}

// A file belongs to a skill only when its URI lies under the skill's root,
// whatever the depth of the skill's path.
func TestRelPath(t *testing.T) {
	for _, tc := range []struct{ root, uri, want string }{
		{"skill://pdf", "skill://pdf/SKILL.md", "SKILL.md"},
		{"skill://acme/billing/refunds", "skill://acme/billing/refunds/docs/a%20b.md", "docs/a b.md"},
		{"skill://acme/billing/refunds", "skill://acme/billing/other/x.md", ""},
		{"skill://pdf", "skill://pdf2/SKILL.md", ""},
		{"skill://pdf", "skill://other/x.md", ""},
		{"skill://pdf", "skill://pdf/", ""},
		{"skill://pdf", "skill://pdf/a/%2E%2E/%2E%2E/x", ""},
		{"github://o/r/pdf", "github://o/r/pdf/SKILL.md", "SKILL.md"},
	} {
		got, err := RelPath(tc.root, tc.uri)
		if got != tc.want || (tc.want == "") != (err != nil) {
			t.Errorf("RelPath(%q, %q) = %q %v, want %q", tc.root, tc.uri, got, err, tc.want)
		}
	}
}

func TestCommandURL(t *testing.T) {
	for _, argv := range [][]string{
		{"skillkit-mcp", "--dir", "/srv/skills"},
		{"/opt/My Server/bin", "it's", `a"b`, `c\d`, ""},
		{"npx", "-y", "@acme/skills-server@1.2.3"},
	} {
		u := CommandURL(argv)
		got, err := ParseCommandURL(u)
		if err != nil || !slices.Equal(got, argv) {
			t.Errorf("%q -> %q -> %q %v", argv, u, got, err)
		}
	}
	for s, want := range map[string][]string{
		`mcp+stdio:node server.js --port "8 0"`: {"node", "server.js", "--port", "8 0"},
		`mcp+stdio:  a\ b  'c d'e`:              {"a b", "c de"},
		`mcp+stdio:echo $HOME`:                  {"echo", "$HOME"},
	} {
		if got, err := ParseCommandURL(s); err != nil || !slices.Equal(got, want) {
			t.Errorf("%q: %q %v, want %q", s, got, err, want)
		}
	}
	for _, s := range []string{"mcp+stdio:", "mcp+stdio:   ", "mcp+stdio:'open", `mcp+stdio:"open`, `mcp+stdio:end\`, "stdio:x", "mcp+stdio:a\x00b"} {
		if _, err := ParseCommandURL(s); !errors.Is(err, ErrBadCommand) {
			t.Errorf("%q: %v, want ErrBadCommand", s, err)
		}
	}
}

// FuzzCommandURL: a command written by CommandURL reads back the same.
func FuzzCommandURL(f *testing.F) {
	f.Add("skillkit-mcp", "--dir", "/a b/c")
	f.Add("it's", `"q"`, `\`)
	f.Fuzz(func(t *testing.T, a, b, c string) {
		argv := []string{a, b, c}
		for _, w := range argv {
			if strings.ContainsFunc(w, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
				return
			}
		}
		got, err := ParseCommandURL(CommandURL(argv))
		if err != nil || !slices.Equal(got, argv) {
			t.Fatalf("%q -> %q -> %q %v", argv, CommandURL(argv), got, err)
		}
	})
}

func TestFrontmatter(t *testing.T) {
	got, err := Frontmatter([]byte("---\nname: pdf\ndescription: \"Fill: forms\"\nlicense: MIT\nversion: 1.0\nmetadata:\n  1: one\n  tags: [a, b]\n  nested: {x: true}\n---\nbody\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"name": "pdf", "description": "Fill: forms", "license": "MIT", "version": float64(1),
		"metadata": map[string]any{"1": "one", "tags": []any{"a", "b"}, "nested": map[string]any{"x": true}}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("frontmatter (-want +got):\n%s", diff)
	}
	for _, bad := range []string{"no frontmatter", "---\n- a list\n---\n", "---\nname: x\n---\n", "---\nname: [x]\ndescription: d\n---\n", "---\nname: x\ndescription: d\nn: .inf\n---\n"} {
		if _, err := Frontmatter([]byte(bad)); !errors.Is(err, ErrFrontmatter) {
			t.Errorf("%q: %v", bad, err)
		}
	}
}

// A server serves SKILL.md and the attached files, never infrastructure,
// not even through a link, and never a file outside the skill.
func TestServed(t *testing.T) {
	dir := t.TempDir()
	write := func(rel, content string) {
		p := filepath.Join(dir, "demo", filepath.FromSlash(rel))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("SKILL.md", "---\nname: demo\ndescription: A demo.\n---\nRead references/a.md.\n")
	write("references/a.md", "a")
	write("skill.config.yaml", "runtime: python\n")
	write(".env", "TOKEN=secret")
	write("sub/.env", "TOKEN=secret")
	write("package.json", "{}")
	write(".venv/bin/python", "x")
	os.WriteFile(filepath.Join(dir, "outside.md"), []byte("outside"), 0o644)
	if err := os.Symlink("../.env", filepath.Join(dir, "demo", "references", "env.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../../outside.md", filepath.Join(dir, "demo", "references", "out.md")); err != nil {
		t.Fatal(err)
	}
	s, diags := skill.Load(os.DirFS(dir), "demo", &skill.LoadOptions{DiskRoot: dir})
	if s == nil {
		t.Fatal(diags)
	}
	if diff := cmp.Diff([]string{"SKILL.md", "references/a.md"}, Served(s)); diff != "" {
		t.Errorf("served (-want +got):\n%s", diff)
	}
	for _, rel := range []string{"skill.config.yaml", ".env", "sub/.env", "package.json", ".venv/bin/python", "references/env.md", "references/out.md", "../outside.md"} {
		if _, err := ReadServed(s, rel); err == nil {
			t.Errorf("%s was served", rel)
		}
	}
	e, err := Entry(s)
	if err != nil {
		t.Fatal(err)
	}
	if e.URI != "skill://demo/SKILL.md" || len(e.Resources.Files) != 2 || e.Frontmatter["name"] != "demo" {
		t.Errorf("entry %+v", e)
	}
	for _, r := range e.Resources.Files {
		_, rel, _ := SplitServed(r.URI)
		data, err := ReadServed(s, rel)
		if err != nil || Digest(data) != r.Digest || int64(len(data)) != r.Size {
			t.Errorf("%s: the bytes served do not match the entry", r.URI)
		}
	}
	// What the entry says checks out on the client's side too.
	if _, err := checkEntry(e); err != nil {
		t.Error(err)
	}

	// After the skill was loaded, a file added is not served, nor a listed
	// file replaced by a link to a secret.
	write("references/new.md", "new")
	if _, err := ReadServed(s, "references/new.md"); err == nil {
		t.Error("a file the skill did not list was served")
	}
	os.Remove(filepath.Join(dir, "demo", "references", "a.md"))
	if err := os.Symlink("../.env", filepath.Join(dir, "demo", "references", "a.md")); err != nil {
		t.Fatal(err)
	}
	if data, err := ReadServed(s, "references/a.md"); err == nil {
		t.Errorf("a link to .env was served: %q", data)
	}
}

// TestMain lets the test binary be an MCP server for TestRemote: with
// MCPSKILLS_FAKE_SERVER set it serves twoSkills over standard input and
// output, and writes its environment to the file that variable names.
func TestMain(m *testing.M) {
	if out := os.Getenv("MCPSKILLS_FAKE_SERVER"); out != "" {
		// What the server sees of the host: its environment, and whether
		// the host's process is there to read.
		host := "HOST_PROC=hidden"
		if _, err := os.Stat("/proc/" + os.Getenv("MCPSKILLS_HOST_PID") + "/environ"); err == nil {
			host = "HOST_PROC=visible"
		}
		os.WriteFile(out, []byte(strings.Join(append(os.Environ(), host), "\n")), 0o644)
		(&fakeServer{skills: twoSkills()}).serve(os.Stdin, os.Stdout)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// A Remote starts the server, fetches one skill verified, and records the
// command and the skill's URI; the server never sees the host's secrets.
func TestRemote(t *testing.T) {
	t.Setenv("SKILL_SECRET_KEY", "host-secret")
	envFile := filepath.Join(t.TempDir(), "env")
	r := &Remote{Command: []string{os.Args[0], "-test.run=^$"}, URI: SkillURI("pdf-forms"),
		Options: &Options{Env: map[string]string{"MCPSKILLS_FAKE_SERVER": envFile, "MCPSKILLS_HOST_PID": strconv.Itoa(os.Getpid())},
			Confine: &executor.Confinement{Work: []string{filepath.Dir(envFile)}}}}
	rec := r.Origin()
	if rec.Source != registry.SourceMCP || rec.Subdir != "skill://pdf-forms/SKILL.md" || !strings.HasPrefix(rec.URL, CommandPrefix) {
		t.Errorf("origin %+v", rec)
	}
	again, err := FromRecord(registry.Record{Name: "pdf-forms", Source: rec.Source, URL: rec.URL, Subdir: rec.Subdir}, [][]string{r.Command}, r.Options)
	if err != nil || !slices.Equal(again.Command, r.Command) || again.URI != r.URI {
		t.Fatalf("FromRecord: %+v %v", again, err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	version, err := r.Version(ctx)
	if err != nil {
		t.Fatal(err)
	}
	fsys, v2, err := r.Fetch(ctx, nil)
	if err != nil || v2 != version || !ValidDigest(version) {
		t.Fatalf("fetch: %v, versions %q %q", err, version, v2)
	}
	for rel, content := range twoSkills()["pdf-forms"] {
		f, err := fsys.Open(rel)
		if err != nil {
			t.Fatal(err)
		}
		buf := make([]byte, len(content)+1)
		n, _ := f.Read(buf)
		f.Close()
		if string(buf[:n]) != content {
			t.Errorf("%s = %q", rel, buf[:n])
		}
	}
	env, err := os.ReadFile(envFile)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(env), "host-secret") || !strings.Contains(string(env), "PATH=") || !strings.Contains(string(env), "HOST_PROC=hidden") {
		t.Errorf("the server's environment:\n%s", env)
	}
	// Limits are checked on the entry, before anything is read.
	if _, _, err := r.Fetch(ctx, &installer.Limits{MaxFileBytes: 4}); !errors.Is(err, installer.ErrLimit) {
		t.Errorf("over the limit: %v", err)
	}
	// The entry and total-bytes limits, one under what the skill holds
	// (zero would mean the default).
	files, total := 0, int64(0)
	fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			info, _ := d.Info()
			files, total = files+1, total+info.Size()
		}
		return err
	})
	if files < 2 {
		t.Fatalf("the test needs a skill of several files, got %d", files)
	}
	for name, lim := range map[string]*installer.Limits{"entries": {MaxEntries: files - 1}, "bytes": {MaxTotalBytes: total - 1}} {
		if _, _, err := r.Fetch(ctx, lim); !errors.Is(err, installer.ErrLimit) {
			t.Errorf("over the %s limit (%d files, %d bytes): %v", name, files, total, err)
		}
	}
	if _, err := (&Remote{Command: r.Command, URI: SkillURI("nope"), Options: r.Options}).Version(ctx); err == nil {
		t.Error("an unknown skill has a version")
	}
}

// A server started by Start lives no longer than its Lifetime: then it is
// stopped, and the connection with it.
func TestServerLifetime(t *testing.T) {
	envFile := filepath.Join(t.TempDir(), "env")
	c, err := Start(t.Context(), []string{os.Args[0], "-test.run=^$"}, &Options{Lifetime: time.Second,
		Env:     map[string]string{"MCPSKILLS_FAKE_SERVER": envFile},
		Confine: &executor.Confinement{Work: []string{filepath.Dir(envFile)}}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, _, err := c.List(t.Context()); err != nil {
		t.Fatalf("within its lifetime: %v", err)
	}
	time.Sleep(2 * time.Second)
	if _, _, err := c.List(t.Context()); !errors.Is(err, ErrClosed) {
		t.Errorf("after its lifetime: %v, want ErrClosed", err)
	}
}

// TestEntryOnlyWhatClientsAccept: a skill whose frontmatter Skills-extension
// clients reject (a description over 1,024 characters, metadata that is not
// a mapping of strings) gets no entry; an unquoted date in metadata is a
// string, as the specification reads YAML.
func TestEntryOnlyWhatClientsAccept(t *testing.T) {
	for name, tc := range map[string]struct {
		front string
		ok    bool
	}{
		"plain":                {"description: d\nmetadata:\n  author: ada\n", true},
		"date in metadata":     {"description: d\nmetadata:\n  updated: 2025-01-31\n", true},
		"1,024 characters":     {"description: " + strings.Repeat("é", 1024) + "\n", true},
		"1,025 characters":     {"description: " + strings.Repeat("é", 1025) + "\n", false},
		"nested metadata":      {"description: d\nmetadata:\n  openclaw: {requires: {bins: [git]}}\n", false},
		"number in metadata":   {"description: d\nmetadata:\n  version: 1.0\n", false},
		"metadata as a string": {"description: d\nmetadata: '{\"a\": \"b\"}'\n", false},
	} {
		t.Run(name, func(t *testing.T) {
			fsys := fstest.MapFS{"demo/SKILL.md": {Data: []byte("---\nname: demo\n" + tc.front + "---\nBody.\n")}}
			s, diags := skill.Load(fsys, "demo", nil)
			if s == nil {
				t.Fatal(diags)
			}
			_, err := Entry(s)
			if (err == nil) != tc.ok || err != nil && !errors.Is(err, ErrFrontmatter) {
				t.Errorf("Entry: %v, want ok %v", err, tc.ok)
			}
		})
	}
}

package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/skillkit-go/skillkit"
)

// A compute skill whose secrets are saved cannot run in a server started
// without SKILL_SECRET_KEY, as MCP clients start servers unless their
// configuration passes it: the server says so on its log and in its
// instructions, naming the skill and the variable. With the key, neither.
func TestServerSaysWhenComputeSkillsLackTheKey(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"notify/SKILL.md":          "---\nname: notify\ndescription: Send a notice.\n---\nRun it.\n",
		"notify/run.sh":            "echo '{}'\n",
		"notify/skill.config.yaml": "runtime: bash\nentrypoint: run.sh\nenv:\n  - {name: API_TOKEN, required: true}\n",
		"notes/SKILL.md":           "---\nname: notes\ndescription: Take notes.\n---\nWrite them down.\n",
	})
	key := "a-random-secret-of-32-bytes-0123456789"
	withKey := func(k string) string {
		if k == "SKILL_SECRET_KEY" {
			return key
		}
		return ""
	}
	kit, err := skillkit.Open(t.Context(), skillkit.Options{Dir: dir, Getenv: withKey})
	if err != nil {
		t.Fatal(err)
	}
	if err := kit.SaveSecrets(t.Context(), "notify", map[string]string{"API_TOKEN": "tok"}); err != nil {
		t.Fatal(err)
	}
	kit.Close()

	for _, tc := range []struct {
		name     string
		getenv   func(string) string
		withheld bool
	}{
		{"without the key", func(string) string { return "" }, true},
		{"with the key", withKey, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			instructions, log := serveOnce(t, dir, tc.getenv)
			note := "Note: the skills notify cannot run here: the server was started without the secret key (SKILL_SECRET_KEY)"
			line := "skillkit-mcp: compute skills withheld from execute_skill: notify: this server has no secret key"
			if strings.Contains(instructions, note) != tc.withheld || strings.Contains(log, line) != tc.withheld || strings.Contains(log, "notes:") {
				t.Errorf("instructions:\n%s\nlog:\n%s", instructions, log)
			}
			if !strings.Contains(instructions, "notes") {
				t.Errorf("the catalog is missing from the instructions:\n%s", instructions)
			}
		})
	}
}

// serveOnce runs skillkit-mcp on dir in this process, connects a client,
// and returns the server's instructions and log.
func serveOnce(t *testing.T, dir string, getenv func(string) string) (instructions, log string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	serverEnd, clientEnd := mcp.NewInMemoryTransports()
	var logBuf bytes.Buffer
	done := make(chan error, 1)
	go func() { done <- run(ctx, []string{"-dir", dir}, serverEnd, &logBuf, getenv) }()
	session, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, clientEnd, nil)
	if err != nil {
		t.Fatal(err)
	}
	instructions = session.InitializeResult().Instructions
	session.Close()
	if err := <-done; err != nil && ctx.Err() == nil {
		t.Logf("server ended: %v", err)
	}
	return instructions, logBuf.String()
}

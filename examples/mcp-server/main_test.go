package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestMain lets the test binary stand in for the mcp-server command: with
// SKILLKIT_MCP_SERVER_MAIN set it runs main with the arguments in
// SKILLKIT_MCP_SERVER_ARGS, so the tests can talk to it over real standard
// input and output without building it first.
func TestMain(m *testing.M) {
	if os.Getenv("SKILLKIT_MCP_SERVER_MAIN") == "1" {
		os.Args = append([]string{"mcp-server"}, strings.Fields(os.Getenv("SKILLKIT_MCP_SERVER_ARGS"))...)
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestStdio starts the command as an MCP client would (a child process
// speaking over its standard input and output) and calls a tool.
func TestStdio(t *testing.T) {
	skills, err := filepath.Abs("../skills")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), "SKILLKIT_MCP_SERVER_MAIN=1", "SKILLKIT_MCP_SERVER_ARGS=-skills "+skills)
	cmd.Dir = t.TempDir() // the flag, not the working directory, finds the skills
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	client := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "1"}, nil)
	cs, err := client.Connect(t.Context(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v\nstderr: %s", err, stderr.String())
	}
	init := cs.InitializeResult()
	if init.ServerInfo.Name != "skillkit-skills" || !strings.Contains(init.Instructions, `name="word-stats"`) {
		t.Errorf("server %+v, instructions %q: want skillkit-skills with the catalog", init.ServerInfo, init.Instructions)
	}
	list, err := cs.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range list.Tools {
		names = append(names, tool.Name)
	}
	if strings.Join(names, ",") != "execute_skill,read_skill,read_skill_file,skill_manage" {
		t.Errorf("tools %v", names)
	}
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "read_skill_file", Arguments: json.RawMessage(`{"name":"date-diff","path":"scripts/diff.js"}`)})
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("../skills/date-diff/scripts/diff.js")
	if err != nil {
		t.Fatal(err)
	}
	if res.IsError || len(res.Content) != 1 || res.Content[0].(*mcp.TextContent).Text != string(want) {
		t.Errorf("read_skill_file over stdio: %+v", res)
	}
	if err := cs.Close(); err != nil {
		t.Errorf("close: %v\nstderr: %s", err, stderr.String())
	}
	if cmd.ProcessState == nil || !cmd.ProcessState.Success() {
		t.Errorf("the server did not exit cleanly when the client closed: %v\nstderr: %s", cmd.ProcessState, stderr.String())
	}
}

func TestRunRefuses(t *testing.T) {
	for name, c := range map[string]struct {
		args []string
		want string
	}{
		"missing folder": {[]string{"-skills", filepath.Join(t.TempDir(), "none")}, "skills folder"},
		"empty folder":   {[]string{"-skills", t.TempDir()}, "no skill"},
		"extra argument": {[]string{"-skills", "../skills", "serve"}, "unexpected arguments"},
		"unknown flag":   {[]string{"-port", "80"}, "flag provided but not defined"},
	} {
		t.Run(name, func(t *testing.T) {
			var log bytes.Buffer
			serverSide, _ := mcp.NewInMemoryTransports()
			err := run(t.Context(), c.args, serverSide, &log)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("want an error mentioning %q, got %v", c.want, err)
			}
		})
	}
}

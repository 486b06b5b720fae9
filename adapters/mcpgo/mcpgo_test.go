package mcpgotools_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/skillkit-go/skillkit"
	mcpgotools "github.com/skillkit-go/skillkit/adapters/mcpgo"
	"github.com/skillkit-go/skillkit/tools"
)

// exampleTools opens the bundled example skills with a Kit and returns the
// tools of an agent that has a bash tool.
func exampleTools(t *testing.T) []tools.Tool {
	t.Helper()
	kit, err := skillkit.Open(t.Context(), skillkit.Options{Dir: "../../examples/skills"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = kit.Close() })
	ts, err := kit.Toolset(t.Context(), tools.Agent{Tools: []string{"bash"}})
	if err != nil {
		t.Fatal(err)
	}
	return ts.Tools
}

// needPython skips a test that runs the word-stats skill where python3 is
// missing, except in CI.
func needPython(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("python3"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("CI needs python3 for the word-stats skill")
		}
		t.Skip("python3 is not installed")
	}
}

// connect serves ts on an mcp-go server and returns an initialized
// in-process client.
func connect(t *testing.T, ts []tools.Tool, opts *mcpgotools.Options) *client.Client {
	t.Helper()
	srv := server.NewMCPServer("test", "1", server.WithToolCapabilities(false))
	if err := mcpgotools.Add(srv, ts, opts); err != nil {
		t.Fatal(err)
	}
	c, err := client.NewInProcessClient(srv)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	if err := c.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	init.Params.ClientInfo = mcp.Implementation{Name: "client", Version: "1"}
	if _, err := c.Initialize(t.Context(), init); err != nil {
		t.Fatal(err)
	}
	return c
}

func callTool(t *testing.T, c *client.Client, name, args string) (isError bool, text string) {
	t.Helper()
	req := mcp.CallToolRequest{}
	req.Params.Name = name
	req.Params.Arguments = json.RawMessage(args)
	res, err := c.CallTool(t.Context(), req)
	if err != nil {
		t.Fatalf("%s(%s): protocol error %v", name, args, err)
	}
	if len(res.Content) != 1 {
		t.Fatalf("%s: %d content blocks", name, len(res.Content))
	}
	tc, ok := mcp.AsTextContent(res.Content[0])
	if !ok {
		t.Fatalf("%s: %T is not text", name, res.Content[0])
	}
	return res.IsError, tc.Text
}

func TestListTools(t *testing.T) {
	list := exampleTools(t)
	c := connect(t, list, nil)
	res, err := c.ListTools(t.Context(), mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]mcp.Tool{}
	for _, tool := range res.Tools {
		byName[tool.Name] = tool
	}
	for _, want := range list {
		got, ok := byName[want.Name]
		if !ok {
			t.Errorf("%s is not listed", want.Name)
			continue
		}
		raw, err := json.Marshal(got)
		if err != nil {
			t.Fatal(err)
		}
		var wire struct {
			Description string          `json:"description"`
			InputSchema json.RawMessage `json:"inputSchema"`
			Annotations json.RawMessage `json:"annotations"`
		}
		if err := json.Unmarshal(raw, &wire); err != nil {
			t.Fatal(err)
		}
		var gotSchema, wantSchema any
		if err := json.Unmarshal(wire.InputSchema, &gotSchema); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(want.InputSchema, &wantSchema); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(wantSchema, gotSchema); diff != "" || wire.Description != want.Description {
			t.Errorf("%s: description %q, schema (-want +got):\n%s", want.Name, wire.Description, diff)
		}
		wantHints := map[string]string{
			tools.ReadSkillName:     `{"readOnlyHint":true,"openWorldHint":false}`,
			tools.ReadSkillFileName: `{"readOnlyHint":true,"openWorldHint":false}`,
			tools.ExecuteSkillName:  `{"readOnlyHint":false,"destructiveHint":false,"openWorldHint":true}`,
			tools.SkillManageName:   `{"readOnlyHint":false,"destructiveHint":true,"openWorldHint":false}`,
		}[want.Name]
		if string(wire.Annotations) != wantHints {
			t.Errorf("%s: annotations %s, want %s", want.Name, wire.Annotations, wantHints)
		}
	}
}

func TestCallTool(t *testing.T) {
	needPython(t)
	c := connect(t, exampleTools(t), nil)
	for _, tc := range []struct {
		tool, args string
		isError    bool
		want       string
	}{
		{tools.ReadSkillName, `{"name":"word-stats"}`, false, "# Word statistics"},
		{tools.ExecuteSkillName, `{"name":"word-stats","input":{"text":"to be or not to be","top":1}}`, false, `"words": 6`},
		{tools.ReadSkillName, `{"name":"no-such-skill"}`, true, "must be one of"},
		{tools.ExecuteSkillName, `{"name":"word-stats","input":{"top":"many"}}`, true, "execute_skill word-stats failed: executor: invalid input"},
		{tools.ReadSkillFileName, `{"name":"word-stats","path":"../date-diff/SKILL.md"}`, true, "not a path inside the skill folder"},
	} {
		isError, text := callTool(t, c, tc.tool, tc.args)
		if isError != tc.isError || !strings.Contains(text, tc.want) {
			t.Errorf("%s(%s): isError %v %q, want %v with %q", tc.tool, tc.args, isError, text, tc.isError, tc.want)
		}
	}
}

func TestHostError(t *testing.T) {
	disk := errors.New("disk on fire")
	c := connect(t, []tools.Tool{{
		Name:        "broken",
		InputSchema: json.RawMessage(`{"type":"object"}`),
		Invoke: func(context.Context, json.RawMessage) (tools.Result, error) {
			return tools.Result{}, disk
		},
	}}, nil)
	req := mcp.CallToolRequest{}
	req.Params.Name = "broken"
	if _, err := c.CallTool(t.Context(), req); err == nil || !strings.Contains(err.Error(), "disk on fire") {
		t.Errorf("a tool's Go error is a protocol error: %v", err)
	}
}

func TestRefuses(t *testing.T) {
	tool := func(name string) tools.Tool {
		return tools.Tool{Name: name, InputSchema: json.RawMessage(`{"type":"object"}`), Invoke: func(context.Context, json.RawMessage) (tools.Result, error) {
			return tools.Result{}, nil
		}}
	}
	if _, err := mcpgotools.ServerTools([]tools.Tool{tool(strings.Repeat("a", 129))}, nil); err == nil || !strings.Contains(err.Error(), "limit is 128") {
		t.Errorf("a name too long for MCP: %v", err)
	}
	if _, err := mcpgotools.ServerTools([]tools.Tool{tool("dotted.name"), tool(strings.Repeat("a", 128))}, nil); err != nil {
		t.Errorf("MCP names refused: %v", err)
	}
	if err := mcpgotools.Add(nil, nil, nil); err == nil {
		t.Error("Add without a server must fail")
	}
}

func TestConfirmation(t *testing.T) {
	list := tools.RequireConfirmation(exampleTools(t), tools.ExecuteSkillName)
	if _, err := mcpgotools.ServerTools(list, nil); err == nil || !strings.Contains(err.Error(), "Confirm") {
		t.Errorf("a tool that needs confirmation without Options.Confirm: %v", err)
	}
	var asked []string
	c := connect(t, list, &mcpgotools.Options{Confirm: func(_ context.Context, tool tools.Tool, args json.RawMessage) (bool, error) {
		asked = append(asked, tool.Name+" "+string(args))
		return false, nil
	}})
	isError, text := callTool(t, c, tools.ExecuteSkillName, `{"name":"word-stats","input":{"text":"x"}}`)
	if !isError || !strings.Contains(text, "the user did not confirm") {
		t.Errorf("declined call: %v %q", isError, text)
	}
	if len(asked) != 1 || !strings.HasPrefix(asked[0], "execute_skill ") {
		t.Errorf("asked %q", asked)
	}
}

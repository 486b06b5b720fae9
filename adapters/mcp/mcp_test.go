package mcptools_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/skillkit-go/skillkit"
	mcptools "github.com/skillkit-go/skillkit/adapters/mcp"
	"github.com/skillkit-go/skillkit/tools"
)

// exampleTools opens the bundled example skills with a Kit and returns the
// tools and catalog of an agent that has a bash tool.
func exampleTools(t *testing.T) tools.Toolset {
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
	return ts
}

// connect serves ts over the SDK's in-memory transport and returns a
// connected client session; clientOpts may give the client an elicitation
// handler.
func connect(t *testing.T, ts []tools.Tool, opts *mcp.ServerOptions, clientOpts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	server, err := mcptools.NewServer(&mcp.Implementation{Name: "test", Version: "1"}, ts, opts)
	if err != nil {
		t.Fatal(err)
	}
	return connectInMemory(t, server, mcp.NewClient(&mcp.Implementation{Name: "client", Version: "1"}, clientOpts))
}

// connectInMemory connects client to server over the SDK's in-memory
// transport; both sessions close when the test ends.
func connectInMemory(t *testing.T, server *mcp.Server, client *mcp.Client) *mcp.ClientSession {
	t.Helper()
	serverSide, clientSide := mcp.NewInMemoryTransports()
	ss, err := server.Connect(t.Context(), serverSide, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ss.Close() })
	cs, err := client.Connect(t.Context(), clientSide, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

func callTool(t *testing.T, cs *mcp.ClientSession, name, args string) *mcp.CallToolResult {
	t.Helper()
	params := &mcp.CallToolParams{Name: name}
	if args != "" {
		params.Arguments = json.RawMessage(args)
	}
	res, err := cs.CallTool(t.Context(), params)
	if err != nil {
		t.Fatalf("%s(%s): protocol error %v", name, args, err)
	}
	return res
}

func text(t *testing.T, res *mcp.CallToolResult) string {
	t.Helper()
	if len(res.Content) != 1 {
		t.Fatalf("want one content block, got %d", len(res.Content))
	}
	tc, ok := res.Content[0].(*mcp.TextContent)
	if !ok {
		t.Fatalf("want text content, got %T", res.Content[0])
	}
	return tc.Text
}

func TestListTools(t *testing.T) {
	set := exampleTools(t)
	cs := connect(t, set.Tools, &mcp.ServerOptions{Instructions: set.Prompt}, nil)
	if got := cs.InitializeResult().Instructions; got != set.Prompt || !strings.Contains(got, "<available_skills>") {
		t.Errorf("instructions: want the catalog, got %q", got)
	}
	list, err := cs.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Tools) != len(set.Tools) {
		t.Fatalf("listed %d tools, want %d", len(list.Tools), len(set.Tools))
	}
	byName := map[string]*mcp.Tool{}
	for _, tool := range list.Tools {
		byName[tool.Name] = tool
	}
	for _, want := range set.Tools {
		got, ok := byName[want.Name]
		if !ok {
			t.Errorf("%s is not listed", want.Name)
			continue
		}
		if got.Description != want.Description {
			t.Errorf("%s: description %q, want %q", want.Name, got.Description, want.Description)
		}
		var wantSchema any
		if err := json.Unmarshal(want.InputSchema, &wantSchema); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got.InputSchema, wantSchema) {
			t.Errorf("%s: schema\n%v\nwant\n%v", want.Name, got.InputSchema, wantSchema)
		}
		if diff := cmp.Diff(mcptools.Annotations(want), got.Annotations); diff != "" {
			t.Errorf("%s: annotations (-want +got):\n%s", want.Name, diff)
		}
	}
	// What a client reads on the wire: MCP takes an absent destructiveHint
	// or openWorldHint for true.
	hints := map[string]string{}
	for name, tool := range byName {
		raw, err := json.Marshal(tool.Annotations)
		if err != nil {
			t.Fatal(err)
		}
		hints[name] = string(raw)
	}
	if diff := cmp.Diff(map[string]string{
		tools.ReadSkillName:     `{"idempotentHint":false,"openWorldHint":false,"readOnlyHint":true}`,
		tools.ReadSkillFileName: `{"idempotentHint":false,"openWorldHint":false,"readOnlyHint":true}`,
		tools.ExecuteSkillName:  `{"destructiveHint":false,"idempotentHint":false,"openWorldHint":true,"readOnlyHint":false}`,
		tools.SkillManageName:   `{"destructiveHint":true,"idempotentHint":false,"openWorldHint":false,"readOnlyHint":false}`,
	}, hints); diff != "" {
		t.Errorf("annotations on the wire (-want +got):\n%s", diff)
	}
	for _, name := range []string{tools.ReadSkillName, tools.ReadSkillFileName, tools.ExecuteSkillName} {
		if byName[name] == nil {
			t.Errorf("%s is missing", name)
		}
	}
}

func TestCallReadSkill(t *testing.T) {
	cs := connect(t, exampleTools(t).Tools, nil, nil)
	res := callTool(t, cs, tools.ReadSkillName, `{"name":"release-notes"}`)
	if res.IsError {
		t.Fatalf("isError: %s", text(t, res))
	}
	body := text(t, res)
	for _, want := range []string{"# Release notes", "Group them into **Added**", "references/format.md"} {
		if !strings.Contains(body, want) {
			t.Errorf("read_skill text lacks %q:\n%s", want, body)
		}
	}
	structured, ok := res.StructuredContent.(map[string]any)
	if !ok || structured["name"] != "release-notes" {
		t.Errorf("structuredContent %#v, want the activation summary of release-notes", res.StructuredContent)
	}

	res = callTool(t, cs, tools.ReadSkillFileName, `{"name":"release-notes","path":"references/format.md"}`)
	want, err := os.ReadFile("../../examples/skills/release-notes/references/format.md")
	if err != nil {
		t.Fatal(err)
	}
	if res.IsError || text(t, res) != string(want) {
		t.Errorf("read_skill_file: isError %v, text %q, want the file", res.IsError, text(t, res))
	}
	if res.StructuredContent != nil {
		t.Errorf("read_skill_file has no structured result, got %#v", res.StructuredContent)
	}
}

func TestCallMistakes(t *testing.T) {
	cs := connect(t, exampleTools(t).Tools, nil, nil)
	for _, c := range []struct{ tool, args, want string }{
		{tools.ReadSkillName, `{"name":"no-such-skill"}`, "must be one of"},
		{tools.ReadSkillName, `{}`, "required"},
		{tools.ReadSkillName, ``, "required"},
		{tools.ReadSkillName, `{"name":"release-notes","extra":1}`, "extra"},
		{tools.ReadSkillFileName, `{"name":"release-notes","path":"../word-stats/SKILL.md"}`, "not a path inside the skill folder"},
		{tools.ReadSkillFileName, `{"name":"release-notes","path":"references/missing.md"}`, "references/format.md"},
		{tools.ExecuteSkillName, `{"name":"release-notes","input":{}}`, "name"},
	} {
		res := callTool(t, cs, c.tool, c.args)
		if !res.IsError || !strings.Contains(text(t, res), c.want) {
			t.Errorf("%s(%s): want isError mentioning %q, got isError=%v %q", c.tool, c.args, c.want, res.IsError, text(t, res))
		}
	}
	if _, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "no_such_tool", Arguments: map[string]any{}}); err == nil || !strings.Contains(err.Error(), "no_such_tool") {
		t.Errorf("an unknown tool must be a protocol error naming it, got %v", err)
	}
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

func TestExecuteSkill(t *testing.T) {
	needPython(t)
	cs := connect(t, exampleTools(t).Tools, nil, nil)
	res := callTool(t, cs, tools.ExecuteSkillName, `{"name":"word-stats","input":{"text":"to be or not to be","top":2}}`)
	if res.IsError {
		t.Fatalf("isError: %s", text(t, res))
	}
	var out struct {
		Words    int `json:"words"`
		TopWords []struct {
			Word  string `json:"word"`
			Count int    `json:"count"`
		} `json:"top_words"`
	}
	if err := json.Unmarshal([]byte(text(t, res)), &out); err != nil {
		t.Fatalf("output %q: %v", text(t, res), err)
	}
	if out.Words != 6 || len(out.TopWords) != 2 || out.TopWords[0].Count != 2 {
		t.Errorf("word-stats output %+v", out)
	}
	if s, ok := res.StructuredContent.(map[string]any); !ok || s["success"] != true || s["output"] == nil {
		t.Errorf("structuredContent %#v, want the execution outcome", res.StructuredContent)
	}

	res = callTool(t, cs, tools.ExecuteSkillName, `{"name":"word-stats","input":{"top":3}}`)
	if !res.IsError || !strings.Contains(text(t, res), "text") {
		t.Errorf("input without text: want isError about /text, got %v %q", res.IsError, text(t, res))
	}
}

// hostTool is a tool whose Invoke answers with res and err.
func hostTool(name string, res tools.Result, err error) tools.Tool {
	return tools.Tool{
		Name:        name,
		Description: "test tool",
		InputSchema: json.RawMessage(`{"type":"object"}`),
		Invoke: func(context.Context, json.RawMessage) (tools.Result, error) {
			return res, err
		},
	}
}

func TestHostErrors(t *testing.T) {
	cs := connect(t, []tools.Tool{
		hostTool("broken", tools.Result{}, errors.New("disk on fire")),
		hostTool("bad_structured", tools.Result{Text: "ok", Structured: json.RawMessage(`{"a":`)}, nil),
		hostTool("fine", tools.Result{Text: "ok", Structured: json.RawMessage(`[1,2]`)}, nil),
	}, nil, nil)
	for name, want := range map[string]string{"broken": "tools: broken: disk on fire", "bad_structured": "not valid JSON"} {
		res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: name, Arguments: map[string]any{}})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: want a protocol error mentioning %q, got %v (result %+v)", name, want, err, res)
		}
	}
	res := callTool(t, cs, "fine", `{}`)
	if res.IsError || text(t, res) != "ok" || !reflect.DeepEqual(res.StructuredContent, []any{1.0, 2.0}) {
		t.Errorf("fine: %+v", res)
	}
}

func TestCheck(t *testing.T) {
	good := hostTool("good", tools.Result{}, nil)
	withSchema := func(name, schema string) tools.Tool {
		tool := hostTool(name, tools.Result{}, nil)
		tool.InputSchema = json.RawMessage(schema)
		return tool
	}
	noInvoke := good
	noInvoke.Invoke = nil
	for name, c := range map[string]struct {
		tools []tools.Tool
		want  string
	}{
		"no name":        {[]tools.Tool{hostTool("", tools.Result{}, nil)}, "no name"},
		"bad character":  {[]tools.Tool{hostTool("read skill", tools.Result{}, nil)}, "' '"},
		"too long":       {[]tools.Tool{hostTool(strings.Repeat("a", 129), tools.Result{}, nil)}, "129 bytes long; the limit is 128"},
		"duplicate":      {[]tools.Tool{good, good}, "two tools"},
		"no invoke":      {[]tools.Tool{noInvoke}, "no Invoke"},
		"no schema":      {[]tools.Tool{withSchema("s", ``)}, "not a JSON object"},
		"array schema":   {[]tools.Tool{withSchema("s", `{"type":"array"}`)}, `must be "object"`},
		"untyped schema": {[]tools.Tool{withSchema("s", `{}`)}, `must be "object"`},
		"sdk refuses":    {[]tools.Tool{withSchema("s", `{"type":"object","properties":{"a":{"type":"array","x-mcp-header":"A"}}}`)}, "SDK refuses"},
	} {
		t.Run(name, func(t *testing.T) {
			server := mcp.NewServer(&mcp.Implementation{Name: "test"}, nil)
			err := mcptools.Add(server, append([]tools.Tool{hostTool("first", tools.Result{}, nil)}, c.tools...), nil)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("want an error mentioning %q, got %v", c.want, err)
			}
			serverSide, clientSide := mcp.NewInMemoryTransports()
			ss, err := server.Connect(t.Context(), serverSide, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer ss.Close()
			cs, err := mcp.NewClient(&mcp.Implementation{Name: "client"}, nil).Connect(t.Context(), clientSide, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			if caps := cs.InitializeResult().Capabilities; caps.Tools != nil {
				t.Errorf("a refused set must add no tool, not even the valid first one")
			}
		})
	}
	if err := mcptools.Check([]tools.Tool{good, withSchema("dotted.name-ok_1", `{"type":"object"}`)}); err != nil {
		t.Errorf("valid tools refused: %v", err)
	}
	if _, err := mcptools.NewServer(nil, nil, nil); err == nil {
		t.Error("NewServer without an implementation must fail")
	}
}

// TestConfirmation: when the host wants the user to confirm execute_skill,
// the server asks the client's user through elicitation before each call;
// only "accept" runs the skill, and a client that cannot elicit gets an
// isError result, never a call nobody confirmed.
func TestConfirmation(t *testing.T) {
	needPython(t)
	ts := tools.RequireConfirmation(exampleTools(t).Tools, tools.ExecuteSkillName)
	var asked []string
	answer := "decline"
	eliciting := connect(t, ts, nil, &mcp.ClientOptions{
		ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			asked = append(asked, req.Params.Message)
			return &mcp.ElicitResult{Action: answer}, nil
		},
	})
	const args = `{"name":"word-stats","input":{"text":"a b a"}}`
	for _, c := range []struct {
		answer  string
		isError bool
		want    string
	}{
		{"decline", true, "did not confirm"},
		{"cancel", true, "did not confirm"},
		{"accept", false, `"words": 3`},
	} {
		answer = c.answer
		res := callTool(t, eliciting, tools.ExecuteSkillName, args)
		if res.IsError != c.isError || !strings.Contains(text(t, res), c.want) {
			t.Errorf("%s: isError %v %q, want %v with %q", c.answer, res.IsError, text(t, res), c.isError, c.want)
		}
	}
	if len(asked) != 3 || !strings.Contains(asked[0], "execute_skill") || !strings.Contains(asked[0], "word-stats") {
		t.Errorf("asked %q: want each call asked about, naming the tool and its arguments", asked)
	}
	if res := callTool(t, eliciting, tools.ReadSkillName, `{"name":"word-stats"}`); res.IsError || len(asked) != 3 {
		t.Errorf("read_skill needs no confirmation: isError %v, asked %d times", res.IsError, len(asked))
	}

	plain := connect(t, ts, nil, nil)
	if res := callTool(t, plain, tools.ExecuteSkillName, args); !res.IsError || !strings.Contains(text(t, res), "did not confirm") {
		t.Errorf("a client that cannot elicit: isError %v %q, want the call refused", res.IsError, text(t, res))
	}
}

// TestConfirmationBound: a confirmation counts only for the call it was
// asked about; a client that replays it for other arguments is asked again
// and the skill does not run.
func TestConfirmationBound(t *testing.T) {
	ts := tools.RequireConfirmation(exampleTools(t).Tools, tools.ExecuteSkillName)
	cs := connect(t, ts, nil, &mcp.ClientOptions{
		MultiRoundTrip: &mcp.MultiRoundTripOptions{Disabled: true},
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			t.Error("the client answers by hand in this test")
			return nil, nil
		},
	})
	first, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: tools.ExecuteSkillName,
		Arguments: json.RawMessage(`{"name":"word-stats","input":{"text":"harmless"}}`)})
	if err != nil {
		t.Fatal(err)
	}
	if !first.NeedsInput() || first.RequestState == "" {
		t.Fatalf("want an input request, got %+v", first)
	}
	if _, ok := first.InputRequests["skillkit_confirm"].(*mcp.ElicitParams); !ok {
		t.Fatalf("want an elicitation, got %#v", first.InputRequests)
	}
	accept := mcp.InputResponseMap{"skillkit_confirm": &mcp.ElicitResult{Action: "accept"}}
	replay, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: tools.ExecuteSkillName,
		Arguments:      json.RawMessage(`{"name":"word-stats","input":{"text":"something else"}}`),
		InputResponses: accept, RequestState: first.RequestState})
	if err != nil {
		t.Fatal(err)
	}
	if !replay.NeedsInput() || len(replay.Content) != 0 {
		t.Errorf("a confirmation replayed for other arguments must be asked again, got %+v", replay)
	}
	unasked, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: tools.ExecuteSkillName,
		Arguments:      json.RawMessage(`{"name":"word-stats","input":{"text":"x"}}`),
		InputResponses: accept})
	if err != nil {
		t.Fatal(err)
	}
	if !unasked.NeedsInput() {
		t.Errorf("an answer sent before any question must be asked again, got %+v", unasked)
	}
}

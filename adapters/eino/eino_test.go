package einotools_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/cloudwego/eino/compose"
	"github.com/cloudwego/eino/schema"
	"github.com/google/go-cmp/cmp"
	"github.com/skillkit-go/skillkit"
	einotools "github.com/skillkit-go/skillkit/adapters/eino"
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

func decode(t *testing.T, raw []byte) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

func TestInfo(t *testing.T) {
	list := exampleTools(t)
	ts, err := einotools.New(list, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := ts.Tools()
	if len(got) != len(list) {
		t.Fatalf("%d tools, want %d", len(got), len(list))
	}
	for i, want := range list {
		info, err := got[i].Info(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		if info.Name != want.Name || info.Desc != want.Description {
			t.Errorf("tool %d: %s %q, want %s", i, info.Name, info.Desc, want.Name)
		}
		s, err := info.ToJSONSchema()
		if err != nil {
			t.Fatal(err)
		}
		raw, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(decode(t, want.InputSchema), decode(t, raw)); diff != "" {
			t.Errorf("%s: schema as Eino sends it (-want +got):\n%s", want.Name, diff)
		}
		hints := map[string]any{"read_only": want.ReadOnly, "destructive": want.Destructive, "open_world": want.OpenWorld, "needs_confirmation": false}
		if diff := cmp.Diff(hints, info.Extra); diff != "" {
			t.Errorf("%s: hints (-want +got):\n%s", want.Name, diff)
		}
	}
}

// TestToolsNode drives the tools through Eino's own ToolsNode, as a graph
// or a ReAct agent does: the model's mistakes come back as tool messages it
// can read, and never end the run.
func TestToolsNode(t *testing.T) {
	needPython(t)
	ts, err := einotools.New(exampleTools(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	node, err := compose.NewToolNode(t.Context(), ts.NodeConfig())
	if err != nil {
		t.Fatal(err)
	}
	call := func(id, name, args string) schema.ToolCall {
		return schema.ToolCall{ID: id, Type: "function", Function: schema.FunctionCall{Name: name, Arguments: args}}
	}
	msg := schema.AssistantMessage("", []schema.ToolCall{
		call("c1", tools.ReadSkillName, `{"name":"word-stats"}`),
		call("c2", tools.ExecuteSkillName, `{"name":"word-stats","input":{"text":"to be or not to be","top":1}}`),
		call("c3", tools.ExecuteSkillName, `{"name":"word-stats","input":{"top":"many"}}`),
		call("c4", tools.ReadSkillName, `{"name":"no-such-skill"}`),
		call("c5", tools.ReadSkillName, `{"name":`),
		call("c6", "delete_everything", `{}`),
	})
	out, err := node.Invoke(t.Context(), msg)
	if err != nil {
		t.Fatalf("a model's mistake must not end the run: %v", err)
	}
	want := []struct {
		id, prefix, holds string
	}{
		{"c1", "", "# Word statistics"},
		{"c2", "{", `"words": 6`},
		{"c3", "Error: ", "execute_skill word-stats failed: executor: invalid input"},
		{"c4", "Error: ", "must be one of"},
		{"c5", "Error: ", "not valid JSON"},
		{"c6", "Error: ", `there is no tool named "delete_everything"`},
	}
	if len(out) != len(want) {
		t.Fatalf("%d tool messages, want %d", len(out), len(want))
	}
	for i, w := range want {
		m := out[i]
		if m.Role != schema.Tool || m.ToolCallID != w.id || !strings.HasPrefix(m.Content, w.prefix) || !strings.Contains(m.Content, w.holds) {
			t.Errorf("message %d: %s %s %q, want the answer to %s starting %q holding %q", i, m.Role, m.ToolCallID, m.Content, w.id, w.prefix, w.holds)
		}
		if w.prefix != "Error: " && strings.HasPrefix(m.Content, "Error: ") {
			t.Errorf("message %d: an answer marked as an error: %q", i, m.Content)
		}
	}
}

func TestHostError(t *testing.T) {
	disk := errors.New("disk on fire")
	ts, err := einotools.New([]tools.Tool{{
		Name:        "broken",
		InputSchema: json.RawMessage(`{"type":"object"}`),
		Invoke: func(context.Context, json.RawMessage) (tools.Result, error) {
			return tools.Result{}, disk
		},
	}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	broken := ts.Tools()[0].(*einotools.Tool)
	if _, err := broken.InvokableRun(t.Context(), `{}`); !errors.Is(err, disk) {
		t.Errorf("a tool's Go error goes to the host: %v", err)
	}
	node, err := compose.NewToolNode(t.Context(), ts.NodeConfig())
	if err != nil {
		t.Fatal(err)
	}
	msg := schema.AssistantMessage("", []schema.ToolCall{{ID: "c", Type: "function", Function: schema.FunctionCall{Name: "broken", Arguments: "{}"}}})
	if _, err := node.Invoke(t.Context(), msg); err == nil || !strings.Contains(err.Error(), "disk on fire") {
		t.Errorf("through a ToolsNode: %v", err)
	}
}

func TestNewRefuses(t *testing.T) {
	tool := func(name, schema string) tools.Tool {
		return tools.Tool{Name: name, InputSchema: json.RawMessage(schema), Invoke: func(context.Context, json.RawMessage) (tools.Result, error) {
			return tools.Result{}, nil
		}}
	}
	for name, c := range map[string]struct {
		tool tools.Tool
		want string
	}{
		"dotted name":     {tool("read.skill", `{"type":"object"}`), "'.'"},
		"array schema":    {tool("a", `{"type":"array"}`), `must be "object"`},
		"unknown keyword": {tool("a", `{"type":"object","x-order":["a"]}`), "would change the input schema"},
	} {
		if _, err := einotools.New([]tools.Tool{c.tool}, nil); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: want an error mentioning %q, got %v", name, c.want, err)
		}
	}
}

// TestConfirmation: a tool that needs the user's confirmation runs only
// after Options.Confirm says yes; Eino has no hint the model would honour.
func TestConfirmation(t *testing.T) {
	list := tools.RequireConfirmation(exampleTools(t), tools.ExecuteSkillName)
	if _, err := einotools.New(list, nil); err == nil || !strings.Contains(err.Error(), "Confirm") {
		t.Errorf("a tool that needs confirmation without Options.Confirm: %v", err)
	}
	var asked []string
	ts, err := einotools.New(list, &einotools.Options{Confirm: func(_ context.Context, tool tools.Tool, args json.RawMessage) (bool, error) {
		asked = append(asked, tool.Name+" "+string(args))
		return false, nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	for _, bt := range ts.Tools() {
		info, err := bt.Info(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		if info.Name != tools.ExecuteSkillName {
			continue
		}
		if info.Extra["needs_confirmation"] != true {
			t.Errorf("hints %v", info.Extra)
		}
		got, err := bt.(*einotools.Tool).InvokableRun(t.Context(), `{"name":"word-stats","input":{"text":"x"}}`)
		if err != nil || !strings.HasPrefix(got, "Error: the user did not confirm") {
			t.Errorf("declined call: %q, %v", got, err)
		}
	}
	if len(asked) != 1 || asked[0] != `execute_skill {"name":"word-stats","input":{"text":"x"}}` {
		t.Errorf("asked %q: want one question, about execute_skill and its arguments", asked)
	}
}

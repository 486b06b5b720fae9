package openaitools_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"reflect"
	"strings"
	"testing"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"
	"github.com/skillkit-go/skillkit"
	openaitools "github.com/skillkit-go/skillkit/adapters/openai"
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

func exampleToolset(t *testing.T) (*openaitools.Toolset, []tools.Tool) {
	t.Helper()
	list := exampleTools(t)
	ts, err := openaitools.New(list, nil)
	if err != nil {
		t.Fatal(err)
	}
	return ts, list
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

// roundTrip marshals v as the SDK sends it and decodes it as plain JSON.
func roundTrip(t *testing.T, v any) any {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func decode(t *testing.T, raw json.RawMessage) any {
	t.Helper()
	var out any
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestChatTools(t *testing.T) {
	ts, src := exampleToolset(t)
	got := roundTrip(t, ts.ChatTools()).([]any)
	if len(got) != len(src) {
		t.Fatalf("%d tools, want %d", len(got), len(src))
	}
	for i, want := range src {
		wire := map[string]any{
			"type": "function",
			"function": map[string]any{
				"name":        want.Name,
				"description": want.Description,
				"parameters":  decode(t, want.InputSchema),
			},
		}
		if !reflect.DeepEqual(got[i], wire) {
			t.Errorf("tool %d:\n%v\nwant\n%v", i, got[i], wire)
		}
	}
	// Each call hands out its own schema maps.
	first := ts.ChatTools()
	first[0].OfFunction.Function.Parameters["type"] = "changed"
	if ts.ChatTools()[0].OfFunction.Function.Parameters["type"] != "object" {
		t.Error("changing a returned schema changed the toolset")
	}
}

func TestResponsesTools(t *testing.T) {
	ts, src := exampleToolset(t)
	got := roundTrip(t, ts.ResponsesTools()).([]any)
	if len(got) != len(src) {
		t.Fatalf("%d tools, want %d", len(got), len(src))
	}
	for i, want := range src {
		wire := map[string]any{
			"type":        "function",
			"name":        want.Name,
			"description": want.Description,
			"parameters":  decode(t, want.InputSchema),
			"strict":      false,
		}
		if !reflect.DeepEqual(got[i], wire) {
			t.Errorf("tool %d:\n%v\nwant\n%v", i, got[i], wire)
		}
	}
}

// assistant decodes an assistant message as the API returns it.
func assistant(t *testing.T, calls string) openai.ChatCompletionMessage {
	t.Helper()
	var msg openai.ChatCompletionMessage
	if err := json.Unmarshal([]byte(`{"role":"assistant","content":null,"refusal":null,"tool_calls":`+calls+`}`), &msg); err != nil {
		t.Fatal(err)
	}
	return msg
}

func TestChatToolMessages(t *testing.T) {
	needPython(t)
	ts, _ := exampleToolset(t)
	msg := assistant(t, `[
		{"id":"call_1","type":"function","function":{"name":"read_skill","arguments":"{\"name\":\"release-notes\"}"}},
		{"id":"call_2","type":"function","function":{"name":"read_skill_file","arguments":"{\"name\":\"release-notes\",\"path\":\"references/format.md\"}"}},
		{"id":"call_3","type":"function","function":{"name":"delete_everything","arguments":"{}"}},
		{"id":"call_4","type":"function","function":{"name":"read_skill","arguments":"{\"name\": \"release-"}},
		{"id":"call_5","type":"function","function":{"name":"read_skill","arguments":""}},
		{"id":"call_6","type":"function","function":{"name":"read_skill","arguments":"{\"name\":\"nope\"}"}},
		{"id":"call_7","type":"custom","custom":{"name":"grammar_tool","input":"x"}},
		{"id":"call_8","type":"function","function":{"name":"execute_skill","arguments":"{\"name\":\"word-stats\",\"input\":{\"text\":\"to be or not to be\",\"top\":1}}"}},
		{"id":"call_9","type":"function","function":{"name":"execute_skill","arguments":"{\"name\":\"word-stats\",\"input\":{\"top\":\"many\"}}"}},
		{"id":"call_10","type":"function","function":{"name":"execute_skill","arguments":"{\"name\":\"no-such-skill\",\"input\":{}}"}}
	]`)
	format, err := os.ReadFile("../../examples/skills/release-notes/references/format.md")
	if err != nil {
		t.Fatal(err)
	}
	msgs, err := ts.ChatToolMessages(t.Context(), msg)
	if err != nil {
		t.Fatal(err)
	}
	if len(msgs) != 10 {
		t.Fatalf("%d tool messages, want 10", len(msgs))
	}
	for i, c := range []struct {
		ok   bool
		want string
	}{
		{true, "# Release notes"},
		{true, string(format)},
		{false, `there is no tool named "delete_everything"; the tools are: read_skill, read_skill_file, execute_skill`},
		{false, "the arguments for read_skill are not valid JSON"},
		{false, "required"},
		{false, "must be one of"},
		{false, `"grammar_tool" is a custom tool call; only function tools are offered`},
		{true, `"words": 6`},
		{false, "execute_skill word-stats failed: executor: invalid input"},
		{false, "at /name"},
	} {
		wire := roundTrip(t, msgs[i]).(map[string]any)
		content, _ := wire["content"].(string)
		if wire["role"] != "tool" || wire["tool_call_id"] != msg.ToolCalls[i].ID {
			t.Errorf("message %d: %v is not the tool message for %s", i, wire, msg.ToolCalls[i].ID)
		}
		if c.ok && (strings.HasPrefix(content, tools.ErrorPrefix) || !strings.Contains(content, c.want)) {
			t.Errorf("message %d: want a result holding %q, got %q", i, c.want, content)
		}
		if !c.ok && (!strings.HasPrefix(content, tools.ErrorPrefix) || !strings.Contains(content, c.want)) {
			t.Errorf("message %d: want an error mentioning %q, got %q", i, c.want, content)
		}
	}

	none, err := ts.ChatToolMessages(t.Context(), assistant(t, `[]`))
	if err != nil || len(none) != 0 {
		t.Errorf("a message without tool calls: %v, %v", none, err)
	}
}

func TestResponsesOutputs(t *testing.T) {
	ts, _ := exampleToolset(t)
	var resp responses.Response
	if err := json.Unmarshal([]byte(`{"id":"resp_1","object":"response","status":"completed","output":[
		{"type":"message","id":"msg_1","role":"assistant","status":"completed","content":[{"type":"output_text","text":"Let me look.","annotations":[]}]},
		{"type":"function_call","id":"fc_1","call_id":"call_a","name":"read_skill","arguments":"{\"name\":\"word-stats\"}","status":"completed"},
		{"type":"function_call","id":"fc_2","call_id":"call_b","name":"read_skill","arguments":"not json","status":"completed"}
	]}`), &resp); err != nil {
		t.Fatal(err)
	}
	items, err := ts.ResponsesOutputs(t.Context(), &resp)
	if err != nil {
		t.Fatal(err)
	}
	if len(items) != 2 {
		t.Fatalf("%d items, want one per function call", len(items))
	}
	for i, c := range []struct{ callID, want string }{
		{"call_a", "# Word statistics"},
		{"call_b", tools.ErrorPrefix + "the arguments for read_skill are not valid JSON"},
	} {
		wire := roundTrip(t, items[i]).(map[string]any)
		output, _ := wire["output"].(string)
		if wire["type"] != "function_call_output" || wire["call_id"] != c.callID || !strings.Contains(output, c.want) {
			t.Errorf("item %d: %v, want the output for %s holding %q", i, wire, c.callID, c.want)
		}
	}
}

func TestHostError(t *testing.T) {
	disk := errors.New("disk on fire")
	ts, err := openaitools.New([]tools.Tool{{
		Name:        "broken",
		InputSchema: json.RawMessage(`{"type":"object"}`),
		Invoke: func(context.Context, json.RawMessage) (tools.Result, error) {
			return tools.Result{}, disk
		},
	}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = ts.ChatToolMessages(t.Context(), assistant(t, `[{"id":"c","type":"function","function":{"name":"broken","arguments":"{}"}}]`))
	if !errors.Is(err, disk) || !strings.Contains(err.Error(), "broken") {
		t.Errorf("chat: want the tool's error with its name, got %v", err)
	}
	_, err = ts.ResponsesOutput(t.Context(), responses.ResponseFunctionToolCall{CallID: "c", Name: "broken", Arguments: "{}"})
	if !errors.Is(err, disk) {
		t.Errorf("responses: want the tool's error, got %v", err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	real, _ := exampleToolset(t)
	if _, err := real.Call(ctx, tools.ReadSkillName, `{"name":"word-stats"}`); !errors.Is(err, context.Canceled) {
		t.Errorf("a cancelled context must reach the host, got %v", err)
	}
}

func TestNewRefuses(t *testing.T) {
	tool := func(name, schema string) tools.Tool {
		return tools.Tool{Name: name, InputSchema: json.RawMessage(schema), Invoke: func(context.Context, json.RawMessage) (tools.Result, error) {
			return tools.Result{}, nil
		}}
	}
	noInvoke := tool("x", `{"type":"object"}`)
	noInvoke.Invoke = nil
	for name, c := range map[string]struct {
		tools []tools.Tool
		want  string
	}{
		"no name":      {[]tools.Tool{tool("", `{"type":"object"}`)}, "no name"},
		"dotted name":  {[]tools.Tool{tool("read.skill", `{"type":"object"}`)}, "'.'"},
		"long name":    {[]tools.Tool{tool(strings.Repeat("a", 65), `{"type":"object"}`)}, "65 bytes"},
		"duplicate":    {[]tools.Tool{tool("a", `{"type":"object"}`), tool("a", `{"type":"object"}`)}, "two tools"},
		"no invoke":    {[]tools.Tool{noInvoke}, "no Invoke"},
		"no schema":    {[]tools.Tool{tool("a", ``)}, "not a JSON object"},
		"null schema":  {[]tools.Tool{tool("a", `null`)}, "not a JSON object"},
		"array schema": {[]tools.Tool{tool("a", `{"type":"array"}`)}, `must be "object"`},
	} {
		if _, err := openaitools.New(c.tools, nil); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: want an error mentioning %q, got %v", name, c.want, err)
		}
	}
	if _, err := openaitools.New([]tools.Tool{tool(strings.Repeat("a", 64), `{"type":"object"}`), tool("b-1_", `{"type":"object"}`)}, nil); err != nil {
		t.Errorf("valid tools refused: %v", err)
	}
}

// TestConfirmation: OpenAI has no hint for a tool that needs the user's
// confirmation, so the Toolset asks through Options.Confirm before the call
// runs, and refuses to be built without it.
func TestConfirmation(t *testing.T) {
	list := tools.RequireConfirmation(exampleTools(t), tools.ExecuteSkillName)
	if _, err := openaitools.New(list, nil); err == nil || !strings.Contains(err.Error(), "Confirm") {
		t.Errorf("a tool that needs confirmation without Options.Confirm: %v", err)
	}
	var asked []string
	ts, err := openaitools.New(list, &openaitools.Options{Confirm: func(_ context.Context, tool tools.Tool, args json.RawMessage) (bool, error) {
		asked = append(asked, tool.Name+" "+string(args))
		return false, nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	msgs, err := ts.ChatToolMessages(t.Context(), assistant(t, `[
		{"id":"c1","type":"function","function":{"name":"execute_skill","arguments":"{\"name\":\"word-stats\",\"input\":{\"text\":\"x\"}}"}},
		{"id":"c2","type":"function","function":{"name":"read_skill","arguments":"{\"name\":\"word-stats\"}"}}
	]`))
	if err != nil {
		t.Fatal(err)
	}
	declined, _ := roundTrip(t, msgs[0]).(map[string]any)["content"].(string)
	if !strings.HasPrefix(declined, tools.ErrorPrefix+"the user did not confirm") {
		t.Errorf("declined call: %q", declined)
	}
	if len(asked) != 1 || asked[0] != `execute_skill {"name":"word-stats","input":{"text":"x"}}` {
		t.Errorf("asked %q: want one question, about execute_skill and its arguments", asked)
	}
}

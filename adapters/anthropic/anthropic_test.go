package anthropictools_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"reflect"
	"strings"
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/skillkit-go/skillkit"
	anthropictools "github.com/skillkit-go/skillkit/adapters/anthropic"
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

func exampleToolset(t *testing.T) (*anthropictools.Toolset, []tools.Tool) {
	t.Helper()
	list := exampleTools(t)
	ts, err := anthropictools.New(list, nil)
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

func decode(t *testing.T, raw string) any {
	t.Helper()
	var out any
	if err := json.Unmarshal([]byte(raw), &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestTools(t *testing.T) {
	ts, src := exampleToolset(t)
	got := roundTrip(t, ts.Tools()).([]any)
	if len(got) != len(src) {
		t.Fatalf("%d tools, want %d", len(got), len(src))
	}
	for i, want := range src {
		wire := map[string]any{
			"name":         want.Name,
			"description":  want.Description,
			"input_schema": decode(t, string(want.InputSchema)),
		}
		if !reflect.DeepEqual(got[i], wire) {
			t.Errorf("tool %d:\n%v\nwant\n%v", i, got[i], wire)
		}
	}
}

// TestToolsKeepsEveryKeyword checks that keywords the SDK has no field for
// reach the API unchanged.
func TestToolsKeepsEveryKeyword(t *testing.T) {
	schema := `{"type":"object","$defs":{"n":{"type":"integer","minimum":1}},"properties":{"n":{"$ref":"#/$defs/n"}},"required":["n"],"additionalProperties":false,"description":"counts"}`
	ts, err := anthropictools.New([]tools.Tool{{
		Name:        "count",
		InputSchema: json.RawMessage(schema),
		Invoke:      func(context.Context, json.RawMessage) (tools.Result, error) { return tools.Result{}, nil },
	}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := roundTrip(t, ts.Tools()).([]any)[0]
	want := map[string]any{"name": "count", "input_schema": decode(t, schema)}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got\n%v\nwant\n%v", got, want)
	}
	// Each call hands out its own schema values.
	first := ts.Tools()
	first[0].OfTool.InputSchema.ExtraFields["additionalProperties"] = true
	if ts.Tools()[0].OfTool.InputSchema.ExtraFields["additionalProperties"] != false {
		t.Error("changing a returned schema changed the toolset")
	}
}

// message decodes an assistant message as the API returns it.
func message(t *testing.T, content string) *anthropic.Message {
	t.Helper()
	var msg anthropic.Message
	if err := json.Unmarshal([]byte(`{"id":"msg_1","type":"message","role":"assistant","model":"m","stop_reason":"tool_use","stop_sequence":null,
		"usage":{"input_tokens":1,"output_tokens":1},"content":`+content+`}`), &msg); err != nil {
		t.Fatal(err)
	}
	return &msg
}

func TestToolResults(t *testing.T) {
	needPython(t)
	ts, _ := exampleToolset(t)
	msg := message(t, `[
		{"type":"text","text":"Let me read the skill."},
		{"type":"tool_use","id":"toolu_1","name":"read_skill","input":{"name":"release-notes"}},
		{"type":"tool_use","id":"toolu_2","name":"read_skill_file","input":{"name":"release-notes","path":"references/format.md"}},
		{"type":"tool_use","id":"toolu_3","name":"delete_everything","input":{}},
		{"type":"tool_use","id":"toolu_4","name":"read_skill","input":{"name":"nope"}},
		{"type":"tool_use","id":"toolu_5","name":"read_skill_file","input":{"name":"release-notes","path":"/etc/passwd"}},
		{"type":"server_tool_use","id":"srvtoolu_1","name":"web_search","input":{"query":"x"}},
		{"type":"tool_use","id":"toolu_6","name":"execute_skill","input":{"name":"word-stats","input":{"text":"to be or not to be","top":1}}},
		{"type":"tool_use","id":"toolu_7","name":"execute_skill","input":{"name":"word-stats","input":{"top":"many"}}},
		{"type":"tool_use","id":"toolu_8","name":"execute_skill","input":{"name":"no-such-skill","input":{}}}
	]`)
	format, err := os.ReadFile("../../examples/skills/release-notes/references/format.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks, err := ts.ToolResults(t.Context(), msg)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		id      string
		isError bool
		want    string
	}{
		{"toolu_1", false, "# Release notes"},
		{"toolu_2", false, string(format)},
		{"toolu_3", true, `there is no tool named "delete_everything"; the tools are: read_skill, read_skill_file, execute_skill`},
		{"toolu_4", true, "must be one of"},
		{"toolu_5", true, "not a path inside the skill folder"},
		{"toolu_6", false, `"words": 6`},
		{"toolu_7", true, "execute_skill word-stats failed: executor: invalid input"},
		{"toolu_8", true, "at /name"},
	}
	if len(blocks) != len(cases) {
		t.Fatalf("%d tool_result blocks, want one per tool_use block: %v", len(blocks), roundTrip(t, blocks))
	}
	for i, c := range cases {
		wire := roundTrip(t, blocks[i]).(map[string]any)
		content, _ := wire["content"].([]any)
		text := ""
		if len(content) == 1 {
			text, _ = content[0].(map[string]any)["text"].(string)
		}
		if wire["type"] != "tool_result" || wire["tool_use_id"] != c.id || wire["is_error"] != c.isError || !strings.Contains(text, c.want) {
			t.Errorf("block %d: %v\nwant the result of %s, is_error %v, holding %q", i, wire, c.id, c.isError, c.want)
		}
	}

	none, err := ts.ToolResults(t.Context(), message(t, `[{"type":"text","text":"Done."}]`))
	if err != nil || len(none) != 0 {
		t.Errorf("a message without tool_use: %v, %v", none, err)
	}
}

func TestCallInput(t *testing.T) {
	ts, _ := exampleToolset(t)
	for input, want := range map[string]string{
		``:             "required",
		`{"name":`:     "are not valid JSON",
		`[1]`:          "invalid arguments",
		`"read_skill"`: "invalid arguments",
	} {
		res, err := ts.Call(t.Context(), tools.ReadSkillName, json.RawMessage(input))
		if err != nil || !res.IsError || !strings.Contains(res.Text, want) {
			t.Errorf("input %q: want an error result mentioning %q, got %+v, %v", input, want, res, err)
		}
	}
}

func TestResultBlock(t *testing.T) {
	for _, c := range []struct {
		res  tools.Result
		want string
	}{
		{tools.Result{Text: "ok"}, `{"type":"tool_result","tool_use_id":"t1","is_error":false,"content":[{"type":"text","text":"ok"}]}`},
		{tools.Result{Text: "bad", IsError: true}, `{"type":"tool_result","tool_use_id":"t1","is_error":true,"content":[{"type":"text","text":"bad"}]}`},
		{tools.Result{}, `{"type":"tool_result","tool_use_id":"t1","is_error":false}`},
		{tools.Result{IsError: true, Structured: json.RawMessage(`{"a":1}`)}, `{"type":"tool_result","tool_use_id":"t1","is_error":true}`},
	} {
		got := roundTrip(t, anthropictools.ResultBlock("t1", c.res))
		if !reflect.DeepEqual(got, decode(t, c.want)) {
			t.Errorf("%+v: got %v, want %s", c.res, got, c.want)
		}
	}
}

func TestHostError(t *testing.T) {
	disk := errors.New("disk on fire")
	ts, err := anthropictools.New([]tools.Tool{{
		Name:        "broken",
		InputSchema: json.RawMessage(`{"type":"object"}`),
		Invoke: func(context.Context, json.RawMessage) (tools.Result, error) {
			return tools.Result{}, disk
		},
	}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = ts.ToolResults(t.Context(), message(t, `[{"type":"tool_use","id":"t","name":"broken","input":{}}]`))
	if !errors.Is(err, disk) || !strings.Contains(err.Error(), "broken") {
		t.Errorf("want the tool's error with its name, got %v", err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	real, _ := exampleToolset(t)
	if _, err := real.Call(ctx, tools.ReadSkillName, json.RawMessage(`{"name":"word-stats"}`)); !errors.Is(err, context.Canceled) {
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
		"no name":        {[]tools.Tool{tool("", `{"type":"object"}`)}, "no name"},
		"dotted name":    {[]tools.Tool{tool("read.skill", `{"type":"object"}`)}, "'.'"},
		"long name":      {[]tools.Tool{tool(strings.Repeat("a", 65), `{"type":"object"}`)}, "65 bytes"},
		"duplicate":      {[]tools.Tool{tool("a", `{"type":"object"}`), tool("a", `{"type":"object"}`)}, "two tools"},
		"no invoke":      {[]tools.Tool{noInvoke}, "no Invoke"},
		"no schema":      {[]tools.Tool{tool("a", ``)}, "not a JSON object"},
		"array schema":   {[]tools.Tool{tool("a", `{"type":"array"}`)}, `must be "object"`},
		"bad required":   {[]tools.Tool{tool("a", `{"type":"object","required":"n"}`)}, "list of property names"},
		"typed as array": {[]tools.Tool{tool("a", `{"type":["object"]}`)}, `must be "object"`},
	} {
		if _, err := anthropictools.New(c.tools, nil); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: want an error mentioning %q, got %v", name, c.want, err)
		}
	}
	if _, err := anthropictools.New([]tools.Tool{tool(strings.Repeat("a", 64), `{"type":"object"}`), tool("b-1_", `{"type":"object"}`)}, nil); err != nil {
		t.Errorf("valid tools refused: %v", err)
	}
}

// TestConfirmation: Anthropic has no hint for a tool that needs the user's
// confirmation, so the Toolset asks through Options.Confirm before the call
// runs, and refuses to be built without it.
func TestConfirmation(t *testing.T) {
	list := tools.RequireConfirmation(exampleTools(t), tools.ExecuteSkillName)
	if _, err := anthropictools.New(list, nil); err == nil || !strings.Contains(err.Error(), "Confirm") {
		t.Errorf("a tool that needs confirmation without Options.Confirm: %v", err)
	}
	var asked []string
	ts, err := anthropictools.New(list, &anthropictools.Options{Confirm: func(_ context.Context, tool tools.Tool, args json.RawMessage) (bool, error) {
		asked = append(asked, tool.Name+" "+string(args))
		return false, nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	blocks, err := ts.ToolResults(t.Context(), message(t, `[
		{"type":"tool_use","id":"t1","name":"execute_skill","input":{"name":"word-stats","input":{"text":"x"}}},
		{"type":"tool_use","id":"t2","name":"read_skill","input":{"name":"word-stats"}}
	]`))
	if err != nil {
		t.Fatal(err)
	}
	wire := roundTrip(t, blocks[0]).(map[string]any)
	if wire["is_error"] != true || !strings.Contains(fmt.Sprint(wire["content"]), "the user did not confirm") {
		t.Errorf("declined call: %v", wire)
	}
	if len(asked) != 1 || asked[0] != `execute_skill {"name":"word-stats","input":{"text":"x"}}` {
		t.Errorf("asked %q: want one question, about execute_skill and its arguments", asked)
	}
}

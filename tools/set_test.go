package tools_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/skillkit-go/skillkit/executor"
	"github.com/skillkit-go/skillkit/tools"
)

// TestBuiltinHints pins the hints every adapter maps to its framework:
// reading is read-only, skill_manage destructive, execute_skill open-world,
// and none needs confirmation unless the host says so.
func TestBuiltinHints(t *testing.T) {
	skills := exampleSkills(t, "word-stats")
	read, err := tools.ReadSkill(skills, []string{"word-stats"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	readFile, err := tools.ReadSkillFile(skills, []string{"word-stats"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	exec, err := tools.ExecuteSkill(executor.New(skills, nil, nil), []string{"word-stats"})
	if err != nil {
		t.Fatal(err)
	}
	manage, err := tools.SkillManage(failingManager{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	type hints struct{ ReadOnly, Destructive, OpenWorld, NeedsConfirmation bool }
	got := map[string]hints{}
	for _, tool := range []tools.Tool{read, readFile, exec, manage} {
		got[tool.Name] = hints{tool.ReadOnly, tool.Destructive, tool.OpenWorld, tool.NeedsConfirmation}
	}
	want := map[string]hints{
		tools.ReadSkillName:     {ReadOnly: true},
		tools.ReadSkillFileName: {ReadOnly: true},
		tools.ExecuteSkillName:  {OpenWorld: true},
		tools.SkillManageName:   {Destructive: true},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("hints (-want +got):\n%s", diff)
	}
	raw, err := json.Marshal(exec)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(raw), `"read_only":false,"destructive":false,"open_world":true,"needs_confirmation":false`) {
		t.Errorf("JSON of execute_skill: %s", raw)
	}
}

// echoTool answers with its arguments and counts its calls.
func echoTool(name string, calls *int) tools.Tool {
	return tools.Tool{
		Name:        name,
		Description: "Echoes its arguments.",
		InputSchema: json.RawMessage(`{"type":"object"}`),
		Invoke: func(_ context.Context, args json.RawMessage) (tools.Result, error) {
			*calls++
			return tools.Result{Text: string(args)}, nil
		},
	}
}

func TestNewSetRefuses(t *testing.T) {
	var n int
	good := echoTool("good", &n)
	with := func(change func(*tools.Tool)) tools.Tool {
		tool := echoTool("t", &n)
		change(&tool)
		return tool
	}
	for name, c := range map[string]struct {
		tools []tools.Tool
		opts  *tools.SetOptions
		want  string
	}{
		"no name":        {[]tools.Tool{echoTool("", &n)}, nil, "no name"},
		"space":          {[]tools.Tool{echoTool("read skill", &n)}, nil, "' '"},
		"dot by default": {[]tools.Tool{echoTool("a.b", &n)}, nil, "'.'"},
		"too long":       {[]tools.Tool{echoTool(strings.Repeat("a", 65), &n)}, nil, "65 bytes long; the limit is 64"},
		"too long (MCP)": {[]tools.Tool{echoTool(strings.Repeat("a", 129), &n)}, &tools.SetOptions{MaxNameLength: 128, NameSymbols: "."}, "limit is 128"},
		"duplicate":      {[]tools.Tool{good, good}, nil, "two tools"},
		"no invoke":      {[]tools.Tool{with(func(t *tools.Tool) { t.Invoke = nil })}, nil, "no Invoke"},
		"no schema":      {[]tools.Tool{with(func(t *tools.Tool) { t.InputSchema = nil })}, nil, "not a JSON object"},
		"array schema":   {[]tools.Tool{with(func(t *tools.Tool) { t.InputSchema = json.RawMessage(`{"type":"array"}`) })}, nil, `must be "object"`},
		"untyped schema": {[]tools.Tool{with(func(t *tools.Tool) { t.InputSchema = json.RawMessage(`{}`) })}, nil, `must be "object"`},
		"no confirm":     {tools.RequireConfirmation([]tools.Tool{good}, "good"), nil, "SetOptions.Confirm is nil"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := tools.NewSet(c.tools, c.opts)
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "tools: ") {
				t.Errorf("want an error mentioning %q, got %v", c.want, err)
			}
		})
	}
	set, err := tools.NewSet([]tools.Tool{good, echoTool("dotted.name-ok_1", &n), echoTool(strings.Repeat("a", 128), &n)}, &tools.SetOptions{MaxNameLength: 128, NameSymbols: "."})
	if err != nil {
		t.Fatalf("valid MCP names refused: %v", err)
	}
	if got := len(set.Tools()); got != 3 {
		t.Errorf("%d tools", got)
	}
}

func TestSetCall(t *testing.T) {
	var echoed, guarded int
	disk := errors.New("disk on fire")
	broken := echoTool("broken", new(int))
	broken.Invoke = func(context.Context, json.RawMessage) (tools.Result, error) { return tools.Result{}, disk }
	var asked []string
	answer, askErr := false, error(nil)
	set, err := tools.NewSet(tools.RequireConfirmation([]tools.Tool{echoTool("echo", &echoed), echoTool("guarded", &guarded), broken}, "guarded", "absent"),
		&tools.SetOptions{Confirm: func(_ context.Context, tool tools.Tool, args json.RawMessage) (bool, error) {
			asked = append(asked, tool.Name+" "+string(args))
			return answer, askErr
		}})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, args string
		want       tools.Result
	}{
		{"echo", `{"a":1}`, tools.Result{Text: `{"a":1}`}},
		{"echo", ``, tools.Result{Text: `{}`}},
		{"echo", ` null `, tools.Result{Text: `{}`}},
		{"nope", `{}`, tools.Errorf(`there is no tool named "nope"; the tools are: echo, guarded, broken`)},
		{"echo", `{"a":`, tools.Errorf("the arguments for echo are not valid JSON (unexpected end of JSON input); send one JSON object that matches the tool's input schema")},
		{"guarded", `{"b":2}`, tools.Errorf("the user did not confirm this call of guarded, so it did not run; do not call it again unless the user asks")},
	} {
		got, err := set.Call(t.Context(), c.name, json.RawMessage(c.args))
		if diff := cmp.Diff(c.want, got); err != nil || diff != "" {
			t.Errorf("Call(%s, %s) = %+v, %v; want %+v", c.name, c.args, got, err, c.want)
		}
	}
	if echoed != 3 || guarded != 0 || strings.Join(asked, "|") != `guarded {"b":2}` {
		t.Errorf("echo ran %d times, guarded %d, asked %q: a declined call must not run, an unguarded tool is never asked about", echoed, guarded, asked)
	}

	answer = true
	if got, err := set.Call(t.Context(), "guarded", json.RawMessage(`{"c":3}`)); err != nil || got.Text != `{"c":3}` || guarded != 1 {
		t.Errorf("confirmed call: %+v %v (ran %d)", got, err, guarded)
	}
	askErr = errors.New("no terminal")
	if _, err := set.Call(t.Context(), "guarded", nil); err == nil || !errors.Is(err, askErr) || guarded != 1 {
		t.Errorf("a failing Confirm is the host's error and the tool does not run: %v (ran %d)", err, guarded)
	}
	if _, err := set.Call(t.Context(), "broken", nil); !errors.Is(err, disk) || !strings.HasPrefix(err.Error(), "tools: broken: ") {
		t.Errorf("a tool's Go error goes to the host with the tool's name: %v", err)
	}
	if tool, ok := set.Tool("guarded"); !ok || !tool.NeedsConfirmation {
		t.Errorf("Tool(guarded) = %+v, %v", tool, ok)
	}
}

func TestRequireConfirmation(t *testing.T) {
	var n int
	in := []tools.Tool{echoTool("a", &n), echoTool("b", &n)}
	out := tools.RequireConfirmation(in, "b", "c")
	if in[1].NeedsConfirmation || !out[1].NeedsConfirmation || out[0].NeedsConfirmation || len(out) != 2 {
		t.Errorf("in %v/%v, out %v/%v: want b marked in a copy", in[0].NeedsConfirmation, in[1].NeedsConfirmation, out[0].NeedsConfirmation, out[1].NeedsConfirmation)
	}
}

func TestModelText(t *testing.T) {
	if got := (tools.Result{Text: "42"}).ModelText(); got != "42" {
		t.Errorf("answer: %q", got)
	}
	if got := tools.Errorf("unknown skill %q", "x").ModelText(); got != `Error: unknown skill "x"` {
		t.Errorf("mistake: %q", got)
	}
}

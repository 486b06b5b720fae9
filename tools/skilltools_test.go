package tools_test

import (
	"context"
	"encoding/json"
	"os/exec"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/skillkit-go/skillkit"
	"github.com/skillkit-go/skillkit/tools"
)

func TestSkillTools(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 runs the word-stats skill")
	}
	kit, err := skillkit.Open(t.Context(), skillkit.Options{Dir: "../examples/skills"})
	if err != nil {
		t.Fatal(err)
	}
	defer kit.Close()
	ts, err := kit.Toolset(t.Context(), tools.Agent{Tools: []string{"bash"}})
	if err != nil {
		t.Fatal(err)
	}
	ts.Tools = tools.RequireConfirmation(ts.Tools, tools.ExecuteSkillName)
	skillTools, err := tools.SkillTools(ts)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, st := range skillTools {
		names = append(names, st.Name)
		s, _ := ts.Visibility.Get(st.Name)
		if st.Description != s.Description || string(st.InputSchema) != string(s.Config.Interface.Input) {
			t.Errorf("%s: description %q, schema %s; want the skill's own", st.Name, st.Description, st.InputSchema)
		}
		if !st.OpenWorld || st.ReadOnly || !st.NeedsConfirmation {
			t.Errorf("%s: hints %+v, want execute_skill's", st.Name, st)
		}
	}
	if diff := cmp.Diff([]string{"date-diff", "word-stats"}, names); diff != "" {
		t.Errorf("one tool per skill execute_skill runs (-want +got):\n%s", diff)
	}

	set, err := tools.NewSet(append(ts.Tools, skillTools...), &tools.SetOptions{Confirm: func(_ context.Context, _ tools.Tool, _ json.RawMessage) (bool, error) { return true, nil }})
	if err != nil {
		t.Fatalf("the skill tools beside the others: %v", err)
	}
	for _, c := range []struct {
		args    string
		isError bool
		want    string
	}{
		{`{"text":"a b a","top":1}`, false, `"words": 3`},
		{``, true, "invalid input"},
		{`{"top":"many"}`, true, "/top"},
		{`{"text":`, true, "not valid JSON"},
	} {
		res, err := set.Call(t.Context(), "word-stats", json.RawMessage(c.args))
		if err != nil || res.IsError != c.isError || !strings.Contains(res.Text, c.want) {
			t.Errorf("word-stats(%s) = %+v, %v; want isError %v with %q", c.args, res, err, c.isError, c.want)
		}
	}

	ts2, err := kit.Toolset(t.Context(), tools.Agent{DisableExecute: true})
	if err != nil {
		t.Fatal(err)
	}
	if none, err := tools.SkillTools(ts2); err != nil || len(none) != 0 {
		t.Errorf("without execute_skill: %v, %v", none, err)
	}
}

package tools_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillkit-go/skillkit/executor"
	"github.com/skillkit-go/skillkit/skill"
	"github.com/skillkit-go/skillkit/tools"
)

// exampleSkills loads the bundled example skills from disk.
func exampleSkills(t *testing.T, names ...string) mapLookup {
	t.Helper()
	root, err := filepath.Abs("../examples/skills")
	if err != nil {
		t.Fatal(err)
	}
	out := mapLookup{}
	for _, n := range names {
		s, diags := skill.Load(os.DirFS(root), n, &skill.LoadOptions{DiskRoot: root})
		if s == nil {
			t.Fatal(diags)
		}
		out[n] = s
	}
	return out
}

func TestExecuteSkill(t *testing.T) {
	skills := exampleSkills(t, "word-stats")
	tool, err := tools.ExecuteSkill(executor.New(skills, nil, nil), []string{"word-stats"})
	if err != nil {
		t.Fatal(err)
	}
	if tool.ReadOnly {
		t.Error("execute_skill runs code; it is not read-only")
	}
	res := call(t, tool, `{"name":"word-stats","input":{"text":"a b a","top":1}}`)
	if res.IsError {
		t.Fatalf("%+v", res)
	}
	var out struct {
		Words    int `json:"words"`
		TopWords []struct {
			Word string `json:"word"`
		} `json:"top_words"`
	}
	if err := json.Unmarshal([]byte(res.Text), &out); err != nil || out.Words != 3 || len(out.TopWords) != 1 || out.TopWords[0].Word != "a" {
		t.Errorf("output %s: %v", res.Text, err)
	}
	for args, want := range map[string]string{
		`{"name":"word-stats","input":{"top":"x"}}`: "/text",
		`{"name":"word-stats","input":[1]}`:         "at /input",
		`{"name":"ocr","input":{}}`:                 "at /name",
		`{"name":"word-stats"}`:                     "at /input: required property is missing",
	} {
		res := call(t, tool, args)
		if !res.IsError || !strings.Contains(res.Text, want) {
			t.Errorf("%s: want an error mentioning %q, got %+v", args, want, res)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := tool.Invoke(ctx, json.RawMessage(`{"name":"word-stats","input":{"text":"x"}}`)); err == nil {
		t.Error("a cancelled context must be a host error")
	}
	if _, err := tools.ExecuteSkill(executor.New(skills, nil, nil), nil); err == nil {
		t.Error("execute_skill without skills must not be built")
	}
}

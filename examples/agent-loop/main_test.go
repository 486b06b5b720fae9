package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/skillkit-go/skillkit"
	"github.com/skillkit-go/skillkit/tools"
)

func TestAgentLoop(t *testing.T) {
	var buf bytes.Buffer
	if err := run(t.Context(), &buf, "../skills"); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	// The loop goes through every level of progressive disclosure, in order.
	steps := []string{
		`assistant calls read_skill {"name":"date-diff"`,
		`assistant calls execute_skill {"input":{"from":"2026-12-01","to":"2026-12-24"},"name":"date-diff"}`,
		`assistant calls read_skill {"name":"release-notes"`,
		`assistant calls read_skill_file {"name":"release-notes","path":"references/format.md"}`,
		"assistant: There are 17 working days until the release.",
	}
	at := 0
	for _, s := range steps {
		i := strings.Index(out[at:], s)
		if i < 0 {
			t.Fatalf("missing or out of order: %s\n%s", s, out)
		}
		at += i
	}
}

// badModel calls a tool that does not exist, then a tool with broken
// arguments, then answers: both mistakes come back as error results.
type badModel struct{}

func (badModel) Next(_ context.Context, messages []Message, _ []tools.Tool) (Message, error) {
	var errs int
	for _, m := range messages {
		if m.Role == "tool" && m.IsError {
			errs++
		}
	}
	switch len(messages) {
	case 2:
		return Message{Role: "assistant", Calls: []ToolCall{{ID: "1", Name: "web_search", Args: json.RawMessage(`{}`)}}}, nil
	case 4:
		return Message{Role: "assistant", Calls: []ToolCall{{ID: "2", Name: "read_skill", Args: json.RawMessage(`{"nme":"x"}`)}}}, nil
	}
	return Message{Role: "assistant", Text: strings.Repeat("error ", errs)}, nil
}

func TestAgentLoopModelMistakes(t *testing.T) {
	var buf bytes.Buffer
	answer, err := Turn(t.Context(), &buf, badModel{}, mustToolset(t), "hi")
	if err != nil || answer != "error error " {
		t.Fatalf("answer %q, err %v\n%s", answer, err, buf.String())
	}
}

func mustToolset(t *testing.T) tools.Toolset {
	t.Helper()
	kit, err := skillkit.Open(t.Context(), skillkit.Options{Dir: "../skills"})
	if err != nil {
		t.Fatal(err)
	}
	ts, err := kit.Toolset(t.Context(), tools.Agent{})
	if err != nil {
		t.Fatal(err)
	}
	return ts
}

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	anthropictools "github.com/skillkit-go/skillkit/adapters/anthropic"
	"github.com/skillkit-go/skillkit/examples/internal/skillset"
)

func env(vars map[string]string) func(string) string {
	return func(k string) string { return vars[k] }
}

func TestRunWithoutKeyPrintsTools(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if err := run(t.Context(), []string{"-skills", "../skills"}, &stdout, &stderr, env(nil)); err != nil {
		t.Fatal(err)
	}
	set, err := skillset.Load(context.Background(), "../skills")
	if err != nil {
		t.Fatal(err)
	}
	defer set.Close()
	ts, err := anthropictools.New(set.Tools, nil)
	if err != nil {
		t.Fatal(err)
	}
	want, err := json.Marshal(ts.Tools())
	if err != nil {
		t.Fatal(err)
	}
	var got, wantV any
	if err := json.Unmarshal(stdout.Bytes(), &got); err != nil {
		t.Fatalf("stdout is not JSON: %v\n%s", err, stdout.String())
	}
	_ = json.Unmarshal(want, &wantV)
	if !reflect.DeepEqual(got, wantV) {
		t.Errorf("printed\n%s\nwant the Tools definitions", stdout.String())
	}
	if !strings.Contains(stderr.String(), "ANTHROPIC_API_KEY is not set") {
		t.Errorf("stderr should say why no request was made: %q", stderr.String())
	}
}

// block is one content block of a Messages request.
type block struct {
	Type      string `json:"type"`
	Text      string `json:"text"`
	ID        string `json:"id"`
	ToolUseID string `json:"tool_use_id"`
	IsError   bool   `json:"is_error"`
	Content   []struct {
		Text string `json:"text"`
	} `json:"content"`
}

// messagesRequest is the part of a Messages request the fake model reads.
type messagesRequest struct {
	Model     string  `json:"model"`
	MaxTokens int     `json:"max_tokens"`
	System    []block `json:"system"`
	Messages  []struct {
		Role    string  `json:"role"`
		Content []block `json:"content"`
	} `json:"messages"`
	Tools []struct {
		Name        string         `json:"name"`
		InputSchema map[string]any `json:"input_schema"`
	} `json:"tools"`
}

// fakeModel answers Messages requests from a script: the first request
// gets two tool_use blocks, the second the final answer. It checks what the
// program sends at each step.
func fakeModel(t *testing.T) (*httptest.Server, *int) {
	var mu sync.Mutex
	requests := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		requests++
		// The SDK sends the key as x-api-key or as a bearer token, by version.
		if r.URL.Path != "/v1/messages" || r.Header.Get("X-Api-Key") != "test-key" && r.Header.Get("Authorization") != "Bearer test-key" {
			t.Errorf("request %s %s without the API key: %v", r.Method, r.URL.Path, r.Header)
		}
		body, _ := io.ReadAll(r.Body)
		var req messagesRequest
		if err := json.Unmarshal(body, &req); err != nil {
			t.Errorf("request body: %v", err)
		}
		var names []string
		for _, tool := range req.Tools {
			if tool.InputSchema["type"] != "object" {
				t.Errorf("tool %s: input_schema %v", tool.Name, tool.InputSchema)
			}
			names = append(names, tool.Name)
		}
		if strings.Join(names, ",") != "read_skill,read_skill_file,execute_skill,skill_manage" || req.Model != "test-model" || req.MaxTokens != maxTokens ||
			len(req.System) != 1 || !strings.Contains(req.System[0].Text, "<available_skills>") {
			t.Errorf("request %d: model %q, tools %v, system %v", requests, req.Model, names, req.System)
		}
		w.Header().Set("Content-Type", "application/json")
		const envelope = `{"id":"msg_%d","type":"message","role":"assistant","model":"test-model","stop_sequence":null,"usage":{"input_tokens":1,"output_tokens":1},`
		switch requests {
		case 1:
			if len(req.Messages) != 1 || req.Messages[0].Role != "user" || req.Messages[0].Content[0].Text != "write release notes" {
				t.Errorf("first request messages: %s", body)
			}
			io.WriteString(w, strings.Replace(envelope, "%d", "1", 1)+`"stop_reason":"tool_use","content":[
				{"type":"text","text":"Let me read the skill."},
				{"type":"tool_use","id":"toolu_1","name":"read_skill","input":{"name":"release-notes"}},
				{"type":"tool_use","id":"toolu_2","name":"write_file","input":{}}]}`)
		case 2:
			m := req.Messages
			if len(m) != 3 || m[1].Role != "assistant" || len(m[1].Content) != 3 || m[1].Content[1].ID != "toolu_1" ||
				m[2].Role != "user" || len(m[2].Content) != 2 {
				t.Errorf("second request messages: %s", body)
				break
			}
			ok, bad := m[2].Content[0], m[2].Content[1]
			if ok.Type != "tool_result" || ok.ToolUseID != "toolu_1" || ok.IsError || !strings.Contains(ok.Content[0].Text, "# Release notes") ||
				bad.Type != "tool_result" || bad.ToolUseID != "toolu_2" || !bad.IsError || !strings.Contains(bad.Content[0].Text, `no tool named "write_file"`) {
				t.Errorf("tool results: %+v", m[2].Content)
			}
			io.WriteString(w, strings.Replace(envelope, "%d", "2", 1)+`"stop_reason":"end_turn","content":[{"type":"text","text":"Here are your release notes."}]}`)
		default:
			t.Errorf("unexpected request %d", requests)
			w.WriteHeader(http.StatusBadRequest)
		}
	}))
	t.Cleanup(srv.Close)
	return srv, &requests
}

func TestRunTalksToTheModel(t *testing.T) {
	srv, requests := fakeModel(t)
	var stdout, stderr bytes.Buffer
	err := run(t.Context(), []string{"-skills", "../skills", "-model", "test-model", "-prompt", "write release notes"}, &stdout, &stderr,
		env(map[string]string{"ANTHROPIC_API_KEY": "test-key", "ANTHROPIC_BASE_URL": srv.URL}))
	if err != nil {
		t.Fatalf("%v\nstderr: %s", err, stderr.String())
	}
	if stdout.String() != "Here are your release notes.\n" || *requests != 2 {
		t.Errorf("stdout %q after %d requests", stdout.String(), *requests)
	}
	if !strings.Contains(stderr.String(), `tool call: read_skill {"name":"release-notes"}`) {
		t.Errorf("stderr should log the tool calls: %q", stderr.String())
	}
}

func TestRunStopsAfterMaxTurns(t *testing.T) {
	srv, _ := fakeModel(t)
	var stdout, stderr bytes.Buffer
	err := run(t.Context(), []string{"-skills", "../skills", "-model", "test-model", "-prompt", "write release notes", "-max-turns", "1"}, &stdout, &stderr,
		env(map[string]string{"ANTHROPIC_API_KEY": "test-key", "ANTHROPIC_BASE_URL": srv.URL}))
	if err == nil || !strings.Contains(err.Error(), "no final answer after 1") {
		t.Errorf("want the turn limit, got %v", err)
	}
}

func TestRunRefuses(t *testing.T) {
	for name, c := range map[string]struct {
		args []string
		want string
	}{
		"missing folder": {[]string{"-skills", filepath.Join(t.TempDir(), "none")}, "skills folder"},
		"extra argument": {[]string{"-skills", "../skills", "go"}, "unexpected arguments"},
		"zero turns":     {[]string{"-skills", "../skills", "-max-turns", "0"}, "at least 1"},
		"unknown flag":   {[]string{"-temperature", "1"}, "flag provided but not defined"},
	} {
		var stdout, stderr bytes.Buffer
		if err := run(t.Context(), c.args, &stdout, &stderr, env(nil)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: want an error mentioning %q, got %v", name, c.want, err)
		}
	}
}

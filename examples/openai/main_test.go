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

	openaitools "github.com/skillkit-go/skillkit/adapters/openai"
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
	ts, err := openaitools.New(set.Tools, nil)
	if err != nil {
		t.Fatal(err)
	}
	want, err := json.Marshal(ts.ChatTools())
	if err != nil {
		t.Fatal(err)
	}
	var got, wantV any
	if err := json.Unmarshal(stdout.Bytes(), &got); err != nil {
		t.Fatalf("stdout is not JSON: %v\n%s", err, stdout.String())
	}
	_ = json.Unmarshal(want, &wantV)
	if !reflect.DeepEqual(got, wantV) {
		t.Errorf("printed\n%s\nwant the ChatTools definitions", stdout.String())
	}
	if !strings.Contains(stderr.String(), "OPENAI_API_KEY is not set") {
		t.Errorf("stderr should say why no request was made: %q", stderr.String())
	}
}

// chatRequest is the part of a Chat Completions request the fake model reads.
type chatRequest struct {
	Model    string `json:"model"`
	Messages []struct {
		Role       string `json:"role"`
		Content    any    `json:"content"`
		ToolCallID string `json:"tool_call_id"`
		ToolCalls  []struct {
			ID string `json:"id"`
		} `json:"tool_calls"`
	} `json:"messages"`
	Tools []struct {
		Type     string `json:"type"`
		Function struct {
			Name string `json:"name"`
		} `json:"function"`
	} `json:"tools"`
}

// fakeModel answers Chat Completions requests from a script: the first
// request gets two tool calls, the second the final answer. It checks what
// the program sends at each step.
func fakeModel(t *testing.T) (*httptest.Server, *int) {
	var mu sync.Mutex
	requests := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		requests++
		if r.URL.Path != "/chat/completions" || r.Header.Get("Authorization") != "Bearer test-key" {
			t.Errorf("request %s %s with authorization %q", r.Method, r.URL.Path, r.Header.Get("Authorization"))
		}
		body, _ := io.ReadAll(r.Body)
		var req chatRequest
		if err := json.Unmarshal(body, &req); err != nil {
			t.Errorf("request body: %v", err)
		}
		var names []string
		for _, tool := range req.Tools {
			names = append(names, tool.Type+":"+tool.Function.Name)
		}
		if strings.Join(names, ",") != "function:read_skill,function:read_skill_file,function:execute_skill,function:skill_manage" || req.Model != "test-model" {
			t.Errorf("request %d: model %q, tools %v", requests, req.Model, names)
		}
		w.Header().Set("Content-Type", "application/json")
		switch requests {
		case 1:
			if len(req.Messages) != 2 || req.Messages[0].Role != "system" || !strings.Contains(req.Messages[0].Content.(string), "<available_skills>") ||
				req.Messages[1].Role != "user" || req.Messages[1].Content != "write release notes" {
				t.Errorf("first request messages: %s", body)
			}
			io.WriteString(w, `{"id":"c1","object":"chat.completion","created":1,"model":"test-model","choices":[{"index":0,"finish_reason":"tool_calls",
				"message":{"role":"assistant","content":null,"refusal":null,"tool_calls":[
					{"id":"call_1","type":"function","function":{"name":"read_skill","arguments":"{\"name\":\"release-notes\"}"}},
					{"id":"call_2","type":"function","function":{"name":"write_file","arguments":"{}"}}]}}]}`)
		case 2:
			m := req.Messages
			if len(m) != 5 || m[2].Role != "assistant" || len(m[2].ToolCalls) != 2 ||
				m[3].Role != "tool" || m[3].ToolCallID != "call_1" || !strings.Contains(m[3].Content.(string), "# Release notes") ||
				m[4].Role != "tool" || m[4].ToolCallID != "call_2" || !strings.HasPrefix(m[4].Content.(string), "Error: there is no tool named \"write_file\"") {
				t.Errorf("second request messages: %s", body)
			}
			io.WriteString(w, `{"id":"c2","object":"chat.completion","created":2,"model":"test-model","choices":[{"index":0,"finish_reason":"stop",
				"message":{"role":"assistant","content":"Here are your release notes.","refusal":null}}]}`)
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
		env(map[string]string{"OPENAI_API_KEY": "test-key", "OPENAI_BASE_URL": srv.URL}))
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
		env(map[string]string{"OPENAI_API_KEY": "test-key", "OPENAI_BASE_URL": srv.URL}))
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

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
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
		`assistant calls read_skill {"name":"csv-tools"`,
		`assistant calls bash {"command":"bash `,
		`assistant calls read_skill {"name":"date-diff"`,
		`assistant calls execute_skill {"input":{"from":"2026-12-01","to":"2026-12-24"},"name":"date-diff"}`,
		`assistant calls read_skill {"name":"release-notes"`,
		`assistant calls read_skill_file {"name":"release-notes","path":"references/format.md"}`,
		"assistant: There are 17 working days until the release. The CSV file: rows: 2 columns: 2.",
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

// TestShellToolGetsTheSkillsEnvironment: the host's bash tool gives a
// command the variables of the skill it runs — found by the working
// directory or by the script's path in the command — and nothing else of
// the host's environment.
func TestShellToolGetsTheSkillsEnvironment(t *testing.T) {
	ctx := t.Context()
	dir := t.TempDir()
	write := func(rel, content string) {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("probe/SKILL.md", "---\nname: probe\ndescription: Prints its token.\n---\nRun scripts/show.sh.\n")
	write("probe/skill.config.yaml", "runtime: bash\nenv:\n  - {name: PROBE_TOKEN, required: true}\n")
	write("probe/scripts/show.sh", `echo "token=${PROBE_TOKEN:-none} host=${HOST_ONLY_SECRET:-none}"`+"\n")
	t.Setenv("HOST_ONLY_SECRET", "must-not-leak")
	t.Setenv("SKILL_SECRET_KEY", "a test secret of at least sixteen bytes")
	kit, err := skillkit.Open(ctx, skillkit.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer kit.Close()
	if err := kit.Vault().Save(ctx, "probe", map[string]string{"PROBE_TOKEN": "abc"}); err != nil {
		t.Fatal(err)
	}
	workspace := t.TempDir()
	bash := shellTool(kit, workspace)
	script := filepath.Join(dir, "probe", "scripts", "show.sh")
	for _, tc := range []struct{ args, want string }{
		{`{"command":"bash ` + script + `"}`, "token=abc host=none"},
		{`{"command":"bash scripts/show.sh","cwd":"` + filepath.Join(dir, "probe") + `"}`, "token=abc host=none"},
		{`{"command":"echo token=${PROBE_TOKEN:-none} host=${HOST_ONLY_SECRET:-none}"}`, "token=none host=none"},
	} {
		res, err := bash.Invoke(ctx, json.RawMessage(tc.args))
		if err != nil || res.IsError || strings.TrimSpace(res.Text) != tc.want {
			t.Errorf("%s: %q %v %v, want %q", tc.args, res.Text, res.IsError, err, tc.want)
		}
	}
}

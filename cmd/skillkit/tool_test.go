package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTool: skillkit tool calls the agent's tools as a model would, and
// says so by its exit status when the call is wrong.
func TestTool(t *testing.T) {
	code, out, errOut := runCLI(t, "tool", "execute_skill", `{"name":"date-diff","input":{"from":"2026-01-01","to":"2026-01-15"}}`, "../../examples/skills")
	if code != exitOK || !strings.Contains(out, `"days":14`) {
		t.Fatalf("execute_skill: exit %d, %s %s", code, out, errOut)
	}
	code, out, _ = runCLI(t, "tool", "--json", "read_skill", `{"name":"word-stats"}`, "../../examples/skills")
	var res struct {
		Text    string `json:"text"`
		IsError bool   `json:"is_error"`
	}
	if code != exitOK || json.Unmarshal([]byte(out), &res) != nil || res.IsError || !strings.Contains(res.Text, `<skill_content name="word-stats">`) {
		t.Fatalf("read_skill --json: exit %d, %s", code, out)
	}
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"tool", "read_skil", `{"name":"word-stats"}`, "../../examples/skills"}, exitUsage, "did you mean read_skill"},
		{[]string{"tool", "read_skill", `["word-stats"]`, "../../examples/skills"}, exitUsage, "not a JSON object"},
		{[]string{"tool", "read_skill"}, exitUsage, "give the tool's NAME"},
		{[]string{"tool", "read_skill", `{"name":"nope"}`, "../../examples/skills"}, exitFailure, "must be one of"},
	} {
		code, _, errOut := runCLI(t, c.args...)
		if code != c.code || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, %q; want %d and %q", c.args, code, errOut, c.code, c.want)
		}
	}
}

// TestReadArguments: read --args puts a person's arguments into the body,
// and a body without placeholders gets them at its end.
func TestReadArguments(t *testing.T) {
	dir := t.TempDir()
	writeSkillFile(t, dir, "migrate", "")
	body := filepath.Join(dir, "migrate", "SKILL.md")
	data, _ := os.ReadFile(body)
	data = []byte(strings.Replace(string(data), "Body.", "Migrate $0 from $1 to $ARGUMENTS[2]; asked: $ARGUMENTS.", 1))
	if err := os.WriteFile(body, data, 0o644); err != nil {
		t.Fatal(err)
	}
	writeSkillFile(t, dir, "plain", "")
	code, out, errOut := runCLI(t, "read", "migrate", "--args", `SearchBar React "Vue 3"`, dir)
	if code != exitOK || !strings.Contains(out, `Migrate SearchBar from React to Vue 3; asked: SearchBar React "Vue 3".`) {
		t.Fatalf("exit %d: %s %s", code, out, errOut)
	}
	code, out, _ = runCLI(t, "read", "plain", "--args", "main.go", dir)
	if code != exitOK || !strings.Contains(out, "Body.\n\nARGUMENTS: main.go") {
		t.Fatalf("exit %d: %s", code, out)
	}
	if _, out, _ = runCLI(t, "read", "migrate", dir); !strings.Contains(out, "Migrate $0 from $1") {
		t.Errorf("without --args the body changed:\n%s", out)
	}
}

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// hostileDescription holds a terminal title change (OSC 0 ... BEL) and an
// erase-line sequence (CSI 2K), written with YAML escapes.
const hostileYAML = `"Pwns terminals \e]0;pwned\a and \e[2K erases lines, \u009b C1, \u202e bidi, DEL \x7f."`
const hostileText = "Pwns terminals \x1b]0;pwned\x07 and \x1b[2K erases lines, \u009b C1, \u202e bidi, DEL \x7f."

// rawControl returns the first byte a terminal would act on: below 0x20
// other than newline and tab, DEL, or a C1 control or bidi override.
func rawControl(s string) (string, bool) {
	for i := 0; i < len(s); i++ {
		if b := s[i]; b < 0x20 && b != '\n' && b != '\t' || b == 0x7f {
			return s[max(0, i-20):min(len(s), i+20)], true
		}
	}
	for _, bad := range []string{"\u009b", "\u202e"} {
		if i := strings.Index(s, bad); i >= 0 {
			return s[max(0, i-20):min(len(s), i+20)], true
		}
	}
	return "", false
}

func hostileSkills(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	writeSkillFile(t, dir, "plain", "")
	p := filepath.Join(dir, "evil", "SKILL.md")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	md := "---\nname: evil\ndescription: " + hostileYAML + "\nmetadata:\n  category: \"cat\\e[31m\"\n---\nBody \x1b]0;pwned\x07 text \x1b[2K.\n"
	if err := os.WriteFile(p, []byte(md), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// Issue 13: skill text never reaches the terminal raw; --json stays exact.
func TestHumanOutputEscapesControlCharacters(t *testing.T) {
	dir := hostileSkills(t)
	for _, args := range [][]string{
		{"list", dir},
		{"list", "--tools", "", dir},
		{"prompt", dir},
		{"prompt", "--format", "agentskills", dir},
		{"prompt", "--max-chars", "1200", dir},
		{"doctor", dir},
		{"validate", dir},
		{"inspect", dir},
		{"read", "evil", dir},
	} {
		// Wide enough that list does not cut the description.
		code, out, errOut := runCLIEnv(t, map[string]string{"COLUMNS": "400"}, args...)
		if code != exitOK {
			t.Errorf("%v: exit %d\n%s", args, code, errOut)
		}
		for stream, text := range map[string]string{"stdout": out, "stderr": errOut} {
			if where, found := rawControl(text); found {
				t.Errorf("%v: a raw control character on %s near %q", args, stream, where)
			}
		}
		// The terminal escapes what it prints; what the model reads is marked
		// at the source (hidden.Mark), and the terminal shows that.
		shown := strings.Contains(out+errOut, `\x1b]0;pwned\x07`) || strings.Contains(out+errOut, "[U+001B]]0;pwned[U+0007]")
		if !shown && args[0] != "validate" && args[0] != "doctor" {
			t.Errorf("%v: the sequence is not shown escaped:\n%s%s", args, out, errOut)
		}
	}
	_, out, _ := runCLI(t, "list", "--json", dir)
	var got struct {
		Skills []struct{ Name, Description string } `json:"skills"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Skills) != 2 || got.Skills[0].Description != hostileText {
		t.Errorf("--json is not exact: %q", got.Skills)
	}
	_, out, _ = runCLI(t, "prompt", "--json", dir)
	var prompt struct{ Prompt string }
	if err := json.Unmarshal([]byte(out), &prompt); err != nil || !strings.Contains(prompt.Prompt, "[U+001B]]0;pwned[U+0007]") {
		t.Errorf("prompt --json is not the model's text: %v %q", err, prompt.Prompt)
	}
}

func TestSafeText(t *testing.T) {
	for in, want := range map[string]string{
		"plain text, 中文, emoji 👩‍💻": "plain text, 中文, emoji 👩‍💻",
		"keeps\nnewline\tand tab":   "keeps\nnewline\tand tab",
		"\x1b[2K\x07\r\x00\x7f":     `\x1b[2K\x07\x0d\x00\x7f`,
		"c1 \u009b31m":              `c1 \u009b31m`,
		"bidi \u202eevil\u2066":     `bidi \u202eevil\u2066`,
		"bad utf8 \xff\xfe":         `bad utf8 \xff\xfe`,
		"real \ufffd stays":         "real \ufffd stays",
	} {
		if got := safeText(in); got != want {
			t.Errorf("safeText(%q) = %q, want %q", in, got, want)
		}
	}
}

// Issue 16: list and prompt say how many skills were not loaded and why,
// and which were hidden from the agent and why; validate counts files.
func TestNeverSilent(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"a1", "a2", "a3", "a4", "a5"} {
		writeSkillFile(t, dir, n, "")
	}
	writeSkillFile(t, dir, "needs-browser", "metadata:\n  conditions:\n    requires_tools: [browser]\n")
	writeSkillFile(t, filepath.Join(dir, "a1", "skills"), "inner", "")
	writeSkillFile(t, filepath.Join(dir, ".hidden"), "secret", "")
	if err := os.MkdirAll(filepath.Join(dir, "broken"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "broken", "SKILL.md"), []byte("---\nname: broken\n---\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, errOut := runCLI(t, "list", "--max-skills", "4", dir)
	for _, want := range []string{"4 skills", "5 skill folders not loaded (LIMIT_REACHED 3, NESTED_SKILL 1, SKILL_IN_DOT_FOLDER 1)"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("list: %q not in\n%s", want, errOut)
		}
	}
	_, out, _ := runCLI(t, "list", "--json", "--max-skills", "4", dir)
	var listed struct {
		NotLoaded []struct{ Path, Code string } `json:"not_loaded"`
	}
	if err := json.Unmarshal([]byte(out), &listed); err != nil || len(listed.NotLoaded) != 5 {
		t.Errorf("list --json not_loaded: %v %+v", err, listed)
	}
	_, _, errOut = runCLI(t, "prompt", "--max-skills", "6", dir)
	for _, want := range []string{"5 skills listed, 0 left out", "1 skill hidden from this agent (requires_tools 1): needs-browser", "skill folders not loaded"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("prompt: %q not in\n%s", want, errOut)
		}
	}
	_, out, _ = runCLI(t, "prompt", "--json", "--max-chars", "700", dir)
	var p struct {
		Listed, Omitted, Shortened []string
		Compaction                 string
		Hidden                     []struct{ Name string }
		NotLoaded                  []struct{ Code string } `json:"not_loaded"`
		Diagnostics                []struct{ Code string }
	}
	if err := json.Unmarshal([]byte(out), &p); err != nil {
		t.Fatal(err)
	}
	if p.Compaction != "names_only" || len(p.Hidden) != 1 || len(p.NotLoaded) != 3 || len(p.Diagnostics) == 0 {
		t.Errorf("prompt --json: %+v", p)
	}
	_, _, errOut = runCLI(t, "validate", dir)
	if !strings.Contains(errOut, "8 skill files checked, 7 loaded") {
		t.Errorf("validate: %s", errOut)
	}
}

// Issue 16: inspect shows every field it parsed.
func TestInspectShowsEveryField(t *testing.T) {
	dir := t.TempDir()
	writeSkillFile(t, dir, "full", `author: Ada
when_to_use: When asked.
user-invocable: false
disable-model-invocation: true
platforms: [wsl2]
prerequisites:
  commands: [git]
metadata:
  skillType: tool
  openclaw:
    always: true
    primaryEnv: API_KEY
    install:
      - {kind: brew, formula: jq}
`)
	code, out, errOut := runCLI(t, "inspect", filepath.Join(dir, "full"))
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, label := range []string{"author:", "when_to_use:", "user_invocable:", "hidden:", "os:", "requires.bins:", "skill_type:", "always:", "primary_env:", "install:", "metadata:"} {
		if !strings.Contains(out, "  "+label) {
			t.Errorf("inspect does not show %s:\n%s", label, out)
		}
	}
	var got struct {
		Skills []map[string]any `json:"skills"`
	}
	_, out, _ = runCLI(t, "inspect", "--json", filepath.Join(dir, "full"))
	if err := json.Unmarshal([]byte(out), &got); err != nil || len(got.Skills) != 1 {
		t.Fatal(err, out)
	}
	s := got.Skills[0]
	for key, want := range map[string]any{"author": "Ada", "when_to_use": "When asked.", "user_invocable": false, "disable_model_invocation": true,
		"always": true, "primary_env": "API_KEY", "skill_type": "tool", "os": []any{"linux"}} {
		if diff := cmp.Diff(want, s[key]); diff != "" {
			t.Errorf("%s (-want +got):\n%s", key, diff)
		}
	}
}

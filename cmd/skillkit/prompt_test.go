package main

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestPromptCommand(t *testing.T) {
	code, out, errOut := runCLI(t, "prompt", "--tools", "bash", "../../examples/skills")
	if code != exitOK || !strings.Contains(out, "<available_skills>") || !strings.Contains(out, `<skill name="word-stats" type="compute-entry"`) {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	code, out, _ = runCLI(t, "prompt", "--format", "agentskills", "--lang", "zh", "--skills", "release-notes", "../../examples/skills")
	if code != exitOK || !strings.Contains(out, "<name>release-notes</name>") || strings.Contains(out, "word-stats") || !strings.Contains(out, "以下 skill") {
		t.Fatalf("exit %d\n%s", code, out)
	}
	code, out, _ = runCLI(t, "prompt", "--json", "--tools", "bash", "--max-chars", "900", "../../examples/skills")
	var got struct {
		Prompt   string   `json:"prompt"`
		Listed   []string `json:"listed"`
		Omitted  []string `json:"omitted"`
		Warnings []string `json:"warnings"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil || code != exitOK {
		t.Fatalf("exit %d, %v\n%s", code, err, out)
	}
	if len(got.Omitted) == 0 || len(got.Listed) == 0 || len(got.Listed)+len(got.Omitted) != 4 || len([]rune(got.Prompt)) > 900 {
		t.Errorf("budget 900: %+v", got)
	}
	code, out, _ = runCLI(t, "prompt", "--json", "--tools", "shell", "--skills", "csv-tools,word-stats", "../../examples/skills")
	if err := json.Unmarshal([]byte(out), &got); err != nil || code != exitOK {
		t.Fatalf("exit %d, %v\n%s", code, err, out)
	}
	if len(got.Warnings) != 1 || !strings.Contains(got.Warnings[0], "skill csv-tools is assigned to this agent but hidden") {
		t.Errorf("csv-tools needs bash: %q", got.Warnings)
	}
	// skillkit is the default format and has its name.
	_, byDefault, _ := runCLI(t, "prompt", "../../examples/skills")
	if code, out, _ := runCLI(t, "prompt", "--format", "skillkit", "../../examples/skills"); code != exitOK || out != byDefault {
		t.Errorf("--format skillkit: exit %d\n%s", code, out)
	}
	for _, bad := range [][]string{{"prompt", "--format", "xml"}, {"prompt", "--format", "seed"}, {"prompt", "--lang", "fr"}, {"prompt", "--max-chars", "0"}} {
		if code, _, _ := runCLI(t, append(bad, "../../examples/skills")...); code != exitUsage {
			t.Errorf("%v: exit %d", bad, code)
		}
	}
}

func TestReadCommand(t *testing.T) {
	code, out, _ := runCLI(t, "read", "release-notes", "--task", "a migration guide", "../../examples/skills")
	if code != exitOK || !strings.Contains(out, `<skill_reference path="references/breaking-changes.md">`) {
		t.Fatalf("exit %d\n%s", code, out)
	}
	code, out, _ = runCLI(t, "read", "release-notes", "--file", "references/format.md", "../../examples/skills")
	if code != exitOK || !strings.HasPrefix(out, "# Release notes format") {
		t.Fatalf("exit %d\n%s", code, out)
	}
	code, _, errOut := runCLI(t, "read", "release-notes", "--file", "../word-stats/SKILL.md", "../../examples/skills")
	if code != exitFailure || !strings.Contains(errOut, "not a path inside the skill folder") {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	// A person gets the closest names; --json prints the tool's answer,
	// which lists every skill for the model.
	if code, _, errOut := runCLI(t, "read", "release-note", "../../examples/skills"); code != exitFailure || !strings.Contains(errOut, "no skill named release-note (did you mean release-notes?)") {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	if code, out, _ := runCLI(t, "read", "--json", "nope", "../../examples/skills"); code != exitFailure || !strings.Contains(out, "value must be one of") {
		t.Fatalf("exit %d\n%s", code, out)
	}
	code, out, _ = runCLI(t, "read", "release-notes", "--json", "../../examples/skills")
	var res struct {
		Text       string         `json:"text"`
		Structured map[string]any `json:"structured"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil || code != exitOK || res.Structured["name"] != "release-notes" {
		t.Errorf("read --json: exit %d, %v\n%s", code, err, out)
	}
	if code, _, _ := runCLI(t, "read"); code != exitUsage {
		t.Fatalf("exit %d", code)
	}
}

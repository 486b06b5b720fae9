package main

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillkit-go/skillkit/diagnostics"
)

// runCLI runs the command line in-process and returns exit code and output.
func runCLI(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	c := &cli{stdout: &stdout, stderr: &stderr, stdin: strings.NewReader(""), getenv: func(string) string { return "" }}
	code := run(t.Context(), args, c)
	return code, stdout.String(), stderr.String()
}

func TestValidateExamples(t *testing.T) {
	code, out, errOut := runCLI(t, "validate", "../../examples/skills")
	if code != exitOK || out != "" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if !strings.Contains(errOut, "4 skill files checked, 4 loaded: 0 errors") {
		t.Errorf("summary: %q", errOut)
	}
}

func TestValidateStrictFindsSkillkitExtensions(t *testing.T) {
	code, out, _ := runCLI(t, "validate", "--strict", "../../examples/skills/release-notes")
	if code != exitFailure || !strings.Contains(out, "error FIELD_INVALID release-notes: metadata.references") {
		t.Fatalf("exit %d, out %q", code, out)
	}
}

func TestValidateJSONPathsStartWithPathAsGiven(t *testing.T) {
	code, out, _ := runCLI(t, "validate", "./testdata/skills/bad", "--json")
	if code != exitFailure {
		t.Fatalf("exit %d", code)
	}
	var diags diagnostics.List
	if err := json.Unmarshal([]byte(out), &diags); err != nil {
		t.Fatalf("not a JSON array of diagnostics: %v\n%s", err, out)
	}
	want := map[string]string{
		"broken": "./testdata/skills/bad" + string(filepath.Separator) + filepath.FromSlash("broken/SKILL.md"),
		"nodesc": "./testdata/skills/bad" + string(filepath.Separator) + filepath.FromSlash("nodesc/SKILL.md"),
	}
	if len(diags) != 2 {
		t.Fatalf("want 2 diagnostics, got %v", diags)
	}
	for _, d := range diags {
		if d.Level != diagnostics.Error || d.Path != want[d.Skill] {
			t.Errorf("diagnostic %+v: want an error at %s", d, want[d.Skill])
		}
	}
}

func TestValidateSkillFolderItself(t *testing.T) {
	code, _, errOut := runCLI(t, "validate", "testdata/skills/good/nested/deep")
	if code != exitOK || !strings.Contains(errOut, "1 skill file checked, 1 loaded") {
		t.Fatalf("exit %d: %s", code, errOut)
	}
}

func TestValidateMissingPath(t *testing.T) {
	code, out, _ := runCLI(t, "validate", "testdata/nope")
	if code != exitFailure || !strings.Contains(out, "READ_ERROR") {
		t.Fatalf("exit %d, %q", code, out)
	}
	code, out, _ = runCLI(t, "validate", "testdata/skills/good")
	if code != exitOK {
		t.Fatalf("testdata holds skills at depth: exit %d %q", code, out)
	}
}

func TestInspectJSON(t *testing.T) {
	code, out, _ := runCLI(t, "inspect", "--json", "../../examples/skills")
	if code != exitOK {
		t.Fatalf("exit %d", code)
	}
	var got struct {
		Skills []struct {
			Name       string         `json:"name"`
			Class      string         `json:"class"`
			Emoji      string         `json:"emoji"`
			Hidden     bool           `json:"hidden"`
			Config     map[string]any `json:"config"`
			Files      []string       `json:"files"`
			References struct {
				Required []string `json:"required"`
			} `json:"references"`
		} `json:"skills"`
		Diagnostics []any `json:"diagnostics"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Skills) != 4 || got.Diagnostics == nil {
		t.Fatalf("got %+v", got)
	}
	classes := map[string]string{}
	for _, s := range got.Skills {
		classes[s.Name] = s.Class
	}
	want := map[string]string{"release-notes": "prompt", "word-stats": "compute-entry", "date-diff": "compute-entry", "csv-tools": "compute-toolkit"}
	for name, class := range want {
		if classes[name] != class {
			t.Errorf("%s: class %q, want %q", name, classes[name], class)
		}
	}
	for _, s := range got.Skills {
		if s.Name == "release-notes" && (len(s.References.Required) != 1 || s.Emoji != "📝") {
			t.Errorf("release-notes: %+v", s)
		}
		if s.Name == "word-stats" && s.Config["entrypoint"] != "scripts/stats.py" {
			t.Errorf("word-stats config: %v", s.Config)
		}
	}
}

func TestInspectHuman(t *testing.T) {
	code, out, _ := runCLI(t, "inspect", "../../examples/skills/word-stats")
	if code != exitOK || !strings.Contains(out, "word-stats  [compute-entry]") || !strings.Contains(out, "entrypoint:") {
		t.Fatalf("exit %d\n%s", code, out)
	}
}

func TestUsage(t *testing.T) {
	tests := []struct {
		args  []string
		code  int
		inOut string
		inErr string
	}{
		{nil, exitUsage, "", "Commands:"},
		{[]string{"help"}, exitOK, "validate", ""},
		{[]string{"help", "validate"}, exitOK, "--strict", ""},
		{[]string{"validate", "-h"}, exitOK, "Usage: skillkit validate", ""},
		{[]string{"help", "nope"}, exitUsage, "", "unknown command"},
		{[]string{"nope"}, exitUsage, "", "unknown command"},
		{[]string{"validate"}, exitUsage, "", "give at least one PATH"},
		{[]string{"validate", "--bogus", "x"}, exitUsage, "", "unknown flag --bogus"},
		{[]string{"inspect"}, exitUsage, "", "give at least one PATH"},
		{[]string{"help", "list"}, exitOK, "--max-skills", ""},
		{[]string{"help", "doctor"}, exitOK, "--level", ""},
		{[]string{"list", "--bogus"}, exitUsage, "", "unknown flag --bogus"},
	}
	for _, tt := range tests {
		code, out, errOut := runCLI(t, tt.args...)
		if code != tt.code || !strings.Contains(out, tt.inOut) || !strings.Contains(errOut, tt.inErr) {
			t.Errorf("%v: exit %d\nstdout %q\nstderr %q", tt.args, code, out, errOut)
		}
	}
}

package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRunCommand(t *testing.T) {
	// A copy: a run records its use in the skills folder.
	examples := t.TempDir()
	if err := os.CopyFS(examples, os.DirFS("../../examples/skills")); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCLI(t, "run", "word-stats", "--dir", examples, "--input", `{"text":"a b a"}`)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var got struct {
		Words int `json:"words"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil || got.Words != 3 {
		t.Errorf("output %q: %v", out, err)
	}

	var stdout, stderr bytes.Buffer
	c := &cli{stdout: &stdout, stderr: &stderr, stdin: strings.NewReader(`{"from":"2026-12-01","to":"2026-12-24"}`),
		getenv: func(k string) string {
			if k == "SKILLKIT_DIR" {
				return examples
			}
			return ""
		}}
	if code := run(t.Context(), []string{"run", "date-diff", "--input", "-", "--json"}, c); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var outcome struct {
		Success bool           `json:"success"`
		Output  map[string]any `json:"output"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &outcome); err != nil || !outcome.Success || outcome.Output["weekdays"] != float64(17) {
		t.Errorf("outcome %s: %v", stdout.String(), err)
	}

	for args, want := range map[string]string{
		"run word-stats --input {\"top\":1}": "/text: required property is missing",
		"run release-notes":                  "not a compute-entry skill",
		"run nope":                           "nope",
	} {
		code, _, errOut := runCLI(t, append(strings.Fields(args), "--dir", examples)...)
		if code != exitFailure || !strings.Contains(errOut, want) {
			t.Errorf("%s: exit %d, stderr %q, want %q", args, code, errOut, want)
		}
	}
	if code, _, _ := runCLI(t, "run"); code != exitUsage {
		t.Errorf("no name: exit %d", code)
	}
}

// Issue 15: a required secret without a value stops the run, which names
// the variable and the command that saves it; a key that does not open the
// saved values is named as such, with the rotation hint.
func TestRunNamesWhatIsMissing(t *testing.T) {
	dir := t.TempDir()
	writeSkillFile(t, dir, "demo", "")
	for rel, content := range map[string]string{
		"demo/skill.config.yaml": "runtime: bash\nentrypoint: run.sh\nenv:\n  - {name: DEMO_TOKEN, required: true}\n",
		"demo/run.sh":            "printf '{\"token\":\"%s\"}' \"$DEMO_TOKEN\"\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(rel)), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	vars := map[string]string{"SKILLKIT_DIR": dir, "SKILL_SECRET_KEY": cliOldSecret}
	code, out, errOut := runWith(t, vars, "", "run", "demo")
	if code != exitFailure || out != "" || !strings.Contains(errOut, "DEMO_TOKEN") || !strings.Contains(errOut, "skillkit secrets set demo DEMO_TOKEN=VALUE") {
		t.Fatalf("run without the required secret: exit %d\n%s%s", code, out, errOut)
	}
	if code, _, errOut := runWith(t, vars, "", "secrets", "set", "demo", "DEMO_TOKEN=t0k"); code != exitOK {
		t.Fatalf("secrets set: %s", errOut)
	}
	if code, out, errOut := runWith(t, vars, "", "run", "demo"); code != exitOK || strings.TrimSpace(out) != `{"token":"t0k"}` {
		t.Fatalf("run with the secret: exit %d\n%s%s", code, out, errOut)
	}
	vars["SKILL_SECRET_KEY"] = cliNewSecret
	code, _, errOut = runWith(t, vars, "", "run", "demo")
	if code != exitFailure || !strings.Contains(errOut, "SKILL_SECRET_KEY_PREVIOUS") || !strings.Contains(errOut, "skillkit secrets rotate") {
		t.Fatalf("run with another key: exit %d\n%s", code, errOut)
	}
	if n := strings.Count(strings.TrimSpace(errOut), "\n"); n > 2 {
		t.Errorf("a wrong key takes %d lines to say:\n%s", n+1, errOut)
	}
	code, out, errOut = runWith(t, vars, "", "secrets", "list", "demo")
	if code != exitOK || !strings.Contains(out, "set, under another key") || !strings.Contains(errOut, "SKILL_SECRET_KEY_PREVIOUS") {
		t.Fatalf("list with another key: exit %d\n%s%s", code, out, errOut)
	}
}

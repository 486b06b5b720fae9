package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestRunCommand(t *testing.T) {
	code, out, errOut := runCLI(t, "run", "word-stats", "--dir", "../../examples/skills", "--input", `{"text":"a b a"}`)
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
				return "../../examples/skills"
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
		code, _, errOut := runCLI(t, append(strings.Fields(args), "--dir", "../../examples/skills")...)
		if code != exitFailure || !strings.Contains(errOut, want) {
			t.Errorf("%s: exit %d, stderr %q, want %q", args, code, errOut, want)
		}
	}
	if code, _, _ := runCLI(t, "run"); code != exitUsage {
		t.Errorf("no name: exit %d", code)
	}
}

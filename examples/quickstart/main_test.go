package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestQuickstart(t *testing.T) {
	var buf bytes.Buffer
	if err := run(t.Context(), &buf, "../skills"); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{
		"<available_skills>",
		"execute_skill",
		`<skill_reference path="references/breaking-changes.md">`,
		`"words": 11`,
		"(error) execute_skill word-stats failed",
		"/text: required property is missing",
		"4 skills, 0 diagnostics",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

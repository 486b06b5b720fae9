package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestToolsetOfExamples(t *testing.T) {
	var buf bytes.Buffer
	if err := run(t.Context(), &buf, "../skills", []string{"bash"}); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Prompt string `json:"prompt"`
		Tools  []struct {
			Name        string          `json:"name"`
			Description string          `json:"description"`
			InputSchema json.RawMessage `json:"input_schema"`
		} `json:"tools"`
		Warnings []string `json:"warnings"`
	}
	if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range got.Tools {
		names = append(names, tool.Name)
		var schema map[string]any
		if err := json.Unmarshal(tool.InputSchema, &schema); err != nil || tool.Description == "" || schema["type"] != "object" {
			t.Errorf("%s: %+v", tool.Name, tool)
		}
	}
	if strings.Join(names, ",") != "read_skill,read_skill_file,execute_skill" {
		t.Errorf("tools %v", names)
	}
	if !strings.Contains(got.Prompt, "<available_skills>") || len(got.Warnings) != 0 {
		t.Errorf("prompt %q warnings %q", got.Prompt, got.Warnings)
	}
}

package scan

import "testing"

func TestNameTyposquat(t *testing.T) {
	for _, tt := range []struct {
		name string
		want bool
	}{
		// Imitations, in wordings of this test's own.
		{"webapp-testin", true}, {"skil-creator", true}, {"frontend-desing", true}, {"mcp-bulider", true},
		{"pdf-extarctor", true}, {"markdwon-linter", true}, {"slack-notifer", true}, {"git-comitter", false},
		{"yaml-formattter", true}, {"databse-migrator", true}, {"screenshot-scheduler", false},
		// Real names: words, their inflections, packages, brands.
		{"webapp-testing", false}, {"skill-creator", false}, {"modal", false}, {"polars", false},
		{"yaml-merger", false}, {"jsonl-merger", false}, {"ndjson-splitter", false}, {"isort-import-sorter", false},
		{"pytest-flake-reporter", false}, {"scanpy", false}, {"adaptyv", false}, {"pydeseq2", false},
		{"tokens", false}, {"sticker-maker", false}, {"figma", false}, {"notion-meeting-intelligence", false},
		{"", false}, {"a", false}, {"x-y-z", false},
	} {
		if got := nameTyposquat(tt.name) != ""; got != tt.want {
			t.Errorf("nameTyposquat(%q) = %q, want a finding %v", tt.name, nameTyposquat(tt.name), tt.want)
		}
	}
}

func TestSlip(t *testing.T) {
	for _, tt := range []struct {
		t, w string
		want bool
	}{
		{"parsre", "parser", true}, {"confg", "config", true}, {"valdiator", "validator", true},
		{"validater", "validator", true}, {"webbapp", "webapp", true},
		{"tests", "test", false}, {"merger", "merge", false}, {"models", "model", false},
		{"figma", "sigma", false}, {"motion", "notion", false}, {"modal", "model", false},
		{"abc", "abcdef", false}, {"stale", "stable", false}, {"formattter", "formatter", true},
		{"lanch", "launch", true}, {"plaster", "planter", false},
	} {
		if got := slip(tt.t, tt.w); got != tt.want {
			t.Errorf("slip(%q, %q) = %v, want %v", tt.t, tt.w, got, tt.want)
		}
	}
}

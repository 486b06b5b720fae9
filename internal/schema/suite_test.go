package schema

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// TestOfficialSuite runs the JSON Schema Test Suite's draft 2020-12 cases
// (github.com/json-schema-org/JSON-Schema-Test-Suite, folder
// tests/draft2020-12) when SKILLKIT_JSON_SCHEMA_SUITE names that folder.
// Every schema Compile accepts must give the suite's verdict on every
// instance; schemas using what the package refuses (remote references,
// anchors, dynamic references, unevaluated*) are counted, not failed.
func TestOfficialSuite(t *testing.T) {
	dir := os.Getenv("SKILLKIT_JSON_SCHEMA_SUITE")
	if dir == "" {
		t.Skip("SKILLKIT_JSON_SCHEMA_SUITE is not set")
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no suite files in %s: %v", dir, err)
	}
	var groups, refused, cases int
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var suite []struct {
			Description string          `json:"description"`
			Schema      json.RawMessage `json:"schema"`
			Tests       []struct {
				Description string          `json:"description"`
				Data        json.RawMessage `json:"data"`
				Valid       bool            `json:"valid"`
			} `json:"tests"`
		}
		if err := json.Unmarshal(data, &suite); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		for _, g := range suite {
			groups++
			s, err := Compile("suite", g.Schema)
			if err != nil {
				refused++
				t.Logf("%s: %s: refused: %v", filepath.Base(file), g.Description, err)
				continue
			}
			for _, c := range g.Tests {
				cases++
				if got := s.ValidateJSON(c.Data) == nil; got != c.Valid {
					t.Errorf("%s: %s: %s: valid = %v, want %v", filepath.Base(file), g.Description, c.Description, got, c.Valid)
				}
			}
		}
	}
	t.Logf("%d schemas, %d refused; %d instances checked against the rest", groups, refused, cases)
}

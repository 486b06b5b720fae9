package schema

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestValidateReportsEveryProblem(t *testing.T) {
	s := MustCompile("test", `{"type":"object","properties":{"name":{"type":"string","enum":["a","b"]},"n":{"type":"integer","minimum":1},"tags":{"type":"array","items":{"type":"string"}}},"required":["name","n"],"additionalProperties":false}`)
	if p := s.ValidateJSON([]byte(`{"name":"a","n":2,"tags":["x"]}`)); p != nil {
		t.Fatalf("valid document refused: %v", p)
	}
	problems := s.ValidateJSON([]byte(`{"name":"c","n":0,"tags":["x",3],"extra":true}`))
	got := Join(problems)
	for _, want := range []string{"at /name:", "at /n:", "at /tags/1:", "at /extra: property is not allowed"} {
		if !strings.Contains(got, want) {
			t.Errorf("problems lack %q:\n%s", want, got)
		}
	}
	if p := s.ValidateJSON([]byte(`{"name":`)); len(p) != 1 || !strings.Contains(p[0].String(), "at the root: not valid JSON") {
		t.Errorf("broken JSON: %v", p)
	}
	if p := s.ValidateJSON([]byte(`{}`)); Join(p) != "at /n: required property is missing\nat /name: required property is missing" {
		t.Errorf("missing properties: %v", p)
	}
}

func TestExternalRefsAreRefused(t *testing.T) {
	// The file would accept 5; if it were read, 5 would validate.
	local := filepath.Join(t.TempDir(), "local.json")
	if err := os.WriteFile(local, []byte(`{"type":"number"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, ref := range []string{"file://" + local, local, "https://example.com/s.json"} {
		s, err := Compile("test", []byte(`{"$ref":"`+ref+`"}`))
		if err == nil && s.ValidateJSON([]byte("5")) == nil {
			t.Errorf("$ref %s was followed: a skill's schema must not read the machine", ref)
		}
	}
	if _, err := Compile("test", []byte(`{"type":"object","$defs":{"x":{"type":"string"}},"properties":{"a":{"$ref":"#/$defs/x"}}}`)); err != nil {
		t.Errorf("internal $ref refused: %v", err)
	}
}

func TestDecode(t *testing.T) {
	v, err := Decode([]byte(`{"n": 12345678901234567890}`))
	if err != nil || v.(map[string]any)["n"].(interface{ String() string }).String() != "12345678901234567890" {
		t.Errorf("big numbers must stay exact: %v %v", v, err)
	}
	if _, err := Decode([]byte(`{} {}`)); err == nil {
		t.Error("two values accepted")
	}
}

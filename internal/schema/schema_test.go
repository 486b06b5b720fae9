package schema

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
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

// TestProblems holds the messages users see: the pointer of the failing
// value and why, for each keyword.
func TestProblems(t *testing.T) {
	for _, tc := range []struct {
		schema, doc string
		want        []Problem
	}{
		{`{"type":"string"}`, `1`, []Problem{{"", "got number, want string"}}},
		{`{"type":["string","null"]}`, `1.5`, []Problem{{"", "got number, want string or null"}}},
		{`{"type":"integer"}`, `1.0`, nil},
		{`{"type":"integer"}`, `1.5`, []Problem{{"", "got number, want integer"}}},
		{`{"enum":["a",1]}`, `1.0`, nil},
		{`{"const":{"a":[1]}}`, `{"a":[2]}`, []Problem{{"", `value must be {"a":[1]}`}}},
		{`{"minimum":1,"exclusiveMaximum":3}`, `3`, []Problem{{"", "exclusiveMaximum: got 3, want 3"}}},
		{`{"multipleOf":0.1}`, `0.3`, nil},
		{`{"multipleOf":0.1}`, `0.35`, []Problem{{"", "multipleOf: got 0.35, want 0.1"}}},
		{`{"maxLength":2}`, `"héé"`, []Problem{{"", "maxLength: got 3, want 2"}}},
		{`{"pattern":"^a+$"}`, `"ab"`, []Problem{{"", "'ab' does not match pattern '^a+$'"}}},
		{`{"uniqueItems":true}`, `[1,{"a":1},1.0]`, []Problem{{"", "items at 0 and 2 are equal"}}},
		{`{"prefixItems":[{"type":"string"}],"items":false}`, `["a",1]`, []Problem{{"/1", "no value is allowed here (the schema is false)"}}},
		{`{"contains":{"type":"string"},"minContains":2}`, `["a",1]`, []Problem{{"", "minContains: 1 items match the contains schema, want at least 2"}}},
		{`{"dependentRequired":{"a":["b"]}}`, `{"a":1}`, []Problem{{"/b", "required property is missing (because 'a' is present)"}}},
		{`{"dependentSchemas":{"a":{"required":["b"]}},"properties":{"a":{"type":"string"}}}`, `{"a":1}`,
			[]Problem{{"/a", "got number, want string"}, {"/b", "required property is missing"}}},
		{`{"propertyNames":{"maxLength":1}}`, `{"ab":1}`, []Problem{{"/ab", "property name maxLength: got 2, want 1"}}},
		{`{"patternProperties":{"^x":{"type":"string"}},"additionalProperties":false}`, `{"xa":1,"y":1}`,
			[]Problem{{"/xa", "got number, want string"}, {"/y", "property is not allowed"}}},
		{`{"anyOf":[{"type":"string"},{"minimum":5}]}`, `1`, []Problem{{"", "got number, want string"}, {"", "minimum: got 1, want 5"}}},
		{`{"oneOf":[{"minimum":0},{"maximum":10}]}`, `5`, []Problem{{"", "value matches oneOf subschemas 0, 1; want exactly one"}}},
		{`{"not":{"type":"null"}}`, `null`, []Problem{{"", "value must not match the 'not' schema"}}},
		{`{"if":{"required":["a"]},"then":{"required":["b"]},"else":{"required":["c"]}}`, `{"a":1}`, []Problem{{"/b", "required property is missing"}}},
		{`{"if":{"required":["a"]},"then":{"required":["b"]},"else":{"required":["c"]}}`, `{}`, []Problem{{"/c", "required property is missing"}}},
		{`{"$defs":{"n":{"type":"integer"}},"properties":{"a":{"$ref":"#/$defs/n"}},"$comment":"x"}`, `{"a":"x"}`,
			[]Problem{{"/a", "got string, want integer"}}},
		{`{"$defs":{"n":{"$anchor":"int","type":"integer"}},"properties":{"b":{"$ref":"#int"}}}`, `{"b":"y"}`, []Problem{{"/b", "got string, want integer"}}},
		{`{"$id":"https://example.com/s.json","$defs":{"n":{"type":"integer"}},"items":{"$ref":"s.json#/$defs/n"}}`, `["x"]`, []Problem{{"/0", "got string, want integer"}}},
		{`{"allOf":[{"properties":{"a":true}}],"unevaluatedProperties":false}`, `{"a":1,"b":2}`, []Problem{{"/b", "property is not allowed (unevaluatedProperties)"}}},
		{`{"anyOf":[{"properties":{"a":true},"required":["a"]},{"properties":{"b":true},"required":["b"]}],"unevaluatedProperties":false}`, `{"a":1,"b":2}`, nil},
		{`{"prefixItems":[true],"unevaluatedItems":{"type":"string"}}`, `[1,2]`, []Problem{{"/1", "got number, want string"}}},
		{`{"type":"integer","maximum":10}`, `1e999999999`, []Problem{{"", "maximum: got +Inf, want 10"}}},
		{`{"type":"number","exclusiveMinimum":0}`, `1e-400`, nil},
	} {
		s, err := Compile("test", []byte(tc.schema))
		if err != nil {
			t.Errorf("%s: %v", tc.schema, err)
			continue
		}
		if diff := cmp.Diff(tc.want, s.ValidateJSON([]byte(tc.doc))); diff != "" {
			t.Errorf("%s on %s (-want +got):\n%s", tc.schema, tc.doc, diff)
		}
	}
}

// TestCompileRefuses: what the package does not implement, and schemas the
// meta-schema would refuse, are errors naming the place and the reason.
func TestCompileRefuses(t *testing.T) {
	for schema, want := range map[string]string{
		`{"properties":{"a":{"type":"nonsense"}}}`:              "at /properties/a/type: 'nonsense' is not a JSON type",
		`{"$schema":"http://json-schema.org/draft-07/schema#"}`: "at /$schema: only draft 2020-12",
		`{"$defs":{"a":{"$dynamicRef":"#x"}}}`:                  "at /$defs/a/$dynamicRef: $dynamicRef is not supported",
		`{"items":{"$id":"https://example.com/x"}}`:             "at /items/$id: $id is only allowed at the root",
		`{"$ref":"#"}`: "$ref cycle",
		`{"$defs":{"a":{"$ref":"#/$defs/b"},"b":{"allOf":[{"$ref":"#/$defs/a"}]}},"$ref":"#/$defs/a"}`: "$ref cycle",
		`{"$ref":"#/$defs/missing"}`: "at /$ref: '#/$defs/missing' points at nothing",
		`{"$ref":"#nowhere"}`:        "at /$ref: '#nowhere' names no $anchor",
		`{"$ref":"other.json"}`:      "external schema references are not allowed: other.json",
		`{"minimum":"1"}`:            "at /minimum: must be a number",
		`{"minimum":1e2000}`:         "at /minimum: must be a number within ±1e1000",
		`{"multipleOf":0}`:           "at /multipleOf: must be greater than 0",
		`{"maxItems":-1}`:            "at /maxItems: must be a non-negative integer",
		`{"maxItems":1.5}`:           "at /maxItems: must be a non-negative integer",
		`{"pattern":"(a)\\1"}`:       "at /pattern: not a regular expression Go accepts",
		`{"required":["a","a"]}`:     "at /required: names 'a' twice",
		`{"allOf":[]}`:               "at /allOf: must be a non-empty array of schemas",
		`{"properties":{"a":1}}`:     "at /properties/a: a schema must be an object or a boolean, not integer",
		`{"$defs":{"a":{"$anchor":"x"},"b":{"$anchor":"x"}}}`: "the anchor 'x' is also defined at /$defs/a",
		`{"$anchor":"1x"}`:     "at /$anchor: '1x' is not an anchor name",
		`{"type":"object"} {}`: "not JSON",
	} {
		_, err := Compile("test", []byte(schema))
		if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), want) || !strings.HasPrefix(err.Error(), "schema: ") {
			t.Errorf("%s: got %v, want an ErrInvalid saying %q", schema, err, want)
		}
	}
}

// TestRecursiveSchema: recursion through properties is fine, and
// validation follows the document down.
func TestRecursiveSchema(t *testing.T) {
	s := MustCompile("tree", `{"$defs":{"node":{"type":"object","properties":{"kids":{"type":"array","items":{"$ref":"#/$defs/node"}}},"additionalProperties":false}},"$ref":"#/$defs/node"}`)
	got := s.ValidateJSON([]byte(`{"kids":[{"kids":[{"x":1}]},{"kids":1}]}`))
	want := []Problem{{"/kids/0/kids/0/x", "property is not allowed"}, {"/kids/1/kids", "got number, want array"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestApplyDefaults(t *testing.T) {
	s := MustCompile("d", `{"$defs":{"five":{"default":5}},"properties":{"n":{"$ref":"#/$defs/five"},"o":{"default":{"a":[1]},"properties":{"b":{"default":"x"}}},"p":{"type":"string"}},"allOf":[{"properties":{"q":{"default":true}}}]}`)
	v, err := Decode([]byte(`{"p":"kept"}`))
	if err != nil {
		t.Fatal(err)
	}
	s.ApplyDefaults(v)
	want := map[string]any{"n": json.Number("5"), "o": map[string]any{"a": []any{json.Number("1")}, "b": "x"}, "p": "kept", "q": true}
	if diff := cmp.Diff(want, v); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	// The default was copied: changing the document leaves the schema alone.
	v.(map[string]any)["o"].(map[string]any)["a"].([]any)[0] = "changed"
	v2, _ := Decode([]byte(`{}`))
	s.ApplyDefaults(v2)
	if got := v2.(map[string]any)["o"].(map[string]any)["a"].([]any)[0]; got != json.Number("1") {
		t.Errorf("the schema's default was changed through a document: %v", got)
	}
}

// TestValidationIsBounded: a schema whose references multiply the work
// (each definition an anyOf of two references to the next: 2^40
// evaluations of one value) is stopped at maxSteps with one problem,
// while a large ordinary document stays well within the budget.
func TestValidationIsBounded(t *testing.T) {
	defs := map[string]any{"d40": map[string]any{"type": "string"}}
	for i := range 40 {
		next := map[string]any{"$ref": fmt.Sprintf("#/$defs/d%d", i+1)}
		defs[fmt.Sprintf("d%d", i)] = map[string]any{"anyOf": []any{next, next}}
	}
	raw, err := json.Marshal(map[string]any{"$defs": defs, "$ref": "#/$defs/d0"})
	if err != nil {
		t.Fatal(err)
	}
	s, err := Compile("exponential", raw)
	if err != nil {
		t.Fatal(err)
	}
	got := s.ValidateJSON([]byte(`1`))
	if len(got) != 1 || !strings.Contains(got[0].Message, "validation stopped after 4000000 schema evaluations") {
		t.Errorf("an exponential schema: %v", got)
	}

	// 100,000 objects of three properties, about 1.5 MB of JSON.
	items := make([]string, 100_000)
	for i := range items {
		items[i] = fmt.Sprintf(`{"id":%d,"name":"n%d","tags":["a"]}`, i, i)
	}
	large := MustCompile("large", `{"type":"array","items":{"type":"object","properties":{"id":{"type":"integer","minimum":0},"name":{"type":"string"},"tags":{"type":"array","items":{"enum":["a","b"]}}},"required":["id","name"],"additionalProperties":false}}`)
	va := &validator{budget: maxSteps}
	doc, err := Decode([]byte("[" + strings.Join(items, ",") + "]"))
	if err != nil {
		t.Fatal(err)
	}
	if p, _ := va.eval(large.root, doc, nil); p != nil || va.over {
		t.Fatalf("a large valid document: %v", p)
	}
	t.Logf("a 1.5 MB document: %d evaluations", maxSteps-va.budget)
	if used := maxSteps - va.budget; used > maxSteps/5 {
		t.Errorf("a 1.5 MB document took %d of the %d evaluations; the budget is too tight", used, maxSteps)
	}
}

package schema

import (
	"bytes"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

var fuzzSchemas = []string{
	`{"type":"object","properties":{"name":{"type":"string","enum":["a","b"]},"n":{"type":"integer","minimum":1},"tags":{"type":"array","items":{"type":"string"}}},"required":["name","n"],"additionalProperties":false}`,
	`{"$defs":{"node":{"type":"object","properties":{"kids":{"type":"array","items":{"$ref":"#/$defs/node"}}}}},"$ref":"#/$defs/node"}`,
	`{"anyOf":[{"type":"string","maxLength":3},{"type":"number","multipleOf":0.5}]}`,
	`{"oneOf":[{"minimum":0},{"maximum":10}],"not":{"const":5}}`,
	`{"if":{"properties":{"k":{"const":"a"}}},"then":{"required":["a"]},"else":{"required":["b"]}}`,
	`{"prefixItems":[{"type":"integer"}],"items":false,"contains":{"type":"integer"},"maxContains":1,"uniqueItems":true}`,
	`{"patternProperties":{"^x-":{"type":"string"}},"propertyNames":{"pattern":"^[a-z-]+$"},"dependentRequired":{"a":["b"]},"dependentSchemas":{"c":{"minProperties":2}}}`,
	`{"exclusiveMinimum":0,"exclusiveMaximum":1e3,"type":["number","null"]}`,
	`true`, `false`, `{"$ref":"#"}`, `{"$ref":"https://example.com/s.json"}`, `{"unevaluatedProperties":false}`,
	`{"allOf":[{"properties":{"a":true}}],"anyOf":[{"properties":{"b":true}},{"required":["c"]}],"unevaluatedProperties":{"type":"string"}}`,
	`{"prefixItems":[true],"contains":{"const":2},"unevaluatedItems":false}`,
	`{"$id":"https://example.com/root.json","$defs":{"s":{"$anchor":"str","type":"string"}},"properties":{"a":{"$ref":"#str"},"b":{"$ref":"root.json#/$defs/s"}}}`,
}

var fuzzDocs = []string{
	`{"name":"a","n":2,"tags":["x"]}`, `{"name":"c","n":0,"tags":["x",3],"extra":true}`, `{}`, `[]`, `null`,
	`{"kids":[{"kids":[{}]},{"kids":1}]}`, `"abcd"`, `1.5`, `1.25`, `5`, `{"k":"a"}`, `{"k":"b","b":1}`,
	`[1,"x",1]`, `[1,2]`, `{"x-a":1,"A":2,"a":1,"c":1}`, `0`, `1e3`, `1e400`, `1e-400`, `12345678901234567890`,
}

// FuzzValidate compiles untrusted schemas and validates untrusted documents:
// nothing panics, problems come sorted with pointers into the document,
// and wherever the jsonschema library (the previous implementation, kept
// as a test oracle) also accepts the schema, both agree on whether the
// document is valid.
func FuzzValidate(f *testing.F) {
	for _, s := range fuzzSchemas {
		for _, d := range fuzzDocs {
			f.Add([]byte(s), []byte(d))
		}
	}
	f.Fuzz(func(t *testing.T, rawSchema, rawDoc []byte) {
		s, err := Compile("fuzz", rawSchema)
		if err != nil {
			return
		}
		doc, err := Decode(rawDoc)
		if err != nil {
			return
		}
		problems := s.Validate(doc)
		if !slices.IsSortedFunc(problems, func(a, b Problem) int { return strings.Compare(a.Pointer, b.Pointer) }) {
			t.Fatalf("problems not sorted: %v", problems)
		}
		for _, p := range problems {
			if p.Message == "" || (p.Pointer != "" && !strings.HasPrefix(p.Pointer, "/")) {
				t.Fatalf("malformed problem %+v", p)
			}
		}
		if hugeNumber(rawSchema) || hugeNumber(rawDoc) {
			return // compared as float64 here, exactly by the oracle
		}
		oracle, err := oracleCompile(rawSchema)
		if err != nil {
			return
		}
		oracleDoc, err := jsonschema.UnmarshalJSON(bytes.NewReader(rawDoc))
		if err != nil {
			return
		}
		if want := oracle.Validate(oracleDoc) == nil; (problems == nil) != want {
			t.Fatalf("schema %s, document %s: valid = %v, the oracle says %v; problems %v", rawSchema, rawDoc, problems == nil, want, problems)
		}
		s.ApplyDefaults(doc)
	})
}

// hugeNumber reports an exponent beyond maxExactExponent.
func hugeNumber(b []byte) bool { return hugeExponent.Match(b) }

var hugeExponent = regexp.MustCompile(`[eE][+-]?0*[1-9][0-9]{3,}`)

type refuseAll struct{}

func (refuseAll) Load(string) (any, error) { return nil, ErrInvalid }

func oracleCompile(raw []byte) (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.UseLoader(refuseAll{})
	if err := c.AddResource("urn:fuzz", doc); err != nil {
		return nil, err
	}
	return c.Compile("urn:fuzz")
}

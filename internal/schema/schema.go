// Package schema compiles JSON Schemas and validates JSON documents against
// them, reporting every problem with the JSON pointer of the value concerned.
// It is the one place skillkit uses github.com/santhosh-tekuri/jsonschema:
// tool arguments and compute-skill input and output are checked here.
//
// Schemas come from skills, which are untrusted: a schema can never load
// another resource ($ref to a file or URL fails), so compiling one reads
// nothing from the machine.
package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Schema is a compiled JSON Schema, safe for concurrent use.
type Schema struct {
	s *jsonschema.Schema
}

// Problem is one reason a document does not match a schema.
type Problem struct {
	Pointer string `json:"pointer"` // JSON pointer of the value, "" for the root
	Message string `json:"message"`
}

// String formats the problem as "at /path: message" ("at the root" for "").
func (p Problem) String() string {
	where := p.Pointer
	if where == "" {
		where = "the root"
	}
	return "at " + where + ": " + p.Message
}

// noLoader refuses every external resource.
type noLoader struct{}

func (noLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("schema: %s: external references are not allowed", url)
}

// Compile compiles a JSON Schema document (draft 2020-12 unless it says
// otherwise).
func Compile(raw []byte) (*Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("schema: not JSON: %w", err)
	}
	c := jsonschema.NewCompiler()
	c.UseLoader(noLoader{})
	const url = "urn:skillkit:schema"
	if err := c.AddResource(url, doc); err != nil {
		return nil, fmt.Errorf("schema: %w", err)
	}
	s, err := c.Compile(url)
	if err != nil {
		return nil, fmt.Errorf("schema: %w", err)
	}
	return &Schema{s: s}, nil
}

// MustCompile is Compile for schemas written in the program; it panics on an
// invalid one.
func MustCompile(raw string) *Schema {
	s, err := Compile([]byte(raw))
	if err != nil {
		panic(err)
	}
	return s
}

// ValidateJSON checks a JSON document. A document that is not JSON is one
// problem at the root.
func (s *Schema) ValidateJSON(raw []byte) []Problem {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return []Problem{{Message: "not valid JSON: " + err.Error()}}
	}
	return s.Validate(doc)
}

// Validate checks a decoded document (as jsonschema.UnmarshalJSON or
// encoding/json with UseNumber produce it) and returns every problem, sorted
// by pointer; none means valid.
func (s *Schema) Validate(doc any) []Problem {
	err := s.s.Validate(doc)
	if err == nil {
		return nil
	}
	var verr *jsonschema.ValidationError
	if !errors.As(err, &verr) {
		return []Problem{{Message: err.Error()}}
	}
	var out []Problem
	var walk func(u jsonschema.OutputUnit)
	walk = func(u jsonschema.OutputUnit) {
		if u.Error != nil && len(u.Errors) == 0 {
			out = append(out, Problem{Pointer: u.InstanceLocation, Message: u.Error.String()})
		}
		for _, c := range u.Errors {
			walk(c)
		}
	}
	walk(*verr.BasicOutput())
	if len(out) == 0 {
		out = append(out, Problem{Message: strings.TrimSpace(verr.Error())})
	}
	slices.SortStableFunc(out, func(a, b Problem) int { return strings.Compare(a.Pointer, b.Pointer) })
	return slices.Compact(out)
}

// Join formats problems as one message, one problem per line.
func Join(problems []Problem) string {
	lines := make([]string, len(problems))
	for i, p := range problems {
		lines[i] = p.String()
	}
	return strings.Join(lines, "\n")
}

// Decode is json.Unmarshal with numbers kept exact, the form Validate
// expects.
func Decode(raw []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	if d.More() {
		return nil, errors.New("more than one JSON value")
	}
	return v, nil
}

package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// maxDefaultDepth bounds how deep defaults are applied (and how many $ref
// hops are followed on the way), so a recursive schema costs bounded work.
const maxDefaultDepth = 32

// Schema is a compiled JSON Schema, safe for concurrent use.
type Schema struct {
	s *jsonschema.Schema
}

// Problem is one way a JSON value breaks a schema.
type Problem struct {
	// Pointer is the JSON pointer (RFC 6901) of the offending value, or of
	// the missing or unexpected property; "" is the whole value.
	Pointer string `json:"pointer"`
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
	return nil, fmt.Errorf("external schema references are not allowed: %s", url)
}

// Compile compiles a JSON Schema document. name identifies it in error
// messages (a skill and "input", say).
func Compile(name string, raw []byte) (*Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("not JSON: %w", err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.UseLoader(noLoader{})
	loc := "urn:skillkit:" + strings.NewReplacer("/", "%2F", "#", "%23", " ", "%20").Replace(name)
	if err := c.AddResource(loc, doc); err != nil {
		return nil, err
	}
	s, err := c.Compile(loc)
	if err != nil {
		return nil, err
	}
	return &Schema{s: s}, nil
}

// MustCompile is Compile for schemas written in the program; it panics on an
// invalid one.
func MustCompile(name, raw string) *Schema {
	s, err := Compile(name, []byte(raw))
	if err != nil {
		panic(err)
	}
	return s
}

// ValidateJSON checks a JSON document. A document that is not exactly one
// JSON value is one problem at the root.
func (s *Schema) ValidateJSON(raw []byte) []Problem {
	doc, err := Decode(raw)
	if err != nil {
		return []Problem{{Message: "not valid JSON: " + err.Error()}}
	}
	return s.Validate(doc)
}

var printer = message.NewPrinter(language.English)

// Validate checks a decoded document (as [Decode] returns it) and returns
// every problem, sorted by pointer; none means valid. A missing or
// unexpected property is pointed at by its own path.
func (s *Schema) Validate(doc any) []Problem {
	err := s.s.Validate(doc)
	if err == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return []Problem{{Message: err.Error()}}
	}
	var out []Problem
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) > 0 {
			for _, cause := range e.Causes {
				walk(cause)
			}
			return
		}
		switch k := e.ErrorKind.(type) {
		case *kind.Required:
			for _, name := range k.Missing {
				out = append(out, Problem{Pointer: pointer(append(slices.Clone(e.InstanceLocation), name)), Message: "required property is missing"})
			}
		case *kind.AdditionalProperties:
			for _, name := range k.Properties {
				out = append(out, Problem{Pointer: pointer(append(slices.Clone(e.InstanceLocation), name)), Message: "property is not allowed"})
			}
		default:
			out = append(out, Problem{Pointer: pointer(e.InstanceLocation), Message: e.ErrorKind.LocalizedString(printer)})
		}
	}
	walk(ve)
	slices.SortFunc(out, func(a, b Problem) int {
		if c := strings.Compare(a.Pointer, b.Pointer); c != 0 {
			return c
		}
		return strings.Compare(a.Message, b.Message)
	})
	return slices.Compact(out)
}

// pointer writes an RFC 6901 JSON pointer.
func pointer(tokens []string) string {
	var b strings.Builder
	for _, t := range tokens {
		b.WriteByte('/')
		b.WriteString(strings.ReplaceAll(strings.ReplaceAll(t, "~", "~0"), "/", "~1"))
	}
	return b.String()
}

// ApplyDefaults fills in the defaults of missing properties, at every depth
// where v has an object, following $ref and allOf. Defaults are copied, so
// the compiled schema is never changed.
func (s *Schema) ApplyDefaults(v any) { applyDefaults(s.s, v, 0) }

func applyDefaults(sch *jsonschema.Schema, v any, depth int) {
	obj, ok := v.(map[string]any)
	if sch == nil || !ok || depth > maxDefaultDepth {
		return
	}
	applyDefaults(sch.Ref, v, depth+1)
	for _, sub := range sch.AllOf {
		applyDefaults(sub, v, depth+1)
	}
	for name, prop := range sch.Properties {
		if _, present := obj[name]; !present {
			if d := defaultOf(prop); d != nil {
				obj[name] = deepCopy(*d)
			}
		}
		if child, present := obj[name]; present {
			applyDefaults(prop, child, depth+1)
		}
	}
}

// defaultOf is the schema's default, or that of the schema it refers to.
func defaultOf(sch *jsonschema.Schema) *any {
	for range maxDefaultDepth {
		if sch == nil || sch.Default != nil {
			break
		}
		sch = sch.Ref
	}
	if sch == nil {
		return nil
	}
	return sch.Default
}

func deepCopy(v any) any {
	switch t := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(t))
		for k, x := range t {
			m[k] = deepCopy(x)
		}
		return m
	case []any:
		s := make([]any, len(t))
		for i, x := range t {
			s[i] = deepCopy(x)
		}
		return s
	}
	return v
}

// Join formats problems as one message, one problem per line.
func Join(problems []Problem) string {
	lines := make([]string, len(problems))
	for i, p := range problems {
		lines[i] = p.String()
	}
	return strings.Join(lines, "\n")
}

// Decode reads exactly one JSON value, numbers kept exact as json.Number, the
// form Validate expects.
func Decode(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, errors.New("no JSON value")
		}
		return nil, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("more than one JSON value, or text after the value")
	}
	return v, nil
}

package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
)

// maxDefaultDepth bounds how deep defaults are applied (and how many $ref
// hops are followed on the way), so a recursive schema costs bounded work.
const maxDefaultDepth = 32

// Schema is a compiled JSON Schema, safe for concurrent use.
type Schema struct {
	root *node
	// annotate is set when the schema uses unevaluatedProperties or
	// unevaluatedItems, which need to know what the other keywords
	// evaluated; without them validation does not track it.
	annotate bool
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

// Compile compiles a JSON Schema document. name identifies it in error
// messages (a skill and "input", say). Errors wrap [ErrInvalid].
func Compile(name string, raw []byte) (*Schema, error) {
	doc, err := Decode(raw)
	if err != nil {
		return nil, fmt.Errorf("%w %s: not JSON: %v", ErrInvalid, name, err)
	}
	c := &compiler{name: name, root: doc, nodes: map[string]*node{}, anchors: map[string]string{}}
	root, err := c.compileAll()
	if err != nil {
		return nil, err
	}
	if err := c.checkCycles(); err != nil {
		return nil, err
	}
	annotate := false
	for _, n := range c.nodes {
		annotate = annotate || n.unevaluatedProperties != nil || n.unevaluatedItems != nil
	}
	return &Schema{root: root, annotate: annotate}, nil
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

// Validate checks a decoded document (as [Decode] returns it) and returns
// every problem, sorted by pointer; none means valid. A missing or
// unexpected property is pointed at by its own path. When no branch of an
// anyOf or oneOf matches, the problems of every branch are listed.
func (s *Schema) Validate(doc any) []Problem {
	return s.validate(doc, maxSteps)
}

func (s *Schema) validate(doc any, budget int) []Problem {
	va := &validator{annotate: s.annotate, budget: budget}
	out, _ := va.eval(s.root, doc, nil)
	if va.over {
		return []Problem{{Message: fmt.Sprintf("validation stopped after %d schema evaluations: the schema costs too much for this document", budget)}}
	}
	if out == nil {
		return nil
	}
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
func (s *Schema) ApplyDefaults(v any) { applyDefaults(s.root, v, 0) }

func applyDefaults(sch *node, v any, depth int) {
	obj, ok := v.(map[string]any)
	if sch == nil || !ok || depth > maxDefaultDepth {
		return
	}
	applyDefaults(sch.ref, v, depth+1)
	for _, sub := range sch.allOf {
		applyDefaults(sub, v, depth+1)
	}
	for _, name := range sch.propertyOrder {
		prop := sch.properties[name]
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
func defaultOf(sch *node) *any {
	for range maxDefaultDepth {
		if sch == nil || sch.def != nil {
			break
		}
		sch = sch.ref
	}
	if sch == nil {
		return nil
	}
	return sch.def
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

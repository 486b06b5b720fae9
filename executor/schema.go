package executor

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"slices"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/skillkit-go/skillkit/skill"
)

// maxDefaultDepth bounds how deep defaults are applied (and how many $ref
// hops are followed on the way), so a recursive schema costs bounded work.
const maxDefaultDepth = 32

// schemas compiles each skill's interface schemas once and keeps them while
// the schema text stays the same; a reloaded skill with a new schema
// replaces its entry, so the cache holds at most two entries per skill.
type schemas struct {
	mu      sync.Mutex
	entries map[schemaKey]*compiled
	printer *message.Printer
}

type schemaKey struct {
	skill  string
	output bool
}

type compiled struct {
	raw  string
	once sync.Once
	sch  *jsonschema.Schema
	err  error
}

func newSchemas() *schemas {
	return &schemas{entries: map[schemaKey]*compiled{}, printer: message.NewPrinter(language.English)}
}

// get returns the compiled schema, or nil when raw is empty.
func (c *schemas) get(skillName string, output bool, raw json.RawMessage) (*jsonschema.Schema, error) {
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil, nil
	}
	key := schemaKey{skillName, output}
	c.mu.Lock()
	e := c.entries[key]
	if e == nil || e.raw != string(raw) {
		e = &compiled{raw: string(raw)}
		c.entries[key] = e
	}
	c.mu.Unlock()
	e.once.Do(func() { e.sch, e.err = compileSchema(skillName, output, raw) })
	return e.sch, e.err
}

// noLoader refuses every external reference: a skill's schema may not make
// the host read files or fetch URLs. References inside the schema and to
// the standard meta-schemas still work.
type noLoader struct{}

// Load refuses u.
func (noLoader) Load(u string) (any, error) {
	return nil, fmt.Errorf("external schema references are not allowed: %s", u)
}

func compileSchema(skillName string, output bool, raw json.RawMessage) (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, err
	}
	which := "input"
	if output {
		which = "output"
	}
	loc := "urn:skillkit:skill:" + url.PathEscape(skillName) + ":" + which
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.UseLoader(noLoader{})
	if err := c.AddResource(loc, doc); err != nil {
		return nil, err
	}
	return c.Compile(loc)
}

// decodeJSON reads exactly one JSON value, numbers as json.Number.
func decodeJSON(data []byte) (any, error) {
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

// encodeJSON writes v compactly, without escaping <, > and &.
func encodeJSON(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// applyDefaults fills in the defaults of missing properties, at every depth
// where v has an object, following $ref and allOf. Defaults are copied, so
// the compiled schema is never changed.
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

// problems turns a validation error into its leaf problems with JSON
// pointers; a missing or unexpected property is pointed at by its own path.
func (c *schemas) problems(err error) []Problem {
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
			out = append(out, Problem{Pointer: pointer(e.InstanceLocation), Message: e.ErrorKind.LocalizedString(c.printer)})
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

// InputSchema returns the JSON Schema of a compute-entry skill's input:
// its interface.input, or {"type":"object"} when it declares none. A tool
// that offers the skill to a model shows it this schema.
func InputSchema(s *skill.Skill) json.RawMessage {
	if s != nil && s.Config != nil && len(bytes.TrimSpace(s.Config.Interface.Input)) > 0 {
		return slices.Clone(s.Config.Interface.Input)
	}
	return json.RawMessage(`{"type":"object"}`)
}

package executor

import (
	"bytes"
	"encoding/json"
	"slices"
	"sync"

	"github.com/skillkit-go/skillkit/internal/schema"
	"github.com/skillkit-go/skillkit/skill"
)

// schemas compiles each skill's interface schemas once and keeps them while
// the schema text stays the same; a reloaded skill with a new schema
// replaces its entry, so the cache holds at most two entries per skill.
type schemas struct {
	mu      sync.Mutex
	entries map[schemaKey]*compiled
}

type schemaKey struct {
	skill  string
	output bool
}

type compiled struct {
	raw  string
	once sync.Once
	sch  *schema.Schema
	err  error
}

func newSchemas() *schemas {
	return &schemas{entries: map[schemaKey]*compiled{}}
}

// get returns the compiled schema, or nil when raw is empty.
func (c *schemas) get(skillName string, output bool, raw json.RawMessage) (*schema.Schema, error) {
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
	which := "input"
	if output {
		which = "output"
	}
	e.once.Do(func() { e.sch, e.err = schema.Compile(skillName+"/"+which, raw) })
	return e.sch, e.err
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

// InputSchema returns the JSON Schema of a compute-entry skill's input:
// its interface.input, or {"type":"object"} when it declares none. A tool
// that offers the skill to a model shows it this schema.
func InputSchema(s *skill.Skill) json.RawMessage {
	if s != nil && s.Config != nil && len(bytes.TrimSpace(s.Config.Interface.Input)) > 0 {
		return slices.Clone(s.Config.Interface.Input)
	}
	return json.RawMessage(`{"type":"object"}`)
}

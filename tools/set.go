package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// DefaultMaxNameLength is the longest tool name a [Set] accepts when
// [SetOptions.MaxNameLength] is zero: the limit of the OpenAI and Anthropic
// APIs.
const DefaultMaxNameLength = 64

// ConfirmFunc asks the user whether one call of tool, with the model's
// arguments args, may run. It returns false when the user declines (the
// model is told, and the tool does not run) and an error when it could not
// ask (the error goes to the host, as a tool's Go error does).
type ConfirmFunc func(ctx context.Context, tool Tool, args json.RawMessage) (bool, error)

// SetOptions say what a framework accepts. A nil *SetOptions means names
// of at most [DefaultMaxNameLength] bytes made of ASCII letters, digits, _
// and -, and no tool that needs confirmation.
type SetOptions struct {
	// MaxNameLength is the longest tool name, in bytes; zero means
	// DefaultMaxNameLength (MCP allows 128).
	MaxNameLength int
	// NameSymbols are the characters a name may hold besides ASCII letters,
	// digits, _ and - (MCP adds ".").
	NameSymbols string
	// Confirm asks the user before each call of a tool whose
	// NeedsConfirmation is set; [NewSet] refuses such a tool without it.
	Confirm ConfirmFunc
}

// Set is a checked list of tools that answers the model's calls by name:
// the part every framework adapter shares. It is safe for concurrent use
// when the tools and the Confirm function are.
type Set struct {
	list    []Tool
	byName  map[string]Tool
	confirm ConfirmFunc
}

// NewSet checks ts and returns the Set that offers them, in the order
// given. It reports the first tool that a framework would refuse or that
// could not run: an empty, too long or badly spelled name, two tools of one
// name, a nil Invoke, an input schema that is not a JSON object whose type
// is "object", a tool that needs confirmation when opts has no Confirm.
func NewSet(ts []Tool, opts *SetOptions) (*Set, error) {
	if opts == nil {
		opts = &SetOptions{}
	}
	maxLen := opts.MaxNameLength
	if maxLen <= 0 {
		maxLen = DefaultMaxNameLength
	}
	s := &Set{byName: make(map[string]Tool, len(ts)), confirm: opts.Confirm}
	for _, t := range ts {
		if err := checkName(t.Name, maxLen, opts.NameSymbols); err != nil {
			return nil, err
		}
		if _, dup := s.byName[t.Name]; dup {
			return nil, fmt.Errorf("tools: two tools are named %q", t.Name)
		}
		if t.Invoke == nil {
			return nil, fmt.Errorf("tools: tool %s has no Invoke function", t.Name)
		}
		if _, err := t.SchemaObject(); err != nil {
			return nil, err
		}
		if t.NeedsConfirmation && opts.Confirm == nil {
			return nil, fmt.Errorf("tools: tool %s needs the user's confirmation and SetOptions.Confirm is nil", t.Name)
		}
		s.byName[t.Name] = t
		s.list = append(s.list, t)
	}
	return s, nil
}

func checkName(name string, maxLen int, symbols string) error {
	if name == "" {
		return errors.New("tools: a tool has no name")
	}
	if len(name) > maxLen {
		return fmt.Errorf("tools: tool name %.20q... is %d bytes long; the limit is %d", name, len(name), maxLen)
	}
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' || strings.ContainsRune(symbols, r)) {
			return fmt.Errorf("tools: tool name %q holds %q; allowed are letters, digits, _ and -%s", name, r, symbols)
		}
	}
	return nil
}

// SchemaObject decodes the input schema into a fresh map (a caller may
// change it), after checking that it is a JSON object whose type is
// "object", as every framework requires.
func (t Tool) SchemaObject() (map[string]any, error) {
	var schema map[string]any
	if err := json.Unmarshal(t.InputSchema, &schema); err != nil || schema == nil {
		return nil, fmt.Errorf("tools: tool %s: the input schema is not a JSON object", t.Name)
	}
	if schema["type"] != "object" {
		return nil, fmt.Errorf(`tools: tool %s: the input schema's type must be "object", not %v`, t.Name, schema["type"])
	}
	return schema, nil
}

// Tools returns the tools, in order.
func (s *Set) Tools() []Tool { return slices.Clone(s.list) }

// Tool returns the tool named name.
func (s *Set) Tool(name string) (Tool, bool) {
	t, ok := s.byName[name]
	return t, ok
}

// Call runs the tool named name with the model's arguments, a JSON object
// (empty or null means {}), after asking the user when the tool needs
// confirmation. The model's mistakes are IsError results it can act on: an
// unknown tool, arguments that are not JSON, a call the user declined,
// whatever the tool reports. A Go error from the tool or from Confirm goes
// to the host, wrapped with the tool's name.
func (s *Set) Call(ctx context.Context, name string, args json.RawMessage) (Result, error) {
	t, ok := s.byName[name]
	if !ok {
		names := make([]string, len(s.list))
		for i, t := range s.list {
			names[i] = t.Name
		}
		return Errorf("there is no tool named %q; the tools are: %s", name, strings.Join(names, ", ")), nil
	}
	args = bytes.TrimSpace(args)
	if len(args) == 0 || bytes.Equal(args, []byte("null")) {
		args = json.RawMessage("{}")
	}
	var v any
	if err := json.Unmarshal(args, &v); err != nil {
		return Errorf("the arguments for %s are not valid JSON (%v); send one JSON object that matches the tool's input schema", name, err), nil
	}
	if t.NeedsConfirmation {
		ok, err := s.confirm(ctx, t, args)
		if err != nil {
			return Result{}, fmt.Errorf("tools: %s: asking for confirmation: %w", name, err)
		}
		if !ok {
			return Errorf("the user did not confirm this call of %s, so it did not run; do not call it again unless the user asks", name), nil
		}
	}
	res, err := t.Invoke(ctx, args)
	if err != nil {
		return Result{}, fmt.Errorf("tools: %s: %w", name, err)
	}
	return res, nil
}

// RequireConfirmation returns a copy of ts in which the tools named in
// names need the user's confirmation before each call (NeedsConfirmation);
// a name no tool has is ignored, so a host may name execute_skill whether
// or not an agent gets it. A [Set] then asks through [SetOptions.Confirm].
func RequireConfirmation(ts []Tool, names ...string) []Tool {
	out := slices.Clone(ts)
	for i := range out {
		if slices.Contains(names, out[i].Name) {
			out[i].NeedsConfirmation = true
		}
	}
	return out
}

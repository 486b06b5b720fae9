package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/skillkit-go/skillkit/internal/schema"
	"github.com/skillkit-go/skillkit/skill"
)

// Tool is one tool the model can call, in a form any agent framework can
// adapt: a name, a description, a JSON Schema for the arguments (root type
// object) and a function that runs it.
type Tool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"input_schema"`
	// ReadOnly is true when the tool changes nothing (hosts may run such
	// tools without asking the user, or in parallel). read_skill and
	// read_skill_file are read-only.
	ReadOnly bool `json:"read_only"`
	// Destructive is true when a call may delete or replace what exists;
	// it means something only when ReadOnly is false. skill_manage is
	// destructive: it edits and deletes skills.
	Destructive bool `json:"destructive"`
	// OpenWorld is true when a call reaches beyond the skills themselves:
	// execute_skill runs a skill's code, which may use the network or
	// whatever its runner lets it reach.
	OpenWorld bool `json:"open_world"`
	// NeedsConfirmation is true when the host wants the user to confirm
	// every call before it runs (see [RequireConfirmation]); no built-in
	// tool sets it by itself. A [Set] asks through [SetOptions.Confirm].
	NeedsConfirmation bool `json:"needs_confirmation"`
	// Invoke runs the tool with the model's arguments. A mistake of the model
	// (unknown skill, bad path, invalid arguments) is a Result with IsError
	// set and a message the model can act on; a Go error is for the host
	// (I/O failure, cancelled context).
	Invoke func(ctx context.Context, args json.RawMessage) (Result, error) `json:"-"`
}

// Result is what a tool call returns to the model.
type Result struct {
	// Text is the answer for the model.
	Text string `json:"text"`
	// Structured is the same answer as JSON, for hosts that pass structured
	// tool results (MCP structuredContent, for instance); may be nil.
	Structured json.RawMessage `json:"structured,omitempty"`
	// IsError marks an answer that reports the model's mistake.
	IsError bool `json:"is_error,omitempty"`
}

// Errorf returns an IsError result with a formatted message.
func Errorf(format string, args ...any) Result {
	return Result{Text: fmt.Sprintf(format, args...), IsError: true}
}

// ErrorPrefix starts the text of a result that reports the model's mistake
// in frameworks whose tool results carry no error flag (see
// [Result.ModelText]).
const ErrorPrefix = "Error: "

// ModelText is the result as one text, for frameworks whose tool results
// have no error flag (OpenAI's tool messages, eino's InvokableTool,
// langchaingo's Tool): Text as it is for an answer, after [ErrorPrefix] for
// a mistake, so that the model cannot take the message for the tool's
// output. Frameworks with a flag (MCP's isError, Anthropic's is_error) get
// Text and IsError instead.
func (r Result) ModelText() string {
	if r.IsError {
		return ErrorPrefix + r.Text
	}
	return r.Text
}

// Lookup finds a skill by name. A loader snapshot, or the live loader to
// follow rescans, implements it.
type Lookup interface {
	Get(name string) (*skill.Skill, bool)
}

// newTool builds a Tool whose Invoke validates the arguments against the
// tool's own schema (compiled once, here) and decodes them into A before
// calling run. Every schema problem is reported to the model at once.
func newTool[A any](name, description string, inputSchema json.RawMessage, readOnly bool,
	run func(ctx context.Context, args A) (Result, error)) (Tool, error) {
	compiled, err := schema.Compile(name, inputSchema)
	if err != nil {
		return Tool{}, fmt.Errorf("tools: %s: %w", name, err)
	}
	destructive, openWorld := builtinHints(name)
	return Tool{
		Name:        name,
		Description: description,
		InputSchema: inputSchema,
		ReadOnly:    readOnly,
		Destructive: destructive,
		OpenWorld:   openWorld,
		Invoke: func(ctx context.Context, raw json.RawMessage) (Result, error) {
			if err := ctx.Err(); err != nil {
				return Result{}, err
			}
			if len(raw) == 0 {
				raw = json.RawMessage("{}")
			}
			if problems := compiled.ValidateJSON(raw); len(problems) > 0 {
				return Errorf("invalid arguments for %s:\n%s", name, schema.Join(problems)), nil
			}
			var args A
			if err := json.Unmarshal(raw, &args); err != nil {
				return Errorf("invalid arguments for %s: %v", name, err), nil
			}
			return run(ctx, args)
		},
	}, nil
}

// builtinHints gives the hints of the built-in tools beyond ReadOnly, in
// one place: skill_manage deletes and replaces skills, execute_skill runs a
// skill's code.
func builtinHints(name string) (destructive, openWorld bool) {
	switch name {
	case SkillManageName:
		return true, false
	case ExecuteSkillName:
		return false, true
	}
	return false, false
}

// objectSchema writes a JSON Schema for an object with the given properties
// (in order) and required names.
func objectSchema(props []property, required ...string) json.RawMessage {
	var b []byte
	b = append(b, `{"type":"object","properties":{`...)
	for i, p := range props {
		if i > 0 {
			b = append(b, ',')
		}
		key, val := marshal(p.name), marshal(p.schema)
		b = append(b, key...)
		b = append(b, ':')
		b = append(b, val...)
	}
	b = append(b, `},"required":`...)
	if required == nil {
		required = []string{}
	}
	b = append(b, marshal(required)...)
	b = append(b, `,"additionalProperties":false}`...)
	return b
}

// marshal writes JSON without escaping <, > and &, which tool descriptions
// use ("<available_skills>"); the values are the package's own.
func marshal(v any) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(err) // strings, maps of strings and slices always encode
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

type property struct {
	name   string
	schema map[string]any
}

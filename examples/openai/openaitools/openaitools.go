package openaitools

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/packages/param"
	"github.com/openai/openai-go/v3/responses"
	"github.com/openai/openai-go/v3/shared"
	"github.com/skillkit-go/skillkit/tools"
)

// MaxNameLength is the longest function name OpenAI accepts.
const MaxNameLength = 64

// ErrorPrefix starts the text of every error result sent to the model.
const ErrorPrefix = "Error: "

// Toolset is a checked list of tools, converted for OpenAI and dispatched
// by name. It is safe for concurrent use when the tools are.
type Toolset struct {
	list   []tools.Tool
	byName map[string]tools.Tool
	names  []string
}

// New checks ts (see the package documentation) and returns the Toolset
// that offers them, in the order given.
func New(ts []tools.Tool) (*Toolset, error) {
	s := &Toolset{byName: make(map[string]tools.Tool, len(ts))}
	for _, t := range ts {
		if err := checkName(t.Name); err != nil {
			return nil, err
		}
		if _, dup := s.byName[t.Name]; dup {
			return nil, fmt.Errorf("openaitools: two tools are named %q", t.Name)
		}
		if t.Invoke == nil {
			return nil, fmt.Errorf("openaitools: tool %s has no Invoke function", t.Name)
		}
		if _, err := parameters(t); err != nil {
			return nil, err
		}
		s.byName[t.Name] = t
		s.list = append(s.list, t)
		s.names = append(s.names, t.Name)
	}
	return s, nil
}

func checkName(name string) error {
	if name == "" {
		return errors.New("openaitools: a tool has no name")
	}
	if len(name) > MaxNameLength {
		return fmt.Errorf("openaitools: tool name %.20q... is %d bytes long; OpenAI allows %d", name, len(name), MaxNameLength)
	}
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
			return fmt.Errorf("openaitools: tool name %q holds %q; OpenAI allows letters, digits, _ and -", name, r)
		}
	}
	return nil
}

// parameters decodes t's input schema into the map the SDK sends, a fresh
// one on every call so that a caller may change it.
func parameters(t tools.Tool) (map[string]any, error) {
	var schema map[string]any
	if err := json.Unmarshal(t.InputSchema, &schema); err != nil || schema == nil {
		return nil, fmt.Errorf("openaitools: tool %s: the input schema is not a JSON object", t.Name)
	}
	if schema["type"] != "object" {
		return nil, fmt.Errorf(`openaitools: tool %s: the input schema's type must be "object", not %v`, t.Name, schema["type"])
	}
	return schema, nil
}

// ChatTools returns the tools as Chat Completions function tools, for
// openai.ChatCompletionNewParams.Tools.
func (s *Toolset) ChatTools() []openai.ChatCompletionToolUnionParam {
	out := make([]openai.ChatCompletionToolUnionParam, 0, len(s.list))
	for _, t := range s.list {
		schema, _ := parameters(t) // checked in New
		out = append(out, openai.ChatCompletionFunctionTool(shared.FunctionDefinitionParam{
			Name:        t.Name,
			Description: param.NewOpt(t.Description),
			Parameters:  shared.FunctionParameters(schema),
		}))
	}
	return out
}

// ResponsesTools returns the tools as Responses API function tools, for
// responses.ResponseNewParams.Tools.
func (s *Toolset) ResponsesTools() []responses.ToolUnionParam {
	out := make([]responses.ToolUnionParam, 0, len(s.list))
	for _, t := range s.list {
		schema, _ := parameters(t) // checked in New
		out = append(out, responses.ToolUnionParam{OfFunction: &responses.FunctionToolParam{
			Name:        t.Name,
			Description: param.NewOpt(t.Description),
			Parameters:  schema,
			Strict:      param.NewOpt(false),
		}})
	}
	return out
}

// Call runs the tool called name with the model's arguments, a JSON text
// (empty means {}). An unknown name or arguments that are not JSON are an
// IsError result for the model; a Go error from the tool is returned,
// wrapped with the tool's name.
func (s *Toolset) Call(ctx context.Context, name, arguments string) (tools.Result, error) {
	t, ok := s.byName[name]
	if !ok {
		return tools.Errorf("there is no tool named %q; the tools are: %s", name, strings.Join(s.names, ", ")), nil
	}
	args := bytes.TrimSpace([]byte(arguments))
	if len(args) == 0 {
		args = []byte("{}")
	}
	var v any
	if err := json.Unmarshal(args, &v); err != nil {
		return tools.Errorf("the arguments for %s are not valid JSON (%v); send one JSON object that matches the tool's parameters", name, err), nil
	}
	res, err := t.Invoke(ctx, args)
	if err != nil {
		return tools.Result{}, fmt.Errorf("%s: %w", name, err)
	}
	return res, nil
}

// Content is the text OpenAI gets for a result: the result's text, after
// [ErrorPrefix] when it reports an error, since OpenAI's tool messages have
// no error flag.
func Content(res tools.Result) string {
	if res.IsError {
		return ErrorPrefix + res.Text
	}
	return res.Text
}

// ChatToolMessage runs one tool call of an assistant message and returns
// the tool message that answers it. A call of a custom (non-function) tool
// is answered with an error text; only function tools are offered.
func (s *Toolset) ChatToolMessage(ctx context.Context, call openai.ChatCompletionMessageToolCallUnion) (openai.ChatCompletionMessageParamUnion, error) {
	var res tools.Result
	if call.Type != "function" {
		name := call.Custom.Name
		if name == "" {
			name = call.Function.Name
		}
		res = tools.Errorf("%q is a %s tool call; only function tools are offered: %s", name, call.Type, strings.Join(s.names, ", "))
	} else {
		var err error
		if res, err = s.Call(ctx, call.Function.Name, call.Function.Arguments); err != nil {
			return openai.ChatCompletionMessageParamUnion{}, err
		}
	}
	return openai.ToolMessage(Content(res), call.ID), nil
}

// ChatToolMessages answers every tool call of msg, in order, and returns the
// tool messages to append after msg (none when msg calls no tool). It stops
// at the first Go error.
func (s *Toolset) ChatToolMessages(ctx context.Context, msg openai.ChatCompletionMessage) ([]openai.ChatCompletionMessageParamUnion, error) {
	out := make([]openai.ChatCompletionMessageParamUnion, 0, len(msg.ToolCalls))
	for _, call := range msg.ToolCalls {
		m, err := s.ChatToolMessage(ctx, call)
		if err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, nil
}

// ResponsesOutput runs one function call of a response and returns the
// function_call_output item that answers it.
func (s *Toolset) ResponsesOutput(ctx context.Context, call responses.ResponseFunctionToolCall) (responses.ResponseInputItemUnionParam, error) {
	res, err := s.Call(ctx, call.Name, call.Arguments)
	if err != nil {
		return responses.ResponseInputItemUnionParam{}, err
	}
	item := responses.ResponseInputItemParamOfFunctionCallOutput(Content(res))
	item.OfFunctionCallOutput.CallID = param.NewOpt(call.CallID)
	return item, nil
}

// ResponsesOutputs answers every function_call item of resp, in order. Send
// them as the next request's input with PreviousResponseID set to resp.ID
// (or after resp's output items when the conversation is not stored). It
// stops at the first Go error.
func (s *Toolset) ResponsesOutputs(ctx context.Context, resp *responses.Response) ([]responses.ResponseInputItemUnionParam, error) {
	var out []responses.ResponseInputItemUnionParam
	for _, item := range resp.Output {
		if item.Type != "function_call" {
			continue
		}
		o, err := s.ResponsesOutput(ctx, item.AsFunctionCall())
		if err != nil {
			return nil, err
		}
		out = append(out, o)
	}
	return out, nil
}

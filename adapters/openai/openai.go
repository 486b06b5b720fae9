package openaitools

import (
	"context"
	"encoding/json"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/packages/param"
	"github.com/openai/openai-go/v3/responses"
	"github.com/openai/openai-go/v3/shared"
	"github.com/skillkit-go/skillkit/tools"
)

// MaxNameLength is the longest function name OpenAI accepts.
const MaxNameLength = 64

// Options tune [New]. A nil *Options means no tool needs confirmation.
type Options struct {
	// Confirm asks the user before each call of a tool whose
	// NeedsConfirmation is set (OpenAI's function tools have no hint for
	// it); New refuses such a tool without it.
	Confirm tools.ConfirmFunc
}

// Toolset is a checked list of tools, converted for OpenAI and dispatched
// by name. It is safe for concurrent use when the tools are.
type Toolset struct {
	set *tools.Set
}

// New checks ts (see the package documentation) and returns the Toolset
// that offers them, in the order given.
func New(ts []tools.Tool, opts *Options) (*Toolset, error) {
	if opts == nil {
		opts = &Options{}
	}
	set, err := tools.NewSet(ts, &tools.SetOptions{MaxNameLength: MaxNameLength, Confirm: opts.Confirm})
	if err != nil {
		return nil, err
	}
	return &Toolset{set: set}, nil
}

// ChatTools returns the tools as Chat Completions function tools, for
// openai.ChatCompletionNewParams.Tools.
func (s *Toolset) ChatTools() []openai.ChatCompletionToolUnionParam {
	list := s.set.Tools()
	out := make([]openai.ChatCompletionToolUnionParam, 0, len(list))
	for _, t := range list {
		schema, _ := t.SchemaObject() // checked in New
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
	list := s.set.Tools()
	out := make([]responses.ToolUnionParam, 0, len(list))
	for _, t := range list {
		schema, _ := t.SchemaObject() // checked in New
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
// (empty means {}); see [tools.Set.Call].
func (s *Toolset) Call(ctx context.Context, name, arguments string) (tools.Result, error) {
	return s.set.Call(ctx, name, json.RawMessage(arguments))
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
		res = tools.Errorf("%q is a %s tool call; only function tools are offered", name, call.Type)
	} else {
		var err error
		if res, err = s.Call(ctx, call.Function.Name, call.Function.Arguments); err != nil {
			return openai.ChatCompletionMessageParamUnion{}, err
		}
	}
	return openai.ToolMessage(res.ModelText(), call.ID), nil
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
	item := responses.ResponseInputItemParamOfFunctionCallOutput(res.ModelText())
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

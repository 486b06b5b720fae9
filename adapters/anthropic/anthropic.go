package anthropictools

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/skillkit-go/skillkit/tools"
)

// MaxNameLength is the longest tool name Anthropic accepts.
const MaxNameLength = 64

// Options tune [New]. A nil *Options means no tool needs confirmation.
type Options struct {
	// Confirm asks the user before each call of a tool whose
	// NeedsConfirmation is set (Anthropic's tool definitions have no hint
	// for it); New refuses such a tool without it.
	Confirm tools.ConfirmFunc
}

// Toolset is a checked list of tools, converted for Anthropic and
// dispatched by name. It is safe for concurrent use when the tools are.
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
	for _, t := range set.Tools() {
		if _, err := inputSchema(t); err != nil {
			return nil, err
		}
	}
	return &Toolset{set: set}, nil
}

// inputSchema splits t's JSON Schema into the SDK's input_schema fields, a
// fresh value on every call so that a caller may change it.
func inputSchema(t tools.Tool) (anthropic.ToolInputSchemaParam, error) {
	schema, err := t.SchemaObject()
	if err != nil {
		return anthropic.ToolInputSchemaParam{}, err
	}
	var out anthropic.ToolInputSchemaParam
	if props, ok := schema["properties"]; ok {
		out.Properties = props
	}
	if raw, ok := schema["required"]; ok {
		list, ok := raw.([]any)
		out.Required = make([]string, 0, len(list))
		for _, name := range list {
			s, isString := name.(string)
			ok = ok && isString
			out.Required = append(out.Required, s)
		}
		if !ok {
			return out, fmt.Errorf("anthropictools: tool %s: required must be a list of property names", t.Name)
		}
	}
	for key, v := range schema {
		if key == "type" || key == "properties" || key == "required" {
			continue
		}
		if out.ExtraFields == nil {
			out.ExtraFields = map[string]any{}
		}
		out.ExtraFields[key] = v
	}
	return out, nil
}

// Tools returns the tools as custom tools, for
// anthropic.MessageNewParams.Tools.
func (s *Toolset) Tools() []anthropic.ToolUnionParam {
	list := s.set.Tools()
	out := make([]anthropic.ToolUnionParam, 0, len(list))
	for _, t := range list {
		schema, _ := inputSchema(t) // checked in New
		tool := anthropic.ToolUnionParamOfTool(schema, t.Name)
		if t.Description != "" {
			tool.OfTool.Description = anthropic.String(t.Description)
		}
		out = append(out, tool)
	}
	return out
}

// Call runs the tool called name with the model's input, a JSON object
// (empty means {}); see [tools.Set.Call].
func (s *Toolset) Call(ctx context.Context, name string, input json.RawMessage) (tools.Result, error) {
	return s.set.Call(ctx, name, input)
}

// ResultBlock turns a tool's result into the tool_result block that answers
// the tool_use block with id toolUseID: Text as its text content (none when
// empty), IsError as is_error.
func ResultBlock(toolUseID string, res tools.Result) anthropic.ContentBlockParamUnion {
	if res.Text == "" {
		return anthropic.ContentBlockParamUnion{OfToolResult: &anthropic.ToolResultBlockParam{
			ToolUseID: toolUseID,
			IsError:   anthropic.Bool(res.IsError),
		}}
	}
	return anthropic.NewToolResultBlock(toolUseID, res.Text, res.IsError)
}

// ToolResult runs one tool_use block and returns the tool_result block that
// answers it.
func (s *Toolset) ToolResult(ctx context.Context, block anthropic.ToolUseBlock) (anthropic.ContentBlockParamUnion, error) {
	res, err := s.Call(ctx, block.Name, block.Input)
	if err != nil {
		return anthropic.ContentBlockParamUnion{}, err
	}
	return ResultBlock(block.ID, res), nil
}

// ToolResults answers every tool_use block of msg, in order, and returns the
// tool_result blocks; send them as the next user message,
// anthropic.NewUserMessage(blocks...), after msg.ToParam(). It returns none
// when msg uses no tool, and stops at the first Go error. Server tool
// blocks (server_tool_use) are run by Anthropic and are left alone.
func (s *Toolset) ToolResults(ctx context.Context, msg *anthropic.Message) ([]anthropic.ContentBlockParamUnion, error) {
	var out []anthropic.ContentBlockParamUnion
	for _, block := range msg.Content {
		if block.Type != "tool_use" {
			continue
		}
		b, err := s.ToolResult(ctx, block.AsToolUse())
		if err != nil {
			return nil, err
		}
		out = append(out, b)
	}
	return out, nil
}

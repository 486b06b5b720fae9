package anthropictools

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/skillkit-go/skillkit/tools"
)

// MaxNameLength is the longest tool name Anthropic accepts.
const MaxNameLength = 64

// Toolset is a checked list of tools, converted for Anthropic and
// dispatched by name. It is safe for concurrent use when the tools are.
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
			return nil, fmt.Errorf("anthropictools: two tools are named %q", t.Name)
		}
		if t.Invoke == nil {
			return nil, fmt.Errorf("anthropictools: tool %s has no Invoke function", t.Name)
		}
		if _, err := inputSchema(t); err != nil {
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
		return errors.New("anthropictools: a tool has no name")
	}
	if len(name) > MaxNameLength {
		return fmt.Errorf("anthropictools: tool name %.20q... is %d bytes long; Anthropic allows %d", name, len(name), MaxNameLength)
	}
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
			return fmt.Errorf("anthropictools: tool name %q holds %q; Anthropic allows letters, digits, _ and -", name, r)
		}
	}
	return nil
}

// inputSchema splits t's JSON Schema into the SDK's input_schema fields, a
// fresh value on every call so that a caller may change it.
func inputSchema(t tools.Tool) (anthropic.ToolInputSchemaParam, error) {
	var schema map[string]json.RawMessage
	if err := json.Unmarshal(t.InputSchema, &schema); err != nil || schema == nil {
		return anthropic.ToolInputSchemaParam{}, fmt.Errorf("anthropictools: tool %s: the input schema is not a JSON object", t.Name)
	}
	var typ any
	_ = json.Unmarshal(schema["type"], &typ)
	if typ != "object" {
		return anthropic.ToolInputSchemaParam{}, fmt.Errorf(`anthropictools: tool %s: the input schema's type must be "object", not %v`, t.Name, typ)
	}
	var out anthropic.ToolInputSchemaParam
	if raw, ok := schema["properties"]; ok {
		var props any
		if err := json.Unmarshal(raw, &props); err != nil {
			return out, fmt.Errorf("anthropictools: tool %s: properties: %w", t.Name, err)
		}
		out.Properties = props
	}
	if raw, ok := schema["required"]; ok {
		if err := json.Unmarshal(raw, &out.Required); err != nil {
			return out, fmt.Errorf("anthropictools: tool %s: required must be a list of property names", t.Name)
		}
	}
	for key, raw := range schema {
		if key == "type" || key == "properties" || key == "required" {
			continue
		}
		var v any
		if err := json.Unmarshal(raw, &v); err != nil {
			return out, fmt.Errorf("anthropictools: tool %s: %s: %w", t.Name, key, err)
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
	out := make([]anthropic.ToolUnionParam, 0, len(s.list))
	for _, t := range s.list {
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
// (empty means {}). An unknown name or input that is not JSON is an IsError
// result for the model; a Go error from the tool is returned, wrapped with
// the tool's name.
func (s *Toolset) Call(ctx context.Context, name string, input json.RawMessage) (tools.Result, error) {
	t, ok := s.byName[name]
	if !ok {
		return tools.Errorf("there is no tool named %q; the tools are: %s", name, strings.Join(s.names, ", ")), nil
	}
	args := bytes.TrimSpace(input)
	if len(args) == 0 {
		args = []byte("{}")
	}
	var v any
	if err := json.Unmarshal(args, &v); err != nil {
		return tools.Errorf("the input for %s is not valid JSON (%v); send one JSON object that matches the tool's input_schema", name, err), nil
	}
	res, err := t.Invoke(ctx, args)
	if err != nil {
		return tools.Result{}, fmt.Errorf("%s: %w", name, err)
	}
	return res, nil
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

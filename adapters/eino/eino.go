package einotools

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/compose"
	"github.com/cloudwego/eino/schema"
	"github.com/eino-contrib/jsonschema"
	"github.com/skillkit-go/skillkit/tools"
)

// Options tune [New]. A nil *Options means no tool needs confirmation.
type Options struct {
	// Confirm asks the user before each call of a tool whose
	// NeedsConfirmation is set; New refuses such a tool without it.
	Confirm tools.ConfirmFunc
}

// Toolset is a checked list of tools, each an Eino InvokableTool. It is
// safe for concurrent use when the tools are.
type Toolset struct {
	set   *tools.Set
	tools []tool.BaseTool
}

// Tool is one skillkit tool as an Eino InvokableTool.
type Tool struct {
	set  *tools.Set
	tool tools.Tool
}

var _ tool.InvokableTool = (*Tool)(nil)

// New checks ts (see the package documentation) and returns the Toolset
// that offers them, in the order given.
func New(ts []tools.Tool, opts *Options) (*Toolset, error) {
	if opts == nil {
		opts = &Options{}
	}
	set, err := tools.NewSet(ts, &tools.SetOptions{Confirm: opts.Confirm})
	if err != nil {
		return nil, err
	}
	out := &Toolset{set: set}
	for _, t := range set.Tools() {
		if _, err := convertSchema(t); err != nil {
			return nil, err
		}
		out.tools = append(out.tools, &Tool{set: set, tool: t})
	}
	return out, nil
}

// convertSchema decodes t's schema into Eino's JSON Schema type and checks
// that it encodes back to the same JSON value: that type has no room for
// keywords it does not know.
func convertSchema(t tools.Tool) (*jsonschema.Schema, error) {
	want, err := t.SchemaObject()
	if err != nil {
		return nil, err
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(t.InputSchema, &s); err != nil {
		return nil, fmt.Errorf("einotools: tool %s: %w", t.Name, err)
	}
	raw, err := json.Marshal(&s)
	if err != nil {
		return nil, fmt.Errorf("einotools: tool %s: %w", t.Name, err)
	}
	var got map[string]any
	if err := json.Unmarshal(raw, &got); err != nil {
		return nil, fmt.Errorf("einotools: tool %s: %w", t.Name, err)
	}
	if !reflect.DeepEqual(got, want) {
		return nil, fmt.Errorf("einotools: tool %s: Eino's JSON Schema type would change the input schema to %s", t.Name, raw)
	}
	return &s, nil
}

// Tools returns the tools, for compose.ToolsNodeConfig.Tools or an agent's
// tool list.
func (s *Toolset) Tools() []tool.BaseTool { return append([]tool.BaseTool(nil), s.tools...) }

// NodeConfig is the configuration of a ToolsNode that runs the tools and
// answers a call of a tool that does not exist with an error text for the
// model, instead of failing the run.
func (s *Toolset) NodeConfig() *compose.ToolsNodeConfig {
	return &compose.ToolsNodeConfig{
		Tools: s.Tools(),
		UnknownToolsHandler: func(ctx context.Context, name, input string) (string, error) {
			res, err := s.set.Call(ctx, name, json.RawMessage(input))
			return res.ModelText(), err
		},
	}
}

// Info describes the tool to the model, with its hints in Extra. It
// returns a fresh value on every call, so a caller may change it.
func (t *Tool) Info(context.Context) (*schema.ToolInfo, error) {
	s, err := convertSchema(t.tool) // checked in New
	if err != nil {
		return nil, err
	}
	return &schema.ToolInfo{
		Name: t.tool.Name,
		Desc: t.tool.Description,
		Extra: map[string]any{
			"read_only":          t.tool.ReadOnly,
			"destructive":        t.tool.Destructive,
			"open_world":         t.tool.OpenWorld,
			"needs_confirmation": t.tool.NeedsConfirmation,
		},
		ParamsOneOf: schema.NewParamsOneOfByJSONSchema(s),
	}, nil
}

// InvokableRun runs the tool with the model's JSON arguments. The model's
// mistakes come back as the answer, after "Error: "; the error is for the
// host's failures only.
func (t *Tool) InvokableRun(ctx context.Context, argumentsInJSON string, _ ...tool.Option) (string, error) {
	res, err := t.set.Call(ctx, t.tool.Name, json.RawMessage(argumentsInJSON))
	if err != nil {
		return "", err
	}
	return res.ModelText(), nil
}

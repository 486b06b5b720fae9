package mcpgotools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/skillkit-go/skillkit/tools"
)

// MaxNameLength is the longest tool name MCP allows.
const MaxNameLength = 128

// Options tune [ServerTools]. A nil *Options means no tool needs
// confirmation.
type Options struct {
	// Confirm asks the user before each call of a tool whose
	// NeedsConfirmation is set; ServerTools refuses such a tool without it.
	Confirm tools.ConfirmFunc
}

// ServerTools checks ts (see the package documentation) and returns them
// as mcp-go server tools, in the order given.
func ServerTools(ts []tools.Tool, opts *Options) ([]server.ServerTool, error) {
	if opts == nil {
		opts = &Options{}
	}
	set, err := tools.NewSet(ts, &tools.SetOptions{MaxNameLength: MaxNameLength, NameSymbols: ".", Confirm: opts.Confirm})
	if err != nil {
		return nil, err
	}
	var out []server.ServerTool
	for _, t := range set.Tools() {
		out = append(out, server.ServerTool{Tool: definition(t), Handler: handler(set, t.Name)})
	}
	return out, nil
}

// Add registers ts on s, replacing tools of the same names; it adds none
// when one is invalid.
func Add(s *server.MCPServer, ts []tools.Tool, opts *Options) error {
	if s == nil {
		return errors.New("mcpgotools: Add needs a server")
	}
	list, err := ServerTools(ts, opts)
	if err != nil {
		return err
	}
	s.AddTools(list...)
	return nil
}

// definition is the MCP tool for t; the schema goes out as the JSON given.
func definition(t tools.Tool) mcp.Tool {
	return mcp.Tool{
		Name:           t.Name,
		Description:    t.Description,
		RawInputSchema: t.InputSchema,
		Annotations:    Annotations(t),
	}
}

// Annotations maps t's hints to MCP's.
func Annotations(t tools.Tool) mcp.ToolAnnotation {
	a := mcp.ToolAnnotation{ReadOnlyHint: &t.ReadOnly, OpenWorldHint: &t.OpenWorld}
	if !t.ReadOnly {
		a.DestructiveHint = &t.Destructive
	}
	return a
}

// handler dispatches a tools/call to the Set.
func handler(set *tools.Set, name string) server.ToolHandlerFunc {
	return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		args := req.Params.RawArguments
		if len(args) == 0 && req.Params.Arguments != nil {
			var err error
			if args, err = json.Marshal(req.Params.Arguments); err != nil {
				return nil, fmt.Errorf("mcpgotools: %s: arguments: %w", name, err)
			}
		}
		res, err := set.Call(ctx, name, args)
		if err != nil {
			return nil, err
		}
		return CallResult(name, res)
	}
}

// CallResult converts a tool's result into an MCP tools/call result: Text
// as one text content block, Structured as structuredContent when present,
// IsError as isError. Structured that is not valid JSON is an error (the
// tool's fault, reported to the client as a protocol error).
func CallResult(name string, res tools.Result) (*mcp.CallToolResult, error) {
	out := &mcp.CallToolResult{
		Content: []mcp.Content{mcp.NewTextContent(res.Text)},
		IsError: res.IsError,
	}
	if len(res.Structured) > 0 {
		if !json.Valid(res.Structured) {
			return nil, fmt.Errorf("mcpgotools: %s returned structured content that is not valid JSON", name)
		}
		out.StructuredContent = res.Structured
	}
	return out, nil
}

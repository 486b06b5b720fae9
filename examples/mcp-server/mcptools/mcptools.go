package mcptools

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/skillkit-go/skillkit/tools"
)

// MaxNameLength is the longest tool name MCP allows.
const MaxNameLength = 128

// NewServer returns an MCP server called impl that offers ts. opts are the
// SDK's server options (nil for the defaults); set opts.Instructions to the
// skills catalog so that clients which pass server instructions to the model
// show it the available skills.
func NewServer(impl *mcp.Implementation, ts []tools.Tool, opts *mcp.ServerOptions) (*mcp.Server, error) {
	if impl == nil {
		return nil, errors.New("mcptools: NewServer needs an implementation name")
	}
	server := mcp.NewServer(impl, opts)
	if err := Add(server, ts...); err != nil {
		return nil, err
	}
	return server, nil
}

// Add registers ts on server, replacing tools of the same names. It checks
// every tool first (see [Check]) and adds none when one is invalid.
func Add(server *mcp.Server, ts ...tools.Tool) error {
	if server == nil {
		return errors.New("mcptools: Add needs a server")
	}
	if err := Check(ts); err != nil {
		return err
	}
	for _, t := range ts {
		server.AddTool(definition(t), handler(t))
	}
	return nil
}

// Check reports the first reason ts cannot be served over MCP: an empty,
// too long or badly spelled name (MCP allows letters, digits, _ - and .),
// two tools of one name, a nil Invoke, or an input schema that is not a
// JSON object of type "object" or that the SDK refuses.
func Check(ts []tools.Tool) error {
	seen := make(map[string]bool, len(ts))
	for _, t := range ts {
		if err := checkName(t.Name); err != nil {
			return err
		}
		if seen[t.Name] {
			return fmt.Errorf("mcptools: two tools are named %q", t.Name)
		}
		seen[t.Name] = true
		if t.Invoke == nil {
			return fmt.Errorf("mcptools: tool %s has no Invoke function", t.Name)
		}
		var schema struct {
			Type any `json:"type"`
		}
		if err := json.Unmarshal(t.InputSchema, &schema); err != nil {
			return fmt.Errorf("mcptools: tool %s: the input schema is not a JSON object: %w", t.Name, err)
		}
		if schema.Type != "object" {
			return fmt.Errorf(`mcptools: tool %s: the input schema's type must be "object", not %v`, t.Name, schema.Type)
		}
		if err := trySDK(t); err != nil {
			return err
		}
	}
	return nil
}

func checkName(name string) error {
	if name == "" {
		return errors.New("mcptools: a tool has no name")
	}
	if len(name) > MaxNameLength {
		return fmt.Errorf("mcptools: tool name %.20q... is %d bytes long; MCP allows %d", name, len(name), MaxNameLength)
	}
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' || r == '.') {
			return fmt.Errorf("mcptools: tool name %q holds %q; MCP allows letters, digits, _ - and .", name, r)
		}
	}
	return nil
}

// trySDK registers t on a throwaway server: the SDK panics on schemas it
// refuses (for instance bad x-mcp-header annotations), and that panic
// becomes an error here instead of a crash in Add.
func trySDK(t tools.Tool) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("mcptools: the MCP SDK refuses tool %s: %v", t.Name, r)
		}
	}()
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	mcp.NewServer(&mcp.Implementation{Name: "check"}, &mcp.ServerOptions{Logger: quiet}).AddTool(definition(t), handler(t))
	return nil
}

// definition is the MCP tool for t; the schema goes out as the JSON given.
func definition(t tools.Tool) *mcp.Tool {
	return &mcp.Tool{
		Name:        t.Name,
		Description: t.Description,
		InputSchema: t.InputSchema,
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: t.ReadOnly},
	}
}

// handler dispatches a tools/call to t.Invoke.
func handler(t tools.Tool) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var args json.RawMessage
		if req.Params != nil {
			args = req.Params.Arguments
		}
		if len(bytes.TrimSpace(args)) == 0 || bytes.Equal(bytes.TrimSpace(args), []byte("null")) {
			args = json.RawMessage("{}")
		}
		res, err := t.Invoke(ctx, args)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", t.Name, err)
		}
		return CallResult(t.Name, res)
	}
}

// CallResult converts a tool's result into an MCP tools/call result: Text
// as one text content block, Structured as structuredContent when present,
// IsError as isError. Structured that is not valid JSON is an error (the
// tool's fault, reported to the client as a protocol error).
func CallResult(name string, res tools.Result) (*mcp.CallToolResult, error) {
	out := &mcp.CallToolResult{
		Content: []mcp.Content{&mcp.TextContent{Text: res.Text}},
		IsError: res.IsError,
	}
	if len(res.Structured) > 0 {
		if !json.Valid(res.Structured) {
			return nil, fmt.Errorf("%s: the tool returned structured content that is not valid JSON", name)
		}
		out.StructuredContent = res.Structured
	}
	return out, nil
}

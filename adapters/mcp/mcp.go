package mcptools

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
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

// nameRules are MCP's: letters, digits, _ - and ., at most 128 bytes.
func nameRules(confirm tools.ConfirmFunc) *tools.SetOptions {
	return &tools.SetOptions{MaxNameLength: MaxNameLength, NameSymbols: ".", Confirm: confirm}
}

// Options tune [Add]. A nil *Options asks the client's user for
// confirmation through MCP elicitation.
type Options struct {
	// Confirm asks the user before each call of a tool whose
	// NeedsConfirmation is set, on the server's side (a console prompt, an
	// approval queue). Nil means asking the client's user: the call answers
	// with an elicitation input request (MCP's multi round-trip requests),
	// the client asks its user and calls again with the answer, and only
	// "accept" runs the tool. A client that did not declare the elicitation
	// capability cannot ask, so the call does not run.
	Confirm tools.ConfirmFunc
}

// NewServer returns an MCP server called impl that offers ts (see [Add]).
// opts are the SDK's server options (nil for the defaults); set
// opts.Instructions to the skills catalog so that clients which pass server
// instructions to the model show it the available skills.
func NewServer(impl *mcp.Implementation, ts []tools.Tool, opts *mcp.ServerOptions) (*mcp.Server, error) {
	if impl == nil {
		return nil, errors.New("mcptools: NewServer needs an implementation name")
	}
	server := mcp.NewServer(impl, opts)
	if err := Add(server, ts, nil); err != nil {
		return nil, err
	}
	return server, nil
}

// Add registers ts on server, replacing tools of the same names. It checks
// every tool first (see [Check]) and adds none when one is invalid.
func Add(server *mcp.Server, ts []tools.Tool, opts *Options) error {
	if server == nil {
		return errors.New("mcptools: Add needs a server")
	}
	if opts == nil {
		opts = &Options{}
	}
	confirm, elicit := opts.Confirm, opts.Confirm == nil
	if elicit {
		confirm = elicited
	}
	set, err := tools.NewSet(ts, nameRules(confirm))
	if err != nil {
		return err
	}
	for _, t := range set.Tools() {
		if err := trySDK(t); err != nil {
			return err
		}
	}
	for _, t := range set.Tools() {
		server.AddTool(definition(t), handler(set, t, elicit && t.NeedsConfirmation))
	}
	return nil
}

// Check reports the first reason ts cannot be served over MCP: what
// [tools.NewSet] refuses under MCP's name rules (letters, digits, _ - and
// ., at most 128 bytes), or an input schema the SDK refuses.
func Check(ts []tools.Tool) error {
	set, err := tools.NewSet(ts, nameRules(elicited))
	if err != nil {
		return err
	}
	for _, t := range set.Tools() {
		if err := trySDK(t); err != nil {
			return err
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
	mcp.NewServer(&mcp.Implementation{Name: "check"}, &mcp.ServerOptions{Logger: quiet}).AddTool(definition(t), func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) { return nil, nil })
	return nil
}

// definition is the MCP tool for t; the schema goes out as the JSON given.
func definition(t tools.Tool) *mcp.Tool {
	return &mcp.Tool{
		Name:        t.Name,
		Description: t.Description,
		InputSchema: t.InputSchema,
		Annotations: Annotations(t),
	}
}

// Annotations maps t's hints to MCP's. MCP takes an absent destructiveHint
// or openWorldHint for true, so both are always sent. MCP has no hint for
// NeedsConfirmation: the server has the call confirmed before it runs
// (see [Options.Confirm]).
func Annotations(t tools.Tool) *mcp.ToolAnnotations {
	a := &mcp.ToolAnnotations{ReadOnlyHint: t.ReadOnly, OpenWorldHint: &t.OpenWorld}
	if !t.ReadOnly {
		a.DestructiveHint = &t.Destructive
	}
	return a
}

// confirmID names the confirmation among a call's input requests.
const confirmID = "skillkit_confirm"

// confirmedKey carries the user's answer from handler to elicited.
type confirmedKey struct{}

// elicited is the Confirm function of a Set whose confirmations the
// handler obtains by elicitation: it returns the answer the handler found.
func elicited(ctx context.Context, _ tools.Tool, _ json.RawMessage) (bool, error) {
	ok, _ := ctx.Value(confirmedKey{}).(bool)
	return ok, nil
}

// handler dispatches a tools/call to the Set. With elicit, it first has
// the call confirmed by the client's user: it answers a call without the
// user's answer with an elicitation input request and a request state
// bound to the tool and its arguments, and runs the call again, with the
// answer, only when that state comes back unchanged. The state is not a
// secret: a client that forges it only forges its own user's consent.
func handler(set *tools.Set, t tools.Tool, elicit bool) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var args json.RawMessage
		var params mcp.CallToolParamsRaw
		if req.Params != nil {
			params = *req.Params
			args = params.Arguments
		}
		if elicit {
			confirmed := false
			if canElicit(req.Session) {
				state := confirmState(t.Name, args)
				answer, answered := params.InputResponses[confirmID].(*mcp.ElicitResult)
				if !answered || params.RequestState != state {
					return &mcp.CallToolResult{
						InputRequests: mcp.InputRequestMap{confirmID: &mcp.ElicitParams{
							Mode:            "form",
							Message:         fmt.Sprintf("Allow the model to call %s with %s?", t.Name, bytes.TrimSpace(args)),
							RequestedSchema: json.RawMessage(`{"type":"object","properties":{}}`),
						}},
						RequestState: state,
					}, nil
				}
				confirmed = answer.Action == "accept"
			}
			ctx = context.WithValue(ctx, confirmedKey{}, confirmed)
		}
		res, err := set.Call(ctx, t.Name, args)
		if err != nil {
			return nil, err
		}
		return CallResult(t.Name, res)
	}
}

// canElicit reports whether the client declared the elicitation capability.
func canElicit(ss *mcp.ServerSession) bool {
	p := ss.InitializeParams()
	return p != nil && p.Capabilities != nil && p.Capabilities.Elicitation != nil
}

// confirmState binds a confirmation to one call: the tool and its exact
// arguments.
func confirmState(name string, args json.RawMessage) string {
	sum := sha256.Sum256(append([]byte(name+"\x00"), bytes.TrimSpace(args)...))
	return "confirm:" + hex.EncodeToString(sum[:])
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
			return nil, fmt.Errorf("mcptools: %s returned structured content that is not valid JSON", name)
		}
		out.StructuredContent = res.Structured
	}
	return out, nil
}

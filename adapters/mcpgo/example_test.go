package mcpgotools_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	mcpgotools "github.com/skillkit-go/skillkit/adapters/mcpgo"
	"github.com/skillkit-go/skillkit/tools"
)

// A host adds its tools (here one hand-written tool; usually the Toolset of
// a skillkit Kit) to an mcp-go server, and a client calls them. A real
// server runs on server.ServeStdio instead of the in-process client.
func ExampleAdd() {
	greet := tools.Tool{
		Name:        "greet",
		Description: "Greets someone.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"who":{"type":"string"}},"required":["who"]}`),
		ReadOnly:    true,
		Invoke: func(_ context.Context, args json.RawMessage) (tools.Result, error) {
			var a struct{ Who string }
			if err := json.Unmarshal(args, &a); err != nil || a.Who == "" {
				return tools.Errorf("say who to greet"), nil
			}
			return tools.Result{Text: "Hello, " + a.Who + "!"}, nil
		},
	}
	ctx := context.Background()
	srv := server.NewMCPServer("example", "1", server.WithToolCapabilities(false))
	if err := mcpgotools.Add(srv, []tools.Tool{greet}, nil); err != nil {
		log.Fatal(err)
	}
	c, err := client.NewInProcessClient(srv)
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	if err := c.Start(ctx); err != nil {
		log.Fatal(err)
	}
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	if _, err := c.Initialize(ctx, init); err != nil {
		log.Fatal(err)
	}
	for _, args := range []map[string]any{{"who": "Ada"}, {}} {
		req := mcp.CallToolRequest{}
		req.Params.Name = "greet"
		req.Params.Arguments = args
		res, err := c.CallTool(ctx, req)
		if err != nil {
			log.Fatal(err)
		}
		text, _ := mcp.AsTextContent(res.Content[0])
		fmt.Println(text.Text, "isError:", res.IsError)
	}
	// Output:
	// Hello, Ada! isError: false
	// say who to greet isError: true
}

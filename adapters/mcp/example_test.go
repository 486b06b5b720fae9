package mcptools_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	mcptools "github.com/skillkit-go/skillkit/adapters/mcp"
	"github.com/skillkit-go/skillkit/tools"
)

// A host serves its tools (here one hand-written tool; usually read_skill,
// read_skill_file and execute_skill) and a client calls them. A real server
// runs on &mcp.StdioTransport{} instead of the in-memory pair.
func ExampleNewServer() {
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
	server, err := mcptools.NewServer(&mcp.Implementation{Name: "example", Version: "1"}, []tools.Tool{greet}, nil)
	if err != nil {
		log.Fatal(err)
	}
	serverSide, clientSide := mcp.NewInMemoryTransports()
	if _, err := server.Connect(ctx, serverSide, nil); err != nil {
		log.Fatal(err)
	}
	client, err := mcp.NewClient(&mcp.Implementation{Name: "client", Version: "1"}, nil).Connect(ctx, clientSide, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()

	for _, args := range []map[string]any{{"who": "Ada"}, {}} {
		res, err := client.CallTool(ctx, &mcp.CallToolParams{Name: "greet", Arguments: args})
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(res.Content[0].(*mcp.TextContent).Text, "isError:", res.IsError)
	}
	// Output:
	// Hello, Ada! isError: false
	// say who to greet isError: true
}

package mcptools_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/skillkit-go/skillkit"
	mcptools "github.com/skillkit-go/skillkit/adapters/mcp"
	"github.com/skillkit-go/skillkit/mcpskills"
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

// A host serves the skills of its folder through MCP's Skills extension,
// beside the skill tools: here to the SDK's own client, which lists them.
func ExampleNewSkillsServer() {
	ctx := context.Background()
	kit, err := skillkit.Open(ctx, skillkit.Options{Dir: "../../examples/skills", DisableSkillManage: true})
	if err != nil {
		log.Fatal(err)
	}
	defer kit.Close()
	agent := tools.Agent{Tools: []string{"bash"}}
	ts, err := kit.Toolset(ctx, agent)
	if err != nil {
		log.Fatal(err)
	}
	server, err := mcptools.NewSkillsServer(&mcp.Implementation{Name: "skills", Version: "1"}, ts.Tools,
		mcptools.KitSkills(kit, agent), &mcp.ServerOptions{Instructions: ts.Prompt}, nil)
	if err != nil {
		log.Fatal(err)
	}
	serverSide, clientSide := mcp.NewInMemoryTransports()
	if _, err := server.Connect(ctx, serverSide, nil); err != nil {
		log.Fatal(err)
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "client", Version: "1"}, nil)
	type listParams struct{ mcp.ParamsBase }
	type listResult struct {
		mcp.ResultBase
		Skills []mcpskills.Skill `json:"skills"`
	}
	if err := mcp.AddSendingCustomMethod[*listParams, *listResult](client, mcpskills.MethodList); err != nil {
		log.Fatal(err)
	}
	cs, err := client.Connect(ctx, clientSide, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer cs.Close()
	_, declared := cs.InitializeResult().Capabilities.Extensions[mcpskills.ExtensionID]
	fmt.Println("extension declared:", declared)
	res, err := mcp.CallCustomMethod[*listParams, *listResult](ctx, cs, mcpskills.MethodList, &listParams{})
	if err != nil {
		log.Fatal(err)
	}
	for _, s := range res.Skills {
		fmt.Println(s.URI, len(s.Resources.Files), "files")
	}
	// csv-tools and release-notes keep lists and mappings under metadata,
	// which Skills-extension clients reject: they are left out, and logged.

	// Output:
	// extension declared: true
	// skill://date-diff/SKILL.md 2 files
	// skill://word-stats/SKILL.md 2 files
}

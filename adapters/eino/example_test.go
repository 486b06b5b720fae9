package einotools_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"

	"github.com/cloudwego/eino/compose"
	"github.com/cloudwego/eino/schema"
	einotools "github.com/skillkit-go/skillkit/adapters/eino"
	"github.com/skillkit-go/skillkit/tools"
)

// A host gives its tools (here one hand-written tool; usually the Toolset
// of a skillkit Kit) to an Eino ToolsNode, which answers the tool calls of
// the model's message. The second call is a mistake: the model reads it.
func ExampleToolset_NodeConfig() {
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
	ts, err := einotools.New([]tools.Tool{greet}, nil)
	if err != nil {
		log.Fatal(err)
	}
	node, err := compose.NewToolNode(ctx, ts.NodeConfig())
	if err != nil {
		log.Fatal(err)
	}
	answers, err := node.Invoke(ctx, schema.AssistantMessage("", []schema.ToolCall{
		{ID: "call_1", Type: "function", Function: schema.FunctionCall{Name: "greet", Arguments: `{"who":"Ada"}`}},
		{ID: "call_2", Type: "function", Function: schema.FunctionCall{Name: "greet", Arguments: `{"who":""}`}},
	}))
	if err != nil {
		log.Fatal(err)
	}
	for _, m := range answers {
		fmt.Println(m.ToolCallID, m.Content)
	}
	// Output:
	// call_1 Hello, Ada!
	// call_2 Error: say who to greet
}

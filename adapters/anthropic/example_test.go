package anthropictools_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"

	"github.com/anthropics/anthropic-sdk-go/v2"
	anthropictools "github.com/skillkit-go/skillkit/adapters/anthropic"
	"github.com/skillkit-go/skillkit/tools"
)

// The model's reply (here decoded from JSON, as the SDK returns it) uses a
// tool twice, once by mistake; each tool_use gets its tool_result.
func ExampleToolset_ToolResults() {
	greet := tools.Tool{
		Name:        "greet",
		Description: "Greets someone.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"who":{"type":"string"}},"required":["who"]}`),
		Invoke: func(_ context.Context, args json.RawMessage) (tools.Result, error) {
			var a struct{ Who string }
			if err := json.Unmarshal(args, &a); err != nil || a.Who == "" {
				return tools.Errorf("say who to greet"), nil
			}
			return tools.Result{Text: "Hello, " + a.Who + "!"}, nil
		},
	}
	ts, err := anthropictools.New([]tools.Tool{greet}, nil)
	if err != nil {
		log.Fatal(err)
	}
	// Send ts.Tools() as anthropic.MessageNewParams.Tools; the reply is then:
	var msg anthropic.Message
	_ = json.Unmarshal([]byte(`{"role":"assistant","stop_reason":"tool_use","content":[
		{"type":"tool_use","id":"toolu_1","name":"greet","input":{"who":"Ada"}},
		{"type":"tool_use","id":"toolu_2","name":"greet","input":{}}]}`), &msg)

	blocks, err := ts.ToolResults(context.Background(), &msg)
	if err != nil {
		log.Fatal(err)
	}
	for _, b := range blocks {
		r := b.OfToolResult
		fmt.Println(r.ToolUseID, r.Content[0].OfText.Text, "is_error:", r.IsError.Value)
	}
	// The next request's messages: ..., msg.ToParam(), anthropic.NewUserMessage(blocks...)

	// Output:
	// toolu_1 Hello, Ada! is_error: false
	// toolu_2 say who to greet is_error: true
}

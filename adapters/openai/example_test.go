package openaitools_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"

	"github.com/openai/openai-go/v3"
	openaitools "github.com/skillkit-go/skillkit/adapters/openai"
	"github.com/skillkit-go/skillkit/tools"
)

// The model's reply (here decoded from JSON, as the SDK returns it) calls a
// tool twice, once by mistake; each call gets its tool message.
func ExampleToolset_ChatToolMessages() {
	greet := tools.Tool{
		Name:        "greet",
		Description: "Greets someone.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"who":{"type":"string"}},"required":["who"]}`),
		Invoke: func(_ context.Context, args json.RawMessage) (tools.Result, error) {
			var a struct{ Who string }
			_ = json.Unmarshal(args, &a)
			return tools.Result{Text: "Hello, " + a.Who + "!"}, nil
		},
	}
	ts, err := openaitools.New([]tools.Tool{greet}, nil)
	if err != nil {
		log.Fatal(err)
	}
	// Send ts.ChatTools() as openai.ChatCompletionNewParams.Tools; the reply's
	// message is then:
	var msg openai.ChatCompletionMessage
	_ = json.Unmarshal([]byte(`{"role":"assistant","tool_calls":[
		{"id":"call_1","type":"function","function":{"name":"greet","arguments":"{\"who\":\"Ada\"}"}},
		{"id":"call_2","type":"function","function":{"name":"greet","arguments":"{\"who\":"}}]}`), &msg)

	replies, err := ts.ChatToolMessages(context.Background(), msg)
	if err != nil {
		log.Fatal(err)
	}
	for _, r := range replies {
		fmt.Println(r.OfTool.ToolCallID, r.OfTool.Content.OfString.Value)
	}
	// Output:
	// call_1 Hello, Ada!
	// call_2 Error: the arguments for greet are not valid JSON (unexpected end of JSON input); send one JSON object that matches the tool's input schema
}

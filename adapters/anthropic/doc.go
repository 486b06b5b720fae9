// Package anthropictools connects skillkit's framework-neutral tools
// ([tools.Tool]) to the official Anthropic Go SDK
// (github.com/anthropics/anthropic-sdk-go) and its Messages API. Import it
// as github.com/skillkit-go/skillkit/adapters/anthropic; it is a module of
// its own, so the core skillkit module depends on no Anthropic SDK.
//
//   - [New] checks the tools once with [tools.NewSet]: Anthropic tool names
//     (letters, digits, _ and -, at most 64), no two of one name, an Invoke
//     function, and an input schema that is a JSON object of type "object"
//     whose "required", when present, is a list of names.
//   - [Toolset.Tools] gives each tool as a custom tool whose input_schema is
//     the tool's JSON Schema: properties and required in the SDK's fields,
//     every other keyword (additionalProperties, $defs, ...) carried as is.
//   - [Toolset.ToolResults] answers every tool_use block of the model's
//     message with a tool_result block, in order, for the next user message.
//   - The model's mistakes never fail a call: an unknown tool name, input
//     that is not JSON, and everything the tool itself reports as IsError
//     come back as a tool_result with is_error set, whose text the model
//     reads and can correct. An empty text is sent as a tool_result without
//     content (the API refuses empty text blocks). Structured results are not
//     sent: tool_result content holds text, images and documents, not JSON
//     values, and the text is the answer for the model.
//   - Anthropic's tool definitions carry no hints: ReadOnly, Destructive
//     and OpenWorld stay with the host. A tool whose NeedsConfirmation is
//     set runs only after [Options.Confirm] says yes; a declined call is a
//     tool_result with is_error set.
//   - A Go error from Invoke (an I/O failure, a cancelled context) is
//     returned to the host, which decides whether the conversation goes on.
package anthropictools

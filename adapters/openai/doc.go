// Package openaitools connects skillkit's framework-neutral tools
// ([tools.Tool]) to the official OpenAI Go SDK (github.com/openai/openai-go),
// for the Chat Completions API and the Responses API. Import it as
// github.com/skillkit-go/skillkit/adapters/openai; it is a module of its own,
// so the core skillkit module depends on no OpenAI SDK.
//
//   - [New] checks the tools once with [tools.NewSet]: OpenAI function
//     names (letters, digits, _ and -, at most 64), no two of one name, an
//     Invoke function, and an input schema that is a JSON object of type
//     "object".
//   - [Toolset.ChatTools] and [Toolset.ResponsesTools] give each tool as a
//     function tool whose parameters are the tool's JSON Schema, unchanged.
//     Strict mode is left off: it demands that every property be required,
//     and read_skill's task argument is optional.
//   - [Toolset.ChatToolMessages] answers every tool call of an assistant
//     message with a tool message; [Toolset.ResponsesOutputs] answers every
//     function_call of a response with a function_call_output item.
//   - The model's mistakes never fail a call: an unknown tool name, a custom
//     (non-function) tool call, arguments that are not JSON, and everything
//     the tool itself reports as IsError come back as text the model reads
//     and can correct. OpenAI's tool messages have no error flag, so such
//     text starts with "Error: " ([tools.Result.ModelText]). Structured
//     results are not sent: OpenAI takes text only, and the text is the
//     answer for the model.
//   - OpenAI's function tools carry no hints: ReadOnly, Destructive and
//     OpenWorld stay with the host, which may use them to decide what to
//     run in parallel or log. A tool whose NeedsConfirmation is set runs
//     only after [Options.Confirm] says yes; a declined call is an error
//     text for the model.
//   - A Go error from Invoke (an I/O failure, a cancelled context) is
//     returned to the host, which decides whether the conversation goes on.
package openaitools

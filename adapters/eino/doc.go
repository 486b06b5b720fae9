// Package einotools offers skillkit's framework-neutral tools ([tools.Tool])
// to CloudWeGo Eino (github.com/cloudwego/eino) as InvokableTools, for a
// ToolsNode, a ReAct agent or any graph that calls tools. Import it as
// github.com/skillkit-go/skillkit/adapters/eino; it is a module of its own,
// so the core skillkit module depends on no Eino package.
//
//   - [New] checks the tools once with [tools.NewSet]: names of letters,
//     digits, _ and - of at most 64 bytes (what the model APIs behind Eino's
//     chat models accept), no two of one name, an Invoke function, and an
//     input schema that is a JSON object of type "object" which Eino's
//     JSON Schema type carries without loss (New refuses a schema whose
//     keywords it would drop, rather than show the model another one).
//   - Each tool's [Tool.Info] gives its name, description and schema
//     (schema.NewParamsOneOfByJSONSchema), and its hints in Extra under
//     "read_only", "destructive", "open_world" and "needs_confirmation",
//     for hosts and middlewares that decide what to run or ask about; the
//     model does not see Extra.
//   - [Tool.InvokableRun] takes the model's JSON arguments. Eino ends the
//     whole run when a tool returns an error, so the model's mistakes (an
//     unknown skill, invalid input, a path outside the skill) are returned
//     as the tool's answer, text that starts with "Error: "
//     ([tools.Result.ModelText]); the model reads it and can correct
//     itself. Only a Go error of the tool (an I/O failure, a cancelled
//     context) is returned as an error.
//   - [Toolset.NodeConfig] is a compose.ToolsNodeConfig whose
//     UnknownToolsHandler answers a call of a tool that does not exist the
//     same way, instead of failing the run.
//   - A tool whose NeedsConfirmation is set runs only after
//     [Options.Confirm] says yes; a declined call is an error text for the
//     model.
package einotools

// Package mcpgotools serves skillkit's framework-neutral tools
// ([tools.Tool]) over the Model Context Protocol with mark3labs/mcp-go
// (github.com/mark3labs/mcp-go), for hosts built on that SDK; hosts on the
// official SDK use github.com/skillkit-go/skillkit/adapters/mcp. Import it
// as github.com/skillkit-go/skillkit/adapters/mcpgo; it is a module of its
// own, so the core skillkit module depends on no MCP SDK.
//
//   - [ServerTools] checks the tools once with [tools.NewSet] under MCP's
//     name rules (letters, digits, _ - and ., at most 128 bytes) and returns
//     them as server.ServerTool values for MCPServer.AddTools; [Add] does
//     both.
//   - The input schema goes out unchanged (RawInputSchema); annotations come
//     from the tool's hints: readOnlyHint, destructiveHint (for tools that
//     are not read-only) and openWorldHint, always sent, because MCP takes
//     an absent destructiveHint or openWorldHint for true.
//   - tools/call hands the raw arguments to [tools.Set.Call]. [CallResult]
//     turns the answer into one text content block, the structured content
//     when present, and the isError flag: the model sees its mistakes (an
//     unknown skill, invalid input) and can correct them. A Go error of the
//     tool is a protocol-level error for the client.
//   - A tool whose NeedsConfirmation is set runs only after
//     [Options.Confirm] says yes (a declined call is an isError result);
//     ServerTools refuses such a tool without it.
package mcpgotools

// Package mcptools serves skillkit's framework-neutral tools ([tools.Tool])
// over the Model Context Protocol with the official Go SDK
// (github.com/modelcontextprotocol/go-sdk).
//
// Each tool becomes one MCP tool:
//
//   - name and description as they are; the input schema passed through
//     unchanged, as the same JSON value (it must be a JSON object whose
//     "type" is "object", as MCP requires); annotations.readOnlyHint from
//     [tools.Tool.ReadOnly].
//   - tools/call hands the raw arguments to [tools.Tool.Invoke] (absent or
//     null arguments become {}); Invoke validates them against the schema.
//   - [tools.Result.Text] becomes one text content block,
//     [tools.Result.Structured] the structuredContent when present, and
//     [tools.Result.IsError] the isError flag: the model sees its mistake
//     and can correct it.
//   - A Go error from Invoke (an I/O failure, a cancelled request) is a
//     protocol-level JSON-RPC error for the client, not something the model
//     is asked to fix. So is a result whose Structured is not valid JSON.
//
// [Add] checks every tool before it registers any, so a bad tool is an
// error, never a panic inside the SDK and never a half-registered set.
package mcptools

// Command skillkit finds, validates, lists, installs and runs Agent Skills
// from a terminal: everything the skillkit library does for a host, for the
// person operating it.
//
//	skillkit validate [--strict] [--level error|warning|info] [--json] PATH...
//	skillkit inspect [--json] PATH...
//	skillkit scan [--json] PATH...
//	skillkit list [--json] [--tools a,b] [DIR...]
//	skillkit doctor [--json] [--level error|warning|info] [DIR...]
//	skillkit prompt [--format skillkit|agentskills] [--lang en|zh] [--tools a,b] [--skills a,b] [--max-chars N] [--json] [DIR...]
//	skillkit read NAME [--task T] [--file PATH] [--json] [DIR...]
//	skillkit run NAME [--input JSON | --input -] [--json]
//	skillkit install SOURCE [--ref R] [--path P] [--skill NAME] [--force] [--allow-host H] [--allow-file-urls]
//	skillkit uninstall NAME [--keep-secrets]
//	skillkit update [NAME | --all] [--force]
//	skillkit outdated
//	skillkit pin | unpin | enable | disable NAME
//	skillkit deps NAME [--setup] [--yes]
//	skillkit secrets set NAME KEY=VALUE... | list NAME | delete NAME KEY... | adopt NAME | rotate | import-legacy NAME BLOB
//	skillkit version [--json]
//	skillkit mcp (how to serve skills over MCP with skillkit-mcp, and install from MCP servers)
//
// install's SOURCE is a git URL, GitHub's OWNER/REPO, a ZIP file, a folder,
// a site publishing an Agent Skills discovery index (https://example.com),
// or an MCP server serving the Skills extension ('mcp+stdio:COMMAND ARG...',
// or -- mcp+stdio:COMMAND ARG...).
//
// Every command that works on a skills folder takes --dir (default
// $SKILLKIT_DIR, else ./skills); every command that prints data takes --json
// (snake_case keys); every command takes --quiet (only errors and the data
// asked for) and --verbose (debug lines). These go before or after the
// command; "--" ends the flags. "skillkit help COMMAND" describes one
// command, and docs/cli.md every command, flag and JSON shape. Exit codes: 0
// success, 1 errors found or the command failed, 2 bad usage.
//
// Built with -tags lean, the program links only what reading skills needs
// and starts almost as fast as a Go hello world: it runs help, version,
// validate and list itself and hands every other command to the full
// program ($SKILLKIT_FULL, else skillkit-full beside it, else on PATH);
// docs/cli.md, "A lean skillkit". The default build is the full program.
//
// Human output shows skill-supplied text with control characters escaped
// (\x1b, \u202e): a skill's description or instructions never reach the
// terminal raw. --json keeps every value exact. list and prompt say on
// stderr how many skill folders were not loaded and why; prompt also names
// the skills hidden from the agent and how the catalog was shortened.
package main

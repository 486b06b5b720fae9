// Package toolpolicy makes a skill's allowed-tools something a host can
// enforce: while a skill is active, calls of the host's own tools that its
// allowed-tools name may skip the host's confirmation (pre-approve), and,
// in the restrict mode, calls outside them are refused.
//
// A rule is a tool name, or a tool name with a specifier in parentheses,
// in the shape Claude Code's permission rules have:
//
//	Bash                      every shell command
//	Bash(git status)          exactly that command
//	Bash(npm run test:*)      "npm run test" and what follows it after a space
//	Bash(git * main)          * is any text, spaces included
//	Bash(ls *)                "ls" with or without arguments, not "lsof"
//	Read(./src/**)            a path pattern (gitignore style) from the working folder
//	Edit(/docs/**)            from the skill's own folder
//	Read(~/notes/*.md)        from the user's home
//	Read(//etc/hosts)         an absolute path
//	WebFetch(domain:go.dev)   requests to that host (*.go.dev: its subdomains)
//	mcp__github               every tool of the MCP server github
//	mcp__github__get_issue    one tool of it
//
// A shell command is judged part by part: a compound command (&&, ||, ;, |,
// &, a new line) is pre-approved only when every part is, and a part that
// substitutes a command ($(...), `...`, <(...)) or redirects to or from a
// file (beyond 2>&1 and /dev/null) never matches a rule. The wrappers
// timeout, nice and nohup are looked through. Paths are cleaned, not
// resolved: a symbolic link is judged by the path the call names.
//
// The host's dispatcher asks [Policy.Decide] before running a call of its
// own tools; [Policy.Activate] is called when the model reads a skill (the
// read_skill tool's OnActivate hook). The host's own deny rules come first:
// [Allow] only says the skill pre-approves the call.
package toolpolicy

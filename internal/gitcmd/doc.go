// Package gitcmd builds the git commands skillkit runs against
// repositories it does not trust, so every clone, fetch and ls-remote is
// hardened the same way.
//
// [Command] returns an executor.Command whose git reads no user or system
// configuration (HOME and XDG_CONFIG_HOME point at an empty folder of the
// operation, GIT_CONFIG_NOSYSTEM, GIT_CONFIG_GLOBAL=/dev/null), runs no
// hook (core.hooksPath=/dev/null), asks for no credential or password
// (an empty credential.helper, GIT_TERMINAL_PROMPT=0, no askpass), follows
// no redirect to another host, checks objects as they arrive, recurses
// into no submodule, fetches no LFS content, and speaks https only (and
// file with [Options].AllowFile), through both protocol.allow and
// GIT_ALLOW_PROTOCOL. The environment is otherwise empty but for PATH (on
// Windows also SystemRoot, TEMP and TMP) and the variables the host adds.
//
// [IsCommitID] and [LastLines] read what git prints: an object id, and the
// end of its error output made safe for a terminal.
package gitcmd

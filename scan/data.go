package scan

import (
	"path"
	"strings"
)

// Scripts hold attack strings as data: a guard's deny-list, a scanner's
// rule table, a test's hostile input. A command inside a string literal
// that the line keeps (an element of a table, a value under a name that
// says what the table is for, a regular expression, a test's fixture)
// documents what to look for; it weighs at most medium, like a command
// behind a comment. A literal on a line that also runs something, or one a
// shell would expand, weighs in full.

// dataName: a name that says a table holds patterns, not commands, by how
// it begins (dangerousCommands, lower-cased), a word of it (BLOCKED_CMDS) or
// how it ends (DENY_PATTERNS, rules); "latest" and "blockchain" are not.
var dataName = lazyRE(`^(?:deny|denied|blocked|blocklist|block_|forbid|danger|unsafe|risky|bad_|evil|malicious|suspicious|attack|threat|ioc|exploit|example|sample|fixture|test)`,
	`(?:^|_)(?:deny|blocked|forbidden|dangerous|unsafe|risky|bad|evil|malicious|suspicious)(?:_|$)`,
	`(?:patterns?|rules?|signatures?|regex(?:es)?|regexps?|denylist|blocklist|blacklist|examples?|samples?|fixtures?|cases?|iocs?)$`)

// tableOpen: a line that opens a named table (NAME = [, "name": {, NAME=( ...).
var tableOpen = lazyRE(`([a-z_][a-z0-9_]*)["']?\s*(?::|=|:=)\s*(?:[a-z_.]+\s*)?(?:\(\s*)?[\[({]\s*$`)

// lineName: the name a line assigns or keys, before its first literal.
var lineName = lazyRE(`([a-z_][a-z0-9_]*)["']?\s*(?::|=|:=|=>)\s*(?:[a-z_.]+\s*\(\s*|\$\{[a-z_][a-z0-9_]*:?[-=]\s*)?[rbu]?["'][^"']*$`)

// regexCall: the literal is a regular expression.
var regexCall = lazyRE(`(?:\bre\.(?:compile|search|match|findall|sub|fullmatch)\(|new\s+regexp\(|regexp\.(?:mustcompile|compile|matchstring)\(|\bregex\s*\(|%r\{)\s*[rbu]?$`)

// runWords: a line that names one of these may run what it holds.
var runWords = []string{"exec", "eval", "system", "popen", "subprocess", "spawn", "child_process", "shell", "run(", "call(",
	"check_output", "invoke-expression", "iex", "sh -c", "bash -c", "| sh", "| bash", "|sh", "|bash", "os.", "`"}

// trackTable keeps f.table, the name of the table a script's line is in.
func trackTable(f *fileState, lower string) {
	if f.table != "" {
		f.tableDepth += bracketDepth(lower)
		if f.tableDepth <= 0 {
			f.table = ""
		}
		return
	}
	if !strings.ContainsAny(lower, "[({") {
		return
	}
	if m := tableOpen().FindStringSubmatch(lower); m != nil {
		f.table, f.tableDepth = m[1], bracketDepth(lower)
	}
}

// isTestFile reports whether a script is a test: test folders and the
// usual test file names of the languages skills are written in.
func isTestFile(p string) bool {
	p = strings.ToLower(p)
	for _, seg := range strings.Split(path.Dir(p), "/") {
		switch seg {
		case "test", "tests", "__tests__", "spec", "specs", "testdata", "fixtures":
			return true
		}
	}
	base := path.Base(p)
	return strings.HasPrefix(base, "test_") || strings.Contains(base, "_test.") || strings.Contains(base, ".test.") ||
		strings.Contains(base, ".spec.") || strings.HasSuffix(strings.TrimSuffix(base, path.Ext(base)), "_spec")
}

// dataLiteral reports whether bytes start..end of a script's lower-cased
// line lie in a string literal kept as data.
func dataLiteral(f *fileState, lower string, start, end int) bool {
	if start < len(lower) && strings.IndexByte("\"'`", lower[start]) >= 0 {
		start++ // a pattern may begin at the opening quote
	}
	open, close := literalAround(lower, start)
	if open < 0 || close < end && strings.Trim(lower[close:end], "\"'`)]},; ") != "" {
		return false // a match may take the closing quote and brackets, nothing more
	}
	q := lower[open]
	lit := lower[open+1 : close]
	if q == '`' || q == '"' && (strings.Contains(lit, "$(") || strings.Contains(lit, "`")) {
		return false // a shell runs what it substitutes
	}
	if containsAny(outsideLiterals(lower), runWords) {
		return false
	}
	before := lower[:open+1]
	switch {
	case isTestFile(f.path):
		return true
	case f.table != "" && dataName().MatchString(f.table):
		return true
	case regexCall().MatchString(lower[:open]) || strings.HasPrefix(lit, "(?i)") || strings.HasPrefix(lit, "\\b"):
		return true
	}
	m := lineName().FindStringSubmatch(before)
	return m != nil && dataName().MatchString(m[1])
}

// literalAround returns the offsets of the quotes of the string literal of
// s that holds offset i, or -1.
func literalAround(s string, i int) (open, close int) {
	prev, next := -1, len(s) // the bytes outside quotes around i
	unquoted(s, "\"'`", func(k int, _ byte) bool {
		if k > i {
			next = k
			return false
		}
		prev = k
		return true
	})
	// Between prev and next lie only literals, one after another: walk
	// them to the one that holds i.
	for pos := prev + 1; pos < next && pos < i; {
		q, end := s[pos], pos+1
		for end < next && s[end] != q {
			if s[end] == '\\' {
				end++
			}
			end++
		}
		if end >= next {
			return -1, -1 // not closed
		}
		if end >= i {
			return pos, end
		}
		pos = end + 1
	}
	return -1, -1
}

// outsideLiterals is s without the contents of its string literals.
func outsideLiterals(s string) string {
	var b strings.Builder
	unquoted(s, "\"'`", func(_ int, c byte) bool {
		b.WriteByte(c)
		return true
	})
	return b.String()
}

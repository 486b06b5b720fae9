package scan

import (
	"fmt"
	"io/fs"
	"iter"
	"path"
	"slices"
	"strings"

	"github.com/skillkit-go/skillkit/skill"
)

// fileKind is what a file is, which decides the context of its lines.
type fileKind uint8

const (
	kindSkillFile fileKind = iota // SKILL.md
	kindDoc                       // Markdown and other prose
	kindScript                    // a program
	kindConfig                    // install-time configuration
	kindData                      // anything else
)

// Rule ids about files rather than their text.
const (
	ruleReadError     = "read-error"
	ruleScanLimit     = "scan-limit"
	ruleSymlinkEscape = "symlink-escape"
)

// skillScan is the state of one skill's scan.
type skillScan struct {
	s        *skill.Skill
	o        Options
	rules    *ruleSet
	findings []Finding
	files    []*fileState
	// attackDocs: the skill's name or description says it is about
	// security, so the attack strings in its documents are examples.
	attackDocs bool
	// declared are the environment variables the skill declares, lower
	// case; docHosts the hosts its documents name.
	declared map[string]bool
	docHosts map[string]bool
	// proseHosts are the hosts named in the prose of its documents and its
	// frontmatter (not in their code); documented the secret flows to
	// weigh against them when every file is read.
	proseHosts map[string]bool
	documented []documentedFlow
	// runs names the files config runs (entrypoint, setup scripts).
	runs    map[string]bool
	decoded int // decoded bytes scanned so far
}

// fileState is what the scan saw in one file, for the combinations.
type fileState struct {
	path  string
	kind  fileKind
	hits  []*hit
	hosts []string // hosts of the URLs in the file
	// hostLines are the first and last physical lines of the logical line
	// each of hosts is on.
	hostLines [][2]int
	env       []string // secret-looking environment variables the file reads
	// descLine is the line of SKILL.md's description key.
	descLine int
	// examples: a SKILL.md of a skill about security that presents its
	// code as patterns to find or examples not to run.
	examples bool
	// minified: a bundle of machine-written code no person reads.
	minified bool
	// table is the name of the table (a list, a map) the script's current
	// line is in, tableDepth how many brackets it has open.
	table      string
	tableDepth int
}

// first returns the file's first hit of the first id that has one: ids go
// from the most telling to the least.
func (f *fileState) first(ids ...string) *hit {
	for _, id := range ids {
		for _, h := range f.hits {
			if h.id == id {
				return h
			}
		}
	}
	return nil
}

func newSkillScan(s *skill.Skill, o Options) *skillScan {
	sc := &skillScan{s: s, o: o, rules: defaultRules(), declared: map[string]bool{}, docHosts: map[string]bool{}, proseHosts: map[string]bool{},
		runs: map[string]bool{}}
	if s == nil {
		return sc
	}
	sc.attackDocs = aboutSecurity(s.Name + " " + s.Description)
	// s.Env is the config's declaration when it has one; the frontmatter's
	// counts too, since a host may read either.
	for _, e := range s.Env {
		sc.declared[strings.ToLower(e.Name)] = true
	}
	for _, e := range s.Frontmatter.Env {
		sc.declared[strings.ToLower(e.Name)] = true
	}
	// OpenClaw declares what a skill needs set in metadata.openclaw.requires.env
	// and names its main key in primaryEnv: declarations all the same.
	for _, name := range append(slices.Clone(s.Frontmatter.Requires.Env), s.Frontmatter.PrimaryEnv) {
		if name != "" {
			sc.declared[strings.ToLower(name)] = true
		}
	}
	if c := s.Config; c != nil {
		for _, p := range []string{c.Entrypoint, c.Setup.Posix, c.Setup.Win32} {
			if clean, err := skill.CleanRelPath(p); err == nil {
				sc.runs[clean] = true
			}
		}
	}
	return sc
}

// securityWords in a skill's name or description mark a skill about
// security, whose documents quote attacks as examples.
var securityWords = []string{"security", "secure", "audit", "pentest", "penetration", "vulnerab", "exploit",
	"malware", "threat", "red team", "red-team", "attack", "adversarial", "prompt injection", "ctf", "forensic",
	"incident response", "hardening", "owasp", "yara", "siem", "cve", "phishing", "intrusion"}

// ruleUnreviewable: a file no person can review.
const ruleUnreviewable = "unreviewable"

// Minified code: at least this big, with lines this long on average.
const (
	minifiedMinBytes    = 32 << 10
	minifiedAvgLineSize = 1000
)

// isMinified reports whether a script is a minified bundle: large, with
// few and very long lines.
func isMinified(text string) bool {
	if len(text) < minifiedMinBytes {
		return false
	}
	return len(text)/(strings.Count(text, "\n")+1) >= minifiedAvgLineSize
}

// exampleMarker: SKILL.md says its code is something to look for, not to
// run.
var exampleMarker = lazyRE(`\b(?:never|do\s+not|don'?t)\s+(?:run|execute)\s+(?:them|these|this|it|the\s+(?:examples?|patterns?|snippets?|samples?))\b`,
	`\b(?:look|search|scan|grep|check)\s+(?:\w+\s+){0,3}?for\s+(?:\w+\s+){0,3}?(?:patterns?|signatures?|indicators?|phrases|strings|code\s+that)\b`,
	`\b(?:patterns?|examples?|signatures?|indicators?)\s+(?:to|that\s+you\s+should)\s+(?:detect|flag|find|look\s+for|catch|block)\b`,
	`\b(?:malicious|attack|suspicious)\s+(?:examples?|patterns?|samples?|snippets?)\b`)

func aboutSecurity(text string) bool {
	text = strings.ToLower(text)
	return slices.ContainsFunc(securityWords, func(w string) bool { return strings.Contains(text, w) })
}

func (sc *skillScan) add(f Finding) { sc.findings = append(sc.findings, f) }

// commentedOut reports whether the code at start of a line lies behind a
// line comment of the shells, Python, Ruby, PowerShell (#) or the C family
// (//): the line's first other characters are the marker. A #! line is a
// program's interpreter, not a comment.
func commentedOut(text string, start int) bool {
	if start > len(text) {
		return false
	}
	t := strings.TrimLeft(text[:start], " \t")
	return strings.HasPrefix(t, "#") && !strings.HasPrefix(t, "#!") || strings.HasPrefix(t, "//")
}

// record turns a hit into a finding (unless it is a signal) and keeps it
// for the combinations.
func (sc *skillScan) record(l *line, h *hit) {
	// A command in SKILL.md's code is what the model runs: the skill's
	// topic excuses it only when SKILL.md says its code shows what to look
	// for rather than what to do.
	h.final = weigh(h, sc.attackDocs && (h.ctx != CtxCode || h.kind != kindCommand || l.file.examples))
	if h.kind == kindCommand && commentedOut(l.text, h.start) && h.final > Medium {
		// A command behind a comment marker does not run: it documents.
		h.final = Medium
	}
	if (h.kind == kindCommand || h.kind == kindAccess) && h.final > Medium && l.ctx == CtxScript && l.decoded == "" &&
		dataLiteral(l.file, l.lower, h.start, h.end) {
		h.final, h.data = Medium, true // see dataLiteral
	}
	if l.file.minified && h.final > High {
		// A bundle holds libraries' code: a pattern in it is a lead for the
		// reviewer the unreviewable finding already calls, not proof.
		h.final = High
	}
	h.match = snippet(l.text, h.start, h.end)
	if l.decoded != "" {
		h.match = l.decoded + ": " + h.match
	}
	if l.decoded == strippedEncoding && slices.ContainsFunc(l.file.hits, func(o *hit) bool { return o.line == h.line && o.id == h.id }) {
		return // the line matched as written
	}
	l.file.hits = append(l.file.hits, h)
	if h.rule.signal || h.final == 0 {
		return
	}
	msg := h.msg
	if l.decoded != "" {
		msg += " (in text decoded from " + l.decoded + ")"
	}
	sc.add(Finding{Rule: h.id, Severity: h.final, File: l.file.path, Line: h.line, Match: h.match, Message: msg, Context: h.ctx})
}

// classify decides a file's kind from its path and first line.
func (sc *skillScan) classify(p, text string) fileKind {
	base := path.Base(p)
	lowerBase := strings.ToLower(base)
	ext := strings.ToLower(path.Ext(base))
	switch {
	case isSkillFile(p):
		return kindSkillFile
	case sc.runs[p], strings.HasPrefix(text, "#!"), slices.Contains(scriptExts, ext), slices.Contains(scriptNames, lowerBase):
		return kindScript
	case slices.Contains(configNames, lowerBase), strings.HasPrefix(lowerBase, "requirements") && (ext == ".txt" || ext == ".in"):
		return kindConfig
	case slices.Contains(docExts, ext):
		return kindDoc
	}
	return kindData
}

var (
	scriptExts = []string{".sh", ".bash", ".zsh", ".fish", ".ksh", ".py", ".pyw", ".js", ".mjs", ".cjs", ".ts", ".mts",
		".cts", ".jsx", ".tsx", ".rb", ".pl", ".pm", ".php", ".ps1", ".psm1", ".psd1", ".bat", ".cmd", ".vbs", ".vbe",
		".wsf", ".lua", ".r", ".jl", ".go", ".rs", ".java", ".kt", ".swift", ".c", ".cc", ".cpp", ".h", ".cs", ".scala",
		".applescript", ".command", ".tcl", ".awk", ".groovy", ".gradle", ".dart", ".ex", ".exs", ".nim", ".zig"}
	scriptNames = []string{"makefile", "dockerfile", "containerfile", "justfile", "rakefile", "gemfile", "setup.py", "noxfile.py", "conftest.py"}
	configNames = []string{skill.ConfigFileName, "package.json", "pyproject.toml", "setup.cfg", "pipfile", ".npmrc", ".yarnrc",
		".yarnrc.yml", "pip.conf", "pip.ini", ".pypirc", "environment.yml", "environment.yaml", "composer.json", "cargo.toml",
		"go.mod", "deno.json", "bunfig.toml", ".pnpmfile.cjs"}
	docExts = []string{".md", ".markdown", ".mdx", ".txt", ".rst", ".adoc", ".org", ".html", ".htm", ".tex"}
)

// scanFile scans one file's bytes.
func (sc *skillScan) scanFile(p string, data []byte, truncated bool) {
	text, isText := textOf(data)
	if !isText {
		sc.checkBinary(p, data)
		return
	}
	kind := sc.classify(p, text)
	f := &fileState{path: p, kind: kind}
	f.examples = kind == kindSkillFile && sc.attackDocs && exampleMarker().MatchString(lowerASCII(text))
	if kind == kindScript && isMinified(text) {
		f.minified = true
		sc.add(Finding{Rule: ruleUnreviewable, Severity: High, File: p, Context: CtxFile,
			Message: fmt.Sprintf("is a minified bundle of %d KB: no person can review what it does, so what it reaches is not weighed as certain", len(text)>>10)})
	}
	sc.files = append(sc.files, f)
	if truncated {
		sev := Low
		if kind == kindScript || kind == kindConfig || kind == kindSkillFile {
			sev = High
		}
		sc.add(Finding{Rule: ruleScanLimit, Severity: sev, File: p, Context: CtxFile,
			Message: fmt.Sprintf("only the first %d bytes were scanned", len(data))})
	}
	lines, lower := splitLines(text)
	ctxs := contexts(kind, lines)
	var l line
	for ll := range logicalLines(lines, ctxs) {
		l = line{num: ll.first + 1, ctx: ctxs[ll.first].context(), file: f, sc: sc}
		l.text, l.lower, l.starts = ll.join(lines, lower)
		if l.ctx == CtxInstructions || l.ctx == CtxDocs || l.ctx == CtxFrontmatter {
			l.code, l.quotes = proseSpans(l.text)
		}
		sc.scanLine(&l)
	}
	sc.flows(f, lines, lower, ctxs)
	// Hidden characters line by line, after the rules: the line read
	// without them reports only what the line as written did not.
	for i, t := range lines {
		if kind == kindSkillFile && ctxs[i] == lcFrontmatter && f.descLine == 0 && strings.HasPrefix(lower[i], "description:") {
			f.descLine = i + 1
		}
		if !mayHide(t) {
			continue
		}
		l = line{text: t, lower: lower[i], num: i + 1, ctx: ctxs[i].context(), file: f, sc: sc}
		sc.hiddenLine(&l)
	}
	if kind == kindConfig || kind == kindScript && path.Base(p) == "setup.py" {
		sc.checkDeps(f, p, text)
	}
}

// splitLines splits text into lines without their line ends (LF or CRLF),
// and gives each line's lower-cased form too: the whole text is
// lower-cased once (ASCII only, so offsets hold) and sliced where the text
// is.
func splitLines(text string) (lines, lower []string) {
	low := lowerASCII(text)
	n := strings.Count(text, "\n") + 1
	lines = make([]string, 0, n)
	same := low == text // no capitals: the lines are their lower-cased forms
	if !same {
		lower = make([]string, 0, n)
	}
	for start := 0; ; {
		end := len(text)
		if i := strings.IndexByte(text[start:], '\n'); i >= 0 {
			end = start + i
		}
		stop := end
		if stop > start && text[stop-1] == '\r' {
			stop--
		}
		lines = append(lines, text[start:stop])
		if !same {
			lower = append(lower, low[start:stop])
		}
		if end == len(text) {
			if same {
				lower = lines
			}
			return lines, lower
		}
		start = end + 1
	}
}

// scanLine runs the rules on a line, collects its hosts, and unwraps the
// encodings it holds.
func (sc *skillScan) scanLine(l *line) {
	if l.ctx == CtxScript && l.decoded == "" {
		trackTable(l.file, l.lower)
	}
	l.run(sc.rules)
	if strings.Contains(l.lower, "://") {
		for _, m := range urlHost().FindAllStringSubmatchIndex(l.lower, -1) {
			host := strings.Trim(l.lower[m[4]:m[5]], "[].")
			l.file.hosts = append(l.file.hosts, host)
			l.file.hostLines = append(l.file.hostLines, [2]int{l.num, l.lineAt(len(l.lower))})
			switch l.ctx {
			case CtxFrontmatter, CtxInstructions, CtxDocs:
				// A command in an inline code span is code, not prose.
				if !slices.ContainsFunc(l.code, func(c [2]int) bool { return m[0] >= c[0] && m[0] < c[1] }) {
					sc.proseHosts[host] = true
				}
				sc.docHosts[host] = true
			case CtxCode, CtxDocCode:
				sc.docHosts[host] = true
			}
		}
	}
	if l.depth < sc.o.MaxDecodeDepth {
		sc.decodeLine(l)
	}
}

// scanDecoded scans text found encoded in line l, as lines of l, within
// the decoded-bytes budget; scanLine decodes them further up to the depth
// limit.
func (sc *skillScan) scanDecoded(l *line, text, encoding string) {
	if sc.decoded+len(text) > sc.o.MaxDecodedBytes {
		return
	}
	sc.decoded += len(text)
	name := encoding
	if l.decoded != "" {
		name = l.decoded + " → " + encoding
	}
	for t := range strings.SplitSeq(text, "\n") {
		t = strings.TrimSuffix(t, "\r")
		if strings.TrimSpace(t) == "" {
			continue
		}
		d := &line{text: t, lower: lowerASCII(t), num: l.num, ctx: l.ctx, file: l.file, sc: sc, decoded: name, depth: l.depth + 1}
		sc.scanLine(d)
	}
}

// logicalLine is physical lines first..last read as one.
type logicalLine struct{ first, last int }

// Logical lines are bounded, so a file of one endless paragraph costs no
// more than its lines.
const (
	maxJoinedLines = 40
	maxJoinedBytes = 8 << 10
)

// join returns the text of the logical line, its physical lines joined by a
// space (a trailing backslash of a continued command dropped), the same of
// their lower-cased forms, and the offsets where the second and later lines
// start.
func (ll logicalLine) join(lines, lower []string) (text, low string, starts []int) {
	if ll.first == ll.last {
		return lines[ll.first], lower[ll.first], nil
	}
	text, starts = joinLines(lines[ll.first : ll.last+1])
	low = text
	for i := ll.first; i <= ll.last; i++ {
		// Quick: a line and its lower-cased form are the same memory when
		// the file has no capitals, else compared as memory.
		if lower[i] != lines[i] {
			low, _ = joinLines(lower[ll.first : ll.last+1])
			break
		}
	}
	return text, low, starts
}

// joinLines joins ls as join does, and says where each line after the
// first starts.
func joinLines(ls []string) (string, []int) {
	var b strings.Builder
	size := len(ls) - 1
	for _, t := range ls {
		size += len(t)
	}
	b.Grow(size)
	starts := make([]int, 0, len(ls)-1)
	for i, t := range ls {
		if i > 0 {
			b.WriteByte(' ')
			starts = append(starts, b.Len())
		}
		if i < len(ls)-1 {
			t = strings.TrimSuffix(strings.TrimRight(t, " \t"), "\\")
		}
		b.WriteString(t)
	}
	return b.String(), starts
}

// logicalLines groups lines: prose into paragraphs (a wrapped sentence is
// read whole), frontmatter values with their indented continuations, and
// commands continued with a trailing backslash. Code and data lines stand
// alone otherwise.
func logicalLines(lines []string, ctxs []lineCtx) iter.Seq[logicalLine] {
	return func(yield func(logicalLine) bool) {
		for i := 0; i < len(lines); {
			ll := logicalLine{first: i, last: i}
			size := len(lines[i])
			for ll.last+1 < len(lines) && ll.last-ll.first < maxJoinedLines && size < maxJoinedBytes &&
				continues(lines[ll.last], lines[ll.last+1], ctxs[ll.last].context(), ctxs[ll.last+1].context()) {
				ll.last++
				size += len(lines[ll.last])
			}
			if !yield(ll) {
				return
			}
			i = ll.last + 1
		}
	}
}

// mayHide reports whether a line can hold a hidden character: it has a
// byte outside printable ASCII.
func mayHide(t string) bool {
	for i := 0; i < len(t); i++ {
		if c := t[i]; c >= 0x7f || c < 0x20 && c != '\t' {
			return true
		}
	}
	return false
}

// continues reports whether next belongs to the logical line cur ends.
func continues(cur, next string, ctx, nextCtx Context) bool {
	if ctx != nextCtx {
		return false
	}
	switch ctx {
	case CtxCode, CtxDocCode, CtxScript, CtxConfig:
		return strings.HasSuffix(strings.TrimRight(cur, " \t"), "\\")
	case CtxFrontmatter:
		return next != "" && (next[0] == ' ' || next[0] == '\t') && strings.TrimSpace(next) != "---"
	case CtxInstructions, CtxDocs, CtxComment:
		if strings.TrimSpace(cur) == "" || strings.TrimSpace(next) == "" {
			return false
		}
		return !startsBlock(next)
	}
	return false
}

// startsBlock reports whether a Markdown line starts a block of its own:
// after spaces, a heading, a list item, a table row, a quote, a comment or
// a fence.
func startsBlock(line string) bool {
	t := strings.TrimLeft(line, spaceChars)
	if t == "" {
		return false
	}
	switch t[0] {
	case '#', '|', '>':
		return true
	case '-', '*', '+':
		return len(t) > 1 && strings.IndexByte(spaceChars, t[1]) >= 0
	}
	if strings.HasPrefix(t, "<!--") || strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
		return true
	}
	digits := len(t) - len(strings.TrimLeft(t, "0123456789"))
	return digits > 0 && len(t) > digits+1 && (t[digits] == '.' || t[digits] == ')') &&
		strings.IndexByte(spaceChars, t[digits+1]) >= 0
}

// lineCtx is a line's context as a byte, an index in lineContexts: a file
// holds one per line, and a Context is a string of 16 bytes.
type lineCtx uint8

const (
	lcFrontmatter lineCtx = iota
	lcInstructions
	lcCode
	lcComment
	lcDocs
	lcDocCode
	lcScript
	lcConfig
	lcData
)

var lineContexts = [...]Context{lcFrontmatter: CtxFrontmatter, lcInstructions: CtxInstructions, lcCode: CtxCode,
	lcComment: CtxComment, lcDocs: CtxDocs, lcDocCode: CtxDocCode, lcScript: CtxScript, lcConfig: CtxConfig, lcData: CtxData}

func (c lineCtx) context() Context { return lineContexts[c] }

// contexts gives each line of a file its context.
func contexts(kind fileKind, lines []string) []lineCtx {
	ctxs := make([]lineCtx, len(lines))
	fill := func(c lineCtx) []lineCtx {
		for i := range ctxs {
			ctxs[i] = c
		}
		return ctxs
	}
	switch kind {
	case kindScript:
		return fill(lcScript)
	case kindConfig:
		return fill(lcConfig)
	case kindData:
		return fill(lcData)
	}
	prose, code := lcDocs, lcDocCode
	start := 0
	if kind == kindSkillFile {
		prose, code = lcInstructions, lcCode
		if len(lines) > 0 && strings.TrimRight(lines[0], " \t\r") == "---" {
			ctxs[0] = lcFrontmatter
			for i := 1; i < len(lines); i++ {
				ctxs[i] = lcFrontmatter
				if strings.TrimRight(lines[i], " \t\r") == "---" {
					start = i + 1
					break
				}
			}
			if start == 0 { // unclosed: all frontmatter
				return ctxs
			}
		}
	}
	var fence string // the open fence's marker, or ""
	comment := false
	for i := start; i < len(lines); i++ {
		t := strings.TrimRight(lines[i], " \t\r")
		trimmed := strings.TrimLeft(t, " ")
		switch {
		case fence != "":
			ctxs[i] = code
			if strings.HasPrefix(trimmed, fence) && strings.Trim(trimmed, fence[:1]) == "" {
				fence = ""
			}
		case comment:
			ctxs[i] = lcComment
			comment = !strings.Contains(t, "-->")
		case len(t)-len(trimmed) <= 3 && (strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~")):
			ctxs[i] = code
			fence = trimmed[:len(trimmed)-len(strings.TrimLeft(trimmed, trimmed[:1]))]
		case strings.Contains(t, "<!--"):
			ctxs[i] = lcComment
			comment = !strings.Contains(t[strings.Index(t, "<!--"):], "-->")
		default:
			ctxs[i] = prose
		}
	}
	return ctxs
}

// proseSpans finds the inline code spans (backticks) and quoted spans
// (straight or curly double quotes) of a prose line.
func proseSpans(t string) (code, quotes [][2]int) {
	if strings.IndexByte(t, '`') >= 0 {
		for i := 0; i < len(t); {
			j := strings.IndexByte(t[i:], '`')
			if j < 0 {
				break
			}
			j += i
			n := j
			for n < len(t) && t[n] == '`' {
				n++
			}
			ticks := t[j:n]
			k := strings.Index(t[n:], ticks)
			if k < 0 {
				break
			}
			code = append(code, [2]int{n, n + k})
			i = n + k + len(ticks)
		}
	}
	if strings.IndexByte(t, '"') >= 0 || strings.Contains(t, "“") {
		open := -1
		for i, r := range t {
			switch r {
			case '"', '“', '”':
				if open < 0 && r != '”' {
					open = i
				} else if open >= 0 && r != '“' {
					quotes = append(quotes, [2]int{open, i})
					open = -1
				}
			}
		}
	}
	return code, quotes
}

// checkLink reports a symbolic link that leads outside the skill folder.
func (sc *skillScan) checkLink(fsys fs.FS, p string) {
	target, err := fs.ReadLink(fsys, p)
	if err != nil {
		sc.add(Finding{Rule: ruleSymlinkEscape, Severity: Medium, File: p, Context: CtxFile,
			Message: "is a symbolic link whose target cannot be read; it was not followed"})
		return
	}
	t := strings.ReplaceAll(target, "\\", "/")
	inside := !path.IsAbs(t) && !strings.HasPrefix(path.Clean(path.Join(path.Dir(p), t)), "../") &&
		path.Clean(path.Join(path.Dir(p), t)) != ".."
	if inside {
		return
	}
	f := Finding{Rule: ruleSymlinkEscape, Severity: High, File: p, Context: CtxFile, Match: Visible(target),
		Message: "is a symbolic link that leads outside the skill folder"}
	if credentialPath().MatchString(lowerASCII(t)) {
		f.Severity = Critical
		f.Message = "is a symbolic link to a credential store outside the skill folder"
	}
	sc.add(f)
}

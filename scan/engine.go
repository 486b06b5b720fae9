package scan

import (
	"math/bits"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"
)

// ruleKind says how a rule's weight depends on where it matches.
type ruleKind uint8

const (
	// kindCommand: harmful when run. Full weight in scripts, config and
	// SKILL.md (whose code blocks the model runs); one step less in other
	// documents and data, which describe.
	kindCommand ruleKind = iota
	// kindPhrase: steers a model. Full weight in prose the model reads; one
	// step less when quoted or in code; one step more in an HTML comment,
	// which only the model sees.
	kindPhrase
	// kindIndicator: the same weight everywhere (hidden characters, mining
	// pools, binaries).
	kindIndicator
	// kindAccess: names a sensitive place. Full weight in scripts, which act
	// on what they name; one step less in SKILL.md and config; two in other
	// documents and data.
	kindAccess
)

// rule is one thing the scan looks for, written as one or more patterns.
// A pattern runs on a line only when one of its words (a whole token of
// letters, digits and underscores) or literals occurs in the lower-cased
// line, and the line holds the literals every match of its expression
// needs (its need, derived from the expression); then its expression runs
// on the lower-cased line, and the rule's check, when set, accepts, refines
// or rejects each match. A rule reports at most once per line.
type rule struct {
	id   string
	kind ruleKind
	sev  Severity
	pats []pat
	// only limits the rule to these contexts.
	only []Context
	// check refines a match: it may change the hit's severity, message or
	// rule id, record what it saw in the file's state, and returns false to
	// reject the match.
	check func(l *line, h *hit) bool
	msg   string
	// signal rules are never reported; the combinations (see compound.go)
	// read them.
	signal bool
}

// pat is one pattern of a rule: small expressions with precise triggers
// keep the scan fast, where one large alternation would run on every line
// holding any of its words.
type pat struct {
	words []string
	lits  []string
	re    *regexp.Regexp
	need  need
}

// p makes a pattern triggered by the space-separated words.
func p(words, expr string) pat {
	re := regexp.MustCompile(expr)
	return pat{words: strings.Fields(words), re: re, need: needOf(re)}
}

// pl makes a pattern triggered by literal substrings.
func pl(lits []string, expr string) pat {
	re := regexp.MustCompile(expr)
	return pat{lits: lits, re: re, need: needOf(re)}
}

// hit is one match of a rule on a line.
type hit struct {
	rule       *rule
	id         string
	kind       ruleKind
	sev        Severity // before the context is weighed
	final      Severity // after
	ctx        Context
	start, end int // in the line
	msg        string
	quoted     bool
	data       bool // in a string literal a script keeps as data (dataLiteral)
	line       int
	match      string
}

// ruleSet indexes the patterns of the rules by trigger.
type ruleSet struct {
	rules  []*rule
	pats   []indexedPat
	byWord map[string]patBits
	lits   []int // patterns triggered by literals
	bloom  wordBloom
	// unfiltered runs every triggered pattern's expression, without the
	// literal prefilters: the tests compare the two.
	unfiltered bool
}

// maxWordLen is the longest word looked up as a trigger.
const maxWordLen = 40

type indexedPat struct {
	pat
	rule *rule
}

// patBits is a set of patterns.
type patBits [maxPats / 64]uint64

const maxPats = 512

func (b *patBits) set(i int) { b[i/64] |= 1 << (i % 64) }

func (b *patBits) or(o *patBits) {
	for i := range b {
		b[i] |= o[i]
	}
}

func newRuleSet(rules []*rule) *ruleSet {
	rs := &ruleSet{rules: rules, byWord: map[string]patBits{}}
	for _, r := range rules {
		if len(r.pats) == 0 {
			panic("scan: rule " + r.id + " has no pattern") // a programming error, caught by every test
		}
		for _, pt := range r.pats {
			i := len(rs.pats)
			if i >= maxPats {
				panic("scan: more patterns than patBits holds")
			}
			rs.pats = append(rs.pats, indexedPat{pt, r})
			for _, w := range pt.words {
				if len(w) > maxWordLen {
					panic("scan: trigger word " + w + " is longer than maxWordLen")
				}
				rs.bloom.add(wordHash(w))
				b := rs.byWord[w]
				b.set(i)
				rs.byWord[w] = b
			}
			if len(pt.lits) > 0 {
				rs.lits = append(rs.lits, i)
			}
			if len(pt.words) == 0 && len(pt.lits) == 0 {
				panic("scan: a pattern of rule " + r.id + " has no trigger")
			}
		}
	}
	return rs
}

// candidates sets in c the patterns whose trigger occurs in the
// lower-cased line, whose byte pairs are in ps, and reports whether there
// is any. Literal triggers of rules that do not apply in ctx are not
// searched.
func (rs *ruleSet) candidates(lower string, ps *pairSet, ctx Context, c *patBits) bool {
	any := false
	for i := 0; i < len(lower); {
		if !wordBytes[lower[i]] {
			i++
			continue
		}
		j := i
		h := uint32(0)
		for j < len(lower) && wordBytes[lower[j]] {
			h = h*31 + uint32(lower[j])
			j++
		}
		if j-i <= maxWordLen && rs.bloom.has(h) {
			if b, ok := rs.byWord[lower[i:j]]; ok {
				c.or(&b)
				any = true
			}
		}
		i = j
	}
	high := -1 // whether the line holds a byte past ASCII: -1 not known yet
	for _, i := range rs.lits {
		if only := rs.pats[i].rule.only; only != nil && !slices.Contains(only, ctx) {
			continue // a literal search costs a pass over the line
		}
		if lits := rs.pats[i].lits; len(lits) > 0 && lits[0][0] >= utf8.RuneSelf {
			// Literals in another script (the Chinese phrases): one pass
			// finds whether the line has any, rather than one per literal.
			if high < 0 {
				high = boolInt(!isASCII(lower))
			}
			if high == 0 {
				continue
			}
		}
		for _, lit := range rs.pats[i].lits {
			if ps.contains(lower, lit) {
				c.set(i)
				any = true
				break
			}
		}
	}
	return any
}

// wordBloom is a Bloom filter of the trigger words, by the hash
// candidates computes as it reads a word: most words of a text are no
// trigger, and one lookup in it says so before the map's hash.
type wordBloom [1 << 13 / 64]uint64

func wordHash(w string) uint32 {
	h := uint32(0)
	for i := 0; i < len(w); i++ {
		h = h*31 + uint32(w[i])
	}
	return h
}

// bloomBit is where hash h goes in a wordBloom: its top 13 bits after a
// multiplicative mix.
func bloomBit(h uint32) (int, uint64) {
	i := (h * 0x9e3779b1) >> (32 - 13)
	return int(i / 64), 1 << (i % 64)
}

func (b *wordBloom) add(h uint32) {
	w, m := bloomBit(h)
	b[w] |= m
}

func (b *wordBloom) has(h uint32) bool {
	w, m := bloomBit(h)
	return b[w]&m != 0
}

// wordBytes: a table, since candidates asks of every byte.
var wordBytes = func() (t [256]bool) {
	for c := range 256 {
		t[c] = wordByte(byte(c))
	}
	return t
}()

func wordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_'
}

// lowerASCII lower-cases ASCII letters only, so byte offsets stay those of
// the original line.
func lowerASCII(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'A' && c <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if c := b[j]; c >= 'A' && c <= 'Z' {
					b[j] = c + 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}

// line is one logical line being scanned, with where it is: a physical
// line, a paragraph of prose joined into one, or a command continued with
// a trailing backslash.
type line struct {
	text, lower string
	num         int   // the first physical line
	starts      []int // offsets in text where the following physical lines start
	ctx         Context
	file        *fileState
	sc          *skillScan
	// code are the inline code spans of a prose line; quotes its quoted
	// spans.
	code, quotes [][2]int
	// decoded names the encoding the text came out of ("base64"), or "".
	decoded string
	depth   int
	// winStart and winEnd bound the window the rules run on; checks look
	// no further.
	winStart, winEnd int
}

// win is the lower-cased text of the current window.
func (l *line) win() string { return l.lower[l.winStart:l.winEnd] }

// Rules run on windows of a long line: every pattern is local (a command,
// a sentence), and a regular expression over a window stays in the fast
// matcher, where one over a megabyte-long line would not.
const (
	window        = 4 << 10
	windowOverlap = 512
)

// run applies every candidate pattern to the line; a rule reports at most
// once per line.
func (l *line) run(rs *ruleSet) {
	var reported []*rule
	for start := 0; ; start += window - windowOverlap {
		end := min(start+window, len(l.lower))
		l.runWindow(rs, start, end, &reported)
		if end == len(l.lower) {
			return
		}
	}
}

// runWindow applies the patterns triggered in lower[start:end] there.
func (l *line) runWindow(rs *ruleSet, start, end int, reported *[]*rule) {
	l.winStart, l.winEnd = start, end
	var c patBits
	win := l.lower[start:end]
	var ps pairSet
	ps.add(win)
	if !rs.candidates(win, &ps, l.ctx, &c) {
		return
	}
	for w := range c {
		for word := c[w]; word != 0; word &= word - 1 {
			ip := &rs.pats[w*64+bits.TrailingZeros64(word)]
			r := ip.rule
			if slices.Contains(*reported, r) || r.only != nil && !slices.Contains(r.only, l.ctx) ||
				!rs.unfiltered && !ip.need.mayMatchIn(win, &ps) {
				continue
			}
			// The first match, then (only when the check rejects it) the
			// following ones, a few at most.
			for at, tries := start, 0; at <= end && tries < 8; tries++ {
				loc := ip.re.FindStringIndex(l.lower[at:end])
				if loc == nil {
					break
				}
				ms, me := at+loc[0], at+loc[1]
				h := &hit{rule: r, id: r.id, kind: r.kind, sev: r.sev, start: ms, end: me, msg: r.msg, line: l.lineAt(ms)}
				h.ctx, h.quoted = l.spanContext(ms)
				if r.check == nil || r.check(l, h) {
					l.sc.record(l, h)
					*reported = append(*reported, r)
					break
				}
				at = max(me, ms+1)
			}
		}
	}
}

// lineAt returns the physical line number of offset i.
func (l *line) lineAt(i int) int {
	n := l.num
	for _, st := range l.starts {
		if i < st {
			break
		}
		n++
	}
	return n
}

// spanContext refines the line's context at offset i: inline code in prose
// is code; a quoted span is marked quoted.
func (l *line) spanContext(i int) (Context, bool) {
	ctx := l.ctx
	for _, sp := range l.code {
		if i >= sp[0] && i < sp[1] {
			switch ctx {
			case CtxInstructions, CtxFrontmatter:
				ctx = CtxCode
			case CtxDocs:
				ctx = CtxDocCode
			}
			return ctx, false
		}
	}
	for _, sp := range l.quotes {
		if i >= sp[0] && i < sp[1] {
			return ctx, true
		}
	}
	return ctx, false
}

// weigh turns a rule's severity into the severity of a hit in its context;
// 0 means the hit is too weak to report.
func weigh(h *hit, attackDocs bool) Severity {
	d := 0
	switch h.kind {
	case kindCommand:
		switch h.ctx {
		case CtxDocs, CtxDocCode, CtxData:
			d = -1
		}
	case kindPhrase:
		switch h.ctx {
		case CtxComment:
			d = 1
		case CtxCode, CtxDocCode, CtxScript, CtxConfig, CtxData:
			d = -1
		default:
			if h.quoted {
				d = -1
			}
		}
	case kindAccess:
		switch h.ctx {
		case CtxScript:
		case CtxDocs, CtxDocCode, CtxData:
			d = -2
		default:
			d = -1
		}
	}
	if attackDocs && h.kind != kindIndicator {
		switch h.ctx {
		case CtxCode, CtxDocs, CtxDocCode, CtxData:
			d--
		}
	}
	s := int(h.sev) + d
	switch {
	case s < int(Low):
		return 0
	case s > int(Critical):
		return Critical
	}
	return Severity(s)
}

// snippet is the text around line[start:end] shown as a finding's match:
// the match itself, widened with the line around it up to 120 characters,
// with "…" where it was cut, on one visible line.
func snippet(text string, start, end int) string {
	const max = 120
	start, end = max0(start), min(end, len(text))
	if start > end {
		start = end
	}
	m := text[start:end]
	out := m
	if room := max - utf8.RuneCountInString(m); room > 0 {
		before := strings.TrimLeft(text[:start], " \t")
		after := strings.TrimRight(text[end:], " \t\r")
		pre := lastRunes(before, min(room/3, utf8.RuneCountInString(before)))
		room -= utf8.RuneCountInString(pre)
		post := cutRunes(after, min(room, utf8.RuneCountInString(after)))
		out = pre + m + post
		if len(pre) < len(before) {
			out = "…" + out
		}
		if len(post) < len(after) {
			out += "…"
		}
	}
	// Marks for hidden characters make the text longer: cut after marking.
	v := Visible(out)
	if utf8.RuneCountInString(v) > max {
		v = cutRunes(v, max-1) + "…"
	}
	return v
}

func max0(i int) int { return max(i, 0) }

func cutRunes(s string, n int) string {
	i := 0
	for range n {
		if i >= len(s) {
			break
		}
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return s[:i]
}

func lastRunes(s string, n int) string {
	i := len(s)
	for range n {
		if i <= 0 {
			break
		}
		_, size := utf8.DecodeLastRuneInString(s[:i])
		i -= size
	}
	return s[i:]
}

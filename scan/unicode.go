package scan

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/skillkit-go/skillkit/hidden"
)

// The hidden-character rules.
const (
	ruleUnicodeTag       = "unicode-tag"
	ruleUnicodeBidi      = "unicode-bidi"
	ruleUnicodeInvisible = "unicode-invisible"
	ruleUnicodeSmuggling = "unicode-smuggling"
	ruleControlChar      = "control-char"
)

// smuggleRun is the number of hidden characters in one line from which they
// are read as a hidden message rather than a stray character: eight carry a
// byte.
const smuggleRun = 8

// isUnicodeRule reports whether a rule is about hidden characters.
func isUnicodeRule(id string) bool {
	switch id {
	case ruleUnicodeTag, ruleUnicodeBidi, ruleUnicodeInvisible, ruleUnicodeSmuggling, ruleControlChar:
		return true
	}
	return false
}

// hiddenLine reports the hidden characters of a line, scans the text that
// tag characters and variation selectors spell, and scans the line again
// without its hidden characters, so that a word split by a zero-width space
// ("ig\u200bnore") is still read.
func (sc *skillScan) hiddenLine(l *line) {
	var tags, selectors strings.Builder
	var invisible, bidi, control, overrides int
	var first [6]int // offset of the first character of each kind
	for i := range first {
		first[i] = -1
	}
	count := 0
	var stripped strings.Builder
	last := 0
	for h := range hidden.Chars(l.text) {
		count++
		if first[h.Kind] < 0 {
			first[h.Kind] = h.Offset
		}
		switch h.Kind {
		case hidden.Tag:
			if h.Rune >= 0xe0020 && h.Rune <= 0xe007e {
				tags.WriteByte(byte(h.Rune - 0xe0000))
			}
		case hidden.Variation:
			switch {
			case h.Rune >= 0xfe00 && h.Rune <= 0xfe0f:
				selectors.WriteByte(byte(h.Rune - 0xfe00))
			case h.Rune >= 0xe0100 && h.Rune <= 0xe01ef:
				selectors.WriteByte(byte(h.Rune - 0xe0100 + 16))
			}
		case hidden.Invisible:
			invisible++
		case hidden.Bidi:
			bidi++
			if h.Rune == 0x202d || h.Rune == 0x202e || h.Rune >= 0x2066 && h.Rune <= 0x2069 || h.Rune >= 0x202a && h.Rune <= 0x202c {
				overrides++
			}
		case hidden.Control:
			control++
		}
		if h.Kind != hidden.Control {
			stripped.WriteString(l.text[last:h.Offset])
			last = h.Offset + utf8.RuneLen(h.Rune)
		}
	}
	if count == 0 {
		return
	}
	add := func(rule string, sev Severity, kind hidden.Kind, msg string) {
		start := first[kind]
		_, size := utf8.DecodeRuneInString(l.text[start:])
		sc.add(Finding{Rule: rule, Severity: sev, File: l.file.path, Line: l.num, Context: l.ctx,
			Match: snippet(l.text, start, start+size), Message: msg})
		l.file.hits = append(l.file.hits, &hit{id: rule, final: sev, line: l.num, ctx: l.ctx, rule: unicodeRule})
	}
	if n := tags.Len(); n > 0 || first[hidden.Tag] >= 0 {
		msg := "Unicode tag characters, invisible to a reader, spell hidden text"
		if n > 0 {
			msg += fmt.Sprintf(": %q", Visible(cutRunes(tags.String(), 80)))
		}
		add(ruleUnicodeTag, Critical, hidden.Tag, msg)
		if n > 0 {
			sc.scanDecoded(l, tags.String(), "Unicode tag characters")
		}
	}
	if n := selectors.Len(); n >= smuggleRun {
		add(ruleUnicodeSmuggling, Critical, hidden.Variation,
			fmt.Sprintf("%d variation selectors in a row carry hidden bytes", n))
		if b := selectors.String(); printable([]byte(b)) {
			sc.scanDecoded(l, b, "variation selectors")
		}
	} else if first[hidden.Variation] >= 0 {
		add(ruleUnicodeInvisible, Medium, hidden.Variation, "a variation selector that modifies no character")
	}
	switch {
	case invisible >= smuggleRun:
		add(ruleUnicodeSmuggling, Critical, hidden.Invisible,
			fmt.Sprintf("%d invisible characters on one line can carry a hidden message", invisible))
	case invisible > 0:
		add(ruleUnicodeInvisible, Medium, hidden.Invisible,
			fmt.Sprintf("%d invisible character(s) (zero-width or other format characters)", invisible))
	}
	if bidi > 0 {
		sev, msg := Low, "a direction mark outside right-to-left text"
		if overrides > 0 {
			sev, msg = High, "bidirectional control characters reorder what a reader sees"
			if l.ctx == CtxScript || l.ctx == CtxConfig {
				sev, msg = Critical, "bidirectional control characters in code make it run differently from how it reads (Trojan Source)"
			}
		}
		add(ruleUnicodeBidi, sev, hidden.Bidi, msg)
	}
	if control > 0 {
		msg := fmt.Sprintf("%d control character(s)", control)
		if strings.ContainsRune(l.text, 0x1b) {
			msg += ", including a terminal escape sequence, which can hide or rewrite what a terminal shows"
		}
		add(ruleControlChar, Medium, hidden.Control, msg)
	}
	if stripped.Len() > 0 || last > 0 {
		stripped.WriteString(l.text[last:])
		if t := stripped.String(); t != l.text && strings.TrimSpace(t) != "" {
			sc.scanDecoded(l, t, strippedEncoding)
		}
	}
}

// strippedEncoding names a line read without its hidden characters. Only
// rules that did not match the line as written report on it.
const strippedEncoding = "the line without its hidden characters"

// unicodeRule stands for the hidden-character rules in a file's hits.
var unicodeRule = &rule{id: "unicode", kind: kindIndicator}

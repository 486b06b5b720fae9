package main

import (
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/skillkit-go/skillkit/diagnostics"
	"github.com/skillkit-go/skillkit/loader"
)

// safeText is how every human-readable line that may hold skill-supplied
// text reaches the terminal: control characters made visible, never raw. C0
// controls other than newline and tab, DEL and C1 controls (which some
// terminals read as escape sequences), the bidirectional overrides and
// isolates (which reorder what the reader sees) and bytes that are not
// UTF-8 are written as \x1b, \u202e or \xff. JSON output does not go through
// it: encoding/json escapes control characters itself and keeps the text
// exact.
func safeText(s string) string {
	if utf8.ValidString(s) && !strings.ContainsFunc(s, mustEscape) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r < 0x80 && mustEscape(r):
			fmt.Fprintf(&b, `\x%02x`, r)
		case mustEscape(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// mustEscape reports whether safeText writes r escaped.
func mustEscape(r rune) bool {
	switch {
	case r == '\n' || r == '\t':
		return false
	case r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f):
		return true
	}
	return r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069
}

// notLoadedLine says in one line how many skill folders the snapshot did
// not load and why, and how many folders the limits left unsearched; "" when
// nothing was left out.
func notLoadedLine(snap *loader.Snapshot) string {
	var parts []string
	if skipped := snap.NotLoaded(); len(skipped) > 0 {
		byCode := map[diagnostics.Code]int{}
		for _, n := range skipped {
			byCode[n.Code]++
		}
		parts = append(parts, fmt.Sprintf("%s not loaded (%s)", plural(len(skipped), "skill folder"), countList(byCode)))
	}
	for _, d := range snap.Diagnostics().WithCode(diagnostics.LimitReached) {
		if limit := d.Detail["limit"]; limit == "max_dirs" || limit == "max_depth" {
			parts = append(parts, d.Message)
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return strings.Join(parts, "; ") + " (skillkit doctor names each)"
}

// hiddenLine says in one line which skills are hidden from the agent and
// why, by rule; "" when none is.
func hiddenLine(hidden []loader.Hidden) string {
	if len(hidden) == 0 {
		return ""
	}
	var names []string
	byRule := map[loader.Rule]int{}
	for _, h := range hidden {
		names = append(names, h.Name)
		for _, r := range h.Reasons {
			byRule[r.Rule]++
		}
	}
	return fmt.Sprintf("%s hidden from this agent (%s): %s", plural(len(hidden), "skill"), countList(byRule), strings.Join(names, ", "))
}

// countList writes counts as "A 2, B 1", sorted by key.
func countList[K ~string](counts map[K]int) string {
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, string(k))
	}
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%s %d", k, counts[K(k)]))
	}
	return strings.Join(parts, ", ")
}

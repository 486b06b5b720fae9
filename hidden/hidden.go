package hidden

import (
	"fmt"
	"iter"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Kind says why a character of skill text is hidden from a person who
// reads it, while a model still reads it.
type Kind uint8

// The kinds of hidden characters.
const (
	// Invisible: zero-width and other invisible format characters
	// (U+200B-U+200D, U+2060-U+2064, U+FEFF, the soft hyphen, Hangul fillers,
	// ...).
	Invisible Kind = iota + 1
	// Bidi: bidirectional controls that reorder what is shown
	// (U+202A-U+202E, U+2066-U+2069) and the direction marks (U+200E,
	// U+200F, U+061C) away from right-to-left text.
	Bidi
	// Tag: the tag block U+E0000-U+E007F, which can spell a whole
	// ASCII text invisibly, outside an emoji tag sequence (a subdivision flag).
	Tag
	// Variation: variation selectors that follow no base character, or
	// follow another selector (a run of them can carry arbitrary bytes).
	Variation
	// Control: C0 and C1 control characters other than tab, line feed
	// and carriage return, and DEL; a terminal acts on some of them.
	Control
)

// String returns the kind's name: invisible, bidi, tag, variation or control.
func (k Kind) String() string {
	switch k {
	case Invisible:
		return "invisible"
	case Bidi:
		return "bidi"
	case Tag:
		return "tag"
	case Variation:
		return "variation"
	case Control:
		return "control"
	}
	return "none"
}

// Char is one hidden character of a text.
type Char struct {
	Offset int // byte offset in the text
	Rune   rune
	Kind   Kind
}

// Chars yields the hidden characters of s in order. Characters that are
// hidden only in isolation are not yielded where they do their ordinary job:
// a zero-width joiner between two emoji or between letters of a script that
// joins (Arabic, the Indic scripts, ...), a zero-width non-joiner between
// such letters, one variation selector after a base character (an
// ideographic variation selector after a Han ideograph), a tag sequence that
// spells a subdivision flag after U+1F3F4, a direction mark on a line that
// holds right-to-left letters, and a byte order mark at offset 0. Invalid
// UTF-8 is not a hidden character.
func Chars(s string) iter.Seq[Char] {
	return func(yield func(Char) bool) {
		if plain(s) {
			return
		}
		prev := rune(-1)
		for i := 0; i < len(s); {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == 0x1F3F4 { // a flag: skip a valid tag sequence after it
				if n := flagTags(s[i+size:]); n > 0 {
					i += size + n
					prev = 0xE007F
					continue
				}
			}
			if k := hiddenKind(r); k != 0 && !legitimate(s, i, size, r, prev) {
				if !yield(Char{Offset: i, Rune: r, Kind: k}) {
					return
				}
			}
			prev = r
			i += size
		}
	}
}

// Has reports whether s holds a hidden character (see [Chars]).
func Has(s string) bool {
	for range Chars(s) {
		return true
	}
	return false
}

// hiddenRun is the number of adjacent hidden characters from which
// [Mark] writes one marker for the whole run.
const hiddenRun = 4

// Mark returns s with every hidden character (see [Chars]) replaced by
// a visible marker: "[U+202E]" for one character, and
// "[37 hidden characters from U+E0049]" for a run of four or more, so a text
// spelled in tag characters reaches no reader, person or model, in a form
// it could read without noticing. Everything else is kept as is.
func Mark(s string) string {
	if plain(s) {
		return s
	}
	var b strings.Builder
	last := 0 // s[:last] is written
	var run []Char
	flush := func() {
		if len(run) >= hiddenRun {
			fmt.Fprintf(&b, "[%d hidden characters from U+%04X]", len(run), run[0].Rune)
		} else {
			for _, h := range run {
				fmt.Fprintf(&b, "[U+%04X]", h.Rune)
			}
		}
		end := run[len(run)-1]
		last = end.Offset + utf8.RuneLen(end.Rune)
		run = run[:0]
	}
	found := false
	for h := range Chars(s) {
		if !found {
			b.Grow(len(s) + 16)
			found = true
		}
		if len(run) > 0 {
			if prev := run[len(run)-1]; prev.Offset+utf8.RuneLen(prev.Rune) != h.Offset {
				flush()
			}
		}
		if len(run) == 0 {
			b.WriteString(s[last:h.Offset])
		}
		run = append(run, h)
	}
	if !found {
		return s
	}
	flush()
	b.WriteString(s[last:])
	return b.String()
}

// plain reports whether s is ASCII without control characters other than
// tab, line feed and carriage return: the common case, decided without
// decoding.
func plain(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x7f || c < 0x20 && c != '\t' && c != '\n' && c != '\r' {
			return false
		}
	}
	return true
}

// hiddenKind classifies r on its own; 0 when it shows.
func hiddenKind(r rune) Kind {
	switch {
	case r < 0x20:
		if r == '\t' || r == '\n' || r == '\r' {
			return 0
		}
		return Control
	case r < 0x7f:
		return 0
	case r <= 0x9f:
		return Control
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x200e, r == 0x200f, r == 0x061c:
		return Bidi
	case r >= 0xe0000 && r <= 0xe007f:
		return Tag
	case r >= 0xfe00 && r <= 0xfe0f, r >= 0xe0100 && r <= 0xe01ef, r >= 0x180b && r <= 0x180d, r == 0x180f:
		return Variation
	case r >= 0x200b && r <= 0x200d, r >= 0x2060 && r <= 0x2064, r >= 0x206a && r <= 0x206f,
		r == 0xfeff, r == 0x00ad, r == 0x034f, r == 0x115f, r == 0x1160, r == 0x3164, r == 0xffa0,
		r == 0x17b4, r == 0x17b5, r == 0x180e, r >= 0x1d173 && r <= 0x1d17a, r >= 0xfff9 && r <= 0xfffb,
		r >= 0x1bca0 && r <= 0x1bca3, r == 0x2028, r == 0x2029:
		return Invisible
	}
	return 0
}

// legitimate reports whether the hidden-looking r at s[i:i+size], after
// prev (-1 at the start), does its ordinary job there.
func legitimate(s string, i, size int, r, prev rune) bool {
	next, _ := utf8.DecodeRuneInString(s[i+size:])
	if i+size >= len(s) {
		next = -1
	}
	switch {
	case r == 0x200d: // zero-width joiner
		return emojiLike(prev) && emojiLike(next) || joining(prev) && joining(next)
	case r == 0x200c: // zero-width non-joiner
		return joining(prev) && joining(next)
	case r >= 0xfe00 && r <= 0xfe0f:
		return base(prev)
	case r >= 0xe0100 && r <= 0xe01ef:
		return unicode.Is(unicode.Han, prev)
	case r >= 0x180b && r <= 0x180f:
		return unicode.Is(unicode.Mongolian, prev)
	case r == 0xfeff:
		return i == 0
	case r == 0x200e || r == 0x200f || r == 0x061c:
		return rtlLine(s, i)
	}
	return false
}

// flagTags returns the length in bytes of a valid emoji tag sequence at the
// start of s (tag digits and lower-case letters, then CANCEL TAG), or 0.
func flagTags(s string) int {
	n, count := 0, 0
	for n < len(s) {
		r, size := utf8.DecodeRuneInString(s[n:])
		n += size
		switch {
		case r == 0xe007f:
			if count >= 2 && count <= 6 {
				return n
			}
			return 0
		case r >= 0xe0030 && r <= 0xe0039, r >= 0xe0061 && r <= 0xe007a:
			count++
			if count > 6 {
				return 0
			}
		default:
			return 0
		}
	}
	return 0
}

// emojiLike reports whether r can stand on either side of a joiner in an
// emoji sequence: pictographs, symbols, skin tones and the emoji
// presentation selector.
func emojiLike(r rune) bool {
	return r >= 0x1f000 && r <= 0x1faff || r >= 0x2300 && r <= 0x23ff || r >= 0x2600 && r <= 0x27bf ||
		r >= 0x2b00 && r <= 0x2bff || r == 0xfe0f || r == 0x00a9 || r == 0x00ae || r == 0x203c || r == 0x2049 ||
		r >= 0x2190 && r <= 0x21ff
}

// joiningScripts use the zero-width joiner and non-joiner in ordinary text.
var joiningScripts = []*unicode.RangeTable{
	unicode.Arabic, unicode.Syriac, unicode.Nko, unicode.Mongolian, unicode.Devanagari, unicode.Bengali,
	unicode.Gurmukhi, unicode.Gujarati, unicode.Oriya, unicode.Tamil, unicode.Telugu, unicode.Kannada,
	unicode.Malayalam, unicode.Sinhala, unicode.Khmer, unicode.Myanmar, unicode.Tibetan,
}

func joining(r rune) bool {
	return r >= 0x0600 && unicode.IsOneOf(joiningScripts, r)
}

// base reports whether a variation selector after r modifies a character:
// not at the start, not after white space, a control or another selector.
func base(r rune) bool {
	return r > 0x20 && hiddenKind(r) == 0 && !unicode.IsSpace(r)
}

// rtlLine reports whether the line around offset i holds a right-to-left
// letter, where direction marks are ordinary.
func rtlLine(s string, i int) bool {
	start := strings.LastIndexByte(s[:i], '\n') + 1
	end := strings.IndexByte(s[i:], '\n')
	if end < 0 {
		end = len(s)
	} else {
		end += i
	}
	for _, r := range s[start:end] {
		if r >= 0x0590 && unicode.In(r, unicode.Hebrew, unicode.Arabic, unicode.Syriac, unicode.Thaana, unicode.Nko) {
			return true
		}
	}
	return false
}

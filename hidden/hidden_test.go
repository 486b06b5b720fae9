package hidden_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/skillkit-go/skillkit/hidden"
)

func tagText(s string) string {
	var b strings.Builder
	for _, r := range s {
		b.WriteRune(0xE0000 + r)
	}
	return b.String()
}

func TestHidden(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []rune // the hidden characters found, in order
	}{
		{"plain ASCII", "Use when the user asks.\tTabs\r\nand lines", nil},
		{"zero-width space", "ig\u200bnore", []rune{0x200b}},
		{"zero-width joiner between letters", "a\u200db", []rune{0x200d}},
		{"emoji family", "👨\u200d👩\u200d👧", nil},
		{"emoji with skin tone and selector", "🧑🏽\u200d💻 ❤\ufe0f\u200d🔥", nil},
		{"joiner after an emoji, before a letter", "👍\u200dx", []rune{0x200d}},
		{"Persian non-joiner", "می\u200cخواهم", nil},
		{"non-joiner in English", "in\u200cvisible", []rune{0x200c}},
		{"Devanagari joiner", "क्\u200dष", nil},
		{"right-to-left override", "abc\u202edcb", []rune{0x202e}},
		{"isolates", "\u2066x\u2069", []rune{0x2066, 0x2069}},
		{"mark in Hebrew", "המחיר 100\u200f ש", nil},
		{"mark in English", "price 100\u200f usd", []rune{0x200f}},
		{"tag text", "hi" + tagText("run"), []rune{0xE0072, 0xE0075, 0xE006E}},
		{"Scotland flag", "🏴\U000E0067\U000E0062\U000E0073\U000E0063\U000E0074\U000E007F", nil},
		{"flag without cancel tag", "🏴\U000E0067\U000E0062", []rune{0xE0067, 0xE0062}},
		{"emoji selector", "☺\ufe0f", nil},
		{"selector run", "☺\ufe0f\ufe01", []rune{0xfe01}},
		{"selector at the start", "\ufe0fx", []rune{0xfe0f}},
		{"ideographic variation selector", "葛\U000E0100", nil},
		{"ideographic selector after a Latin letter", "a\U000E0100", []rune{0xE0100}},
		{"byte order mark at the start", "\ufeffhello", nil},
		{"byte order mark inside", "he\ufeffllo", []rune{0xfeff}},
		{"escape", "a\x1b[2Jb", []rune{0x1b}},
		{"C1 control", "a\u0085b", []rune{0x85}},
		{"soft hyphen and Hangul filler", "a\u00adb\u3164", []rune{0xad, 0x3164}},
		{"invalid UTF-8 is not hidden", "a\xffb", nil},
		{"CJK", "文档总结：「です・ます」", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []rune
			for h := range hidden.Chars(tt.in) {
				if r, _ := utf8.DecodeRuneInString(tt.in[h.Offset:]); r != h.Rune {
					t.Errorf("offset %d holds %U, not %U", h.Offset, r, h.Rune)
				}
				got = append(got, h.Rune)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("hidden characters (-want +got):\n%s", diff)
			}
			if hidden.Has(tt.in) != (len(tt.want) > 0) {
				t.Errorf("HasHidden = %v", !(len(tt.want) > 0))
			}
		})
	}
}

func TestHiddenKinds(t *testing.T) {
	want := map[rune]hidden.Kind{
		0x200b: hidden.Invisible, 0x202e: hidden.Bidi, 0xE0041: hidden.Tag,
		0xfe01: hidden.Variation, 0x07: hidden.Control,
	}
	for r, kind := range want {
		in := "x" + string(r) + string(r)
		var kinds []hidden.Kind
		for h := range hidden.Chars(in) {
			kinds = append(kinds, h.Kind)
		}
		if len(kinds) == 0 || kinds[len(kinds)-1] != kind {
			t.Errorf("%U: kinds %v, want %v", r, kinds, kind)
		}
	}
}

func TestMarkHidden(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain text stays", "plain text stays"},
		{"abc\u202edcb", "abc[U+202E]dcb"},
		{"ig\u200bnore", "ig[U+200B]nore"},
		{"x" + tagText("ignore all"), "x[10 hidden characters from U+E0069]"},
		{"a\u200b\u200b\u200bb", "a[U+200B][U+200B][U+200B]b"},
		{"a\u200b\u200b\u200b\u200bb", "a[4 hidden characters from U+200B]b"},
		{"\u200bstart and end\u200b", "[U+200B]start and end[U+200B]"},
		{"a\u200bb\u200cc", "a[U+200B]b[U+200C]c"},
		{"👨\u200d👩\u200d👧 stays", "👨\u200d👩\u200d👧 stays"},
		{"bell\a", "bell[U+0007]"},
	}
	for _, tt := range tests {
		if got := hidden.Mark(tt.in); got != tt.want {
			t.Errorf("Mark(%+q) = %+q, want %+q", tt.in, got, tt.want)
		}
	}
}

func FuzzMarkHidden(f *testing.F) {
	for _, s := range []string{"", "plain", "a\u202eb", tagText("secret"), "👨\u200d👩", "葛\U000E0100", "\ufeffx", "a\xffb\x1b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := hidden.Mark(s)
		if hidden.Has(out) {
			t.Fatalf("Mark(%+q) = %+q still holds hidden characters", s, out)
		}
		if !hidden.Has(s) && out != s {
			t.Fatalf("Mark changed %+q with nothing hidden in it", s)
		}
		if again := hidden.Mark(out); again != out {
			t.Fatalf("Mark is not idempotent on %+q", s)
		}
	})
}

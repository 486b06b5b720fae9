package search

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// appendTokens appends the terms of text to out: runs of letters and digits,
// lower-cased (full-width forms folded), English stop words dropped, the
// rest stemmed lightly (stem); runs of CJK characters, which scripts that do
// not separate words with spaces write, as overlapping pairs (bigrams), a
// run of one character as itself.
func appendTokens(out []string, text string) []string {
	var word []byte
	var cjk []rune
	flushWord := func() {
		if len(word) > 0 {
			if w := string(word); len(w) > 1 && !stopWords[w] {
				out = append(out, stem(w))
			}
			word = word[:0]
		}
	}
	flushCJK := func() {
		switch len(cjk) {
		case 0:
		case 1:
			out = append(out, string(cjk))
		default:
			for i := 0; i+1 < len(cjk); i++ {
				out = append(out, string(cjk[i:i+2]))
			}
		}
		cjk = cjk[:0]
	}
	for _, r := range text {
		if r >= 0xFF01 && r <= 0xFF5E { // full-width ASCII
			r -= 0xFEE0
		}
		switch {
		case r < utf8.RuneSelf:
			if r >= 'A' && r <= 'Z' {
				r += 'a' - 'A'
			}
			if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
				flushCJK()
				word = append(word, byte(r))
				continue
			}
			flushWord()
			flushCJK()
		case isCJK(r):
			flushWord()
			cjk = append(cjk, r)
		case unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r):
			flushCJK()
			word = utf8.AppendRune(word, unicode.ToLower(r))
		default:
			flushWord()
			flushCJK()
		}
	}
	flushWord()
	flushCJK()
	return out
}

func isCJK(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul)
}

// stem removes common English endings from an ASCII word, so that "images",
// "image" and "imaging" meet, as do "converting", "converted" and
// "converts". It is deliberately light (no dictionary): what it conflates
// wrongly costs a little precision, and query and skills are stemmed alike.
func stem(w string) string {
	for i := 0; i < len(w); i++ {
		if w[i] >= utf8.RuneSelf || w[i] >= '0' && w[i] <= '9' {
			return w // not an English word
		}
	}
	switch {
	case len(w) > 4 && strings.HasSuffix(w, "ies"):
		w = w[:len(w)-3] + "y"
	case len(w) > 4 && strings.HasSuffix(w, "sses"):
		w = w[:len(w)-2]
	case len(w) > 4 && (strings.HasSuffix(w, "ches") || strings.HasSuffix(w, "shes") || strings.HasSuffix(w, "xes")):
		w = w[:len(w)-2]
	case len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is"):
		w = w[:len(w)-1]
	}
	switch {
	case len(w) > 5 && strings.HasSuffix(w, "ing"):
		w = undouble(w[:len(w)-3])
	case len(w) > 4 && strings.HasSuffix(w, "ed") && !strings.HasSuffix(w, "eed"):
		w = undouble(w[:len(w)-2])
	case len(w) > 5 && strings.HasSuffix(w, "er"):
		w = undouble(w[:len(w)-2])
	}
	if len(w) > 3 && strings.HasSuffix(w, "e") && !strings.HasSuffix(w, "ee") {
		w = w[:len(w)-1]
	}
	return w
}

// undouble turns a doubled final consonant into one ("runn" → "run").
func undouble(w string) string {
	if n := len(w); n > 2 && w[n-1] == w[n-2] && !strings.ContainsRune("aeiouls", rune(w[n-1])) {
		return w[:n-1]
	}
	return w
}

// stopWords are English words too common in skills and tasks to tell them
// apart; leaving them out keeps posting lists short.
var stopWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a an the and or but if of to in on at by for from with without into onto
		as is are was were be been being it its this that these those there here then than so such
		i me my we our you your he she they them their his her
		do does did done can could should would will shall may might must
		what which who whom whose when where why how
		use uses used using skill skills please want need needs help some any all each
		not no nor only also just very too via per about over under up down out
		get got make let`) {
		m[w] = true
	}
	return m
}()

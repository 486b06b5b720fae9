package scan

import (
	_ "embed"
	"fmt"
	"strings"
	"sync"
)

// ruleNameTyposquat: a skill named to pass for another.
const ruleNameTyposquat = "name-typosquat"

var (
	//go:embed names/skills.txt
	skillsText string
	//go:embed names/words.txt
	wordsText string
)

// skillNames are the lists names are judged against, built once.
type skillNames struct {
	known      []string        // widely installed skills
	knownSet   map[string]bool // the same
	words      map[string]bool // words names are made of, and popular packages
	candidates []string        // words and popular package names a slip is measured against
}

var nameLists = sync.OnceValue(func() *skillNames {
	n := &skillNames{knownSet: map[string]bool{}, words: map[string]bool{}}
	for _, s := range nameFields(skillsText) {
		n.known = append(n.known, s)
		n.knownSet[s] = true
		for w := range strings.SplitSeq(s, "-") {
			n.words[w] = true
		}
	}
	for _, w := range nameFields(wordsText) {
		n.words[w] = true
	}
	for _, e := range ecosystems() {
		for _, p := range e.list {
			n.words[p] = true
			for w := range strings.SplitSeq(p, "-") {
				n.words[w] = true
			}
		}
	}
	for w := range n.words {
		if len(w) >= 5 {
			n.candidates = append(n.candidates, w)
		}
	}
	return n
})

// nameTyposquat says what a skill's name imitates, or "": a widely
// installed skill's name one edit, a doubled letter, a separator or a
// look-alike glyph away; or a word of it that is a slip of the keys from a
// common word or a popular package's name ("reqeusts", "confg").
func nameTyposquat(name string) string {
	name = strings.ToLower(strings.TrimSpace(name))
	n := nameLists()
	if name == "" || n.knownSet[name] {
		return ""
	}
	sq, gl := separators.Replace(name), glyphs.Replace(name)
	for _, k := range n.known {
		if len(k) < 5 {
			continue
		}
		if osaDistance(name, k) == 1 || separators.Replace(k) == sq || gl != name && gl == k {
			return fmt.Sprintf("is one slip away from the widely installed skill %q", k)
		}
	}
	for t := range strings.FieldsFuncSeq(name, func(r rune) bool { return r == '-' || r == '_' || r == '.' }) {
		if len(t) < 5 || n.words[t] || strings.ContainsAny(t, "0123456789") {
			continue
		}
		for _, w := range n.candidates {
			if slip(t, w) {
				return fmt.Sprintf("has %q, a misspelling of %q, the way typosquats are named", t, w)
			}
		}
	}
	return ""
}

// slip reports whether t is w mistyped: two neighbouring letters swapped,
// a vowel dropped or a letter doubled inside it, or, in a long word, one
// vowel for another; a different ending (-s, -es, -d, -r,
// -ed, -er, -ing, a digit) is another word, not a slip.
func slip(t, w string) bool {
	if abs(len(t)-len(w)) > 1 || t[0] != w[0] && t[1] != w[1] {
		return false
	}
	for _, end := range []string{"s", "es", "d", "r", "ed", "er", "ing", "y"} {
		if t == w+end || w == t+end {
			return false
		}
	}
	if strings.HasPrefix(t, w) || strings.HasPrefix(w, t) {
		return false // "flake" and "flake8": a name cut short or extended is another name
	}
	if osaDistance(t, w) != 1 {
		return false
	}
	if len(t) != len(w) {
		// A vowel dropped ("confg") or a letter doubled ("formattter"); a
		// consonant dropped or added makes another word (stale, stable).
		long, short := w, t
		if len(t) > len(w) {
			long, short = t, w
		}
		k := 0
		for k < len(short) && long[k] == short[k] {
			k++
		}
		if len(t) < len(w) {
			return isVowel(long[k])
		}
		return k > 0 && long[k] == long[k-1] || k+1 < len(long) && long[k] == long[k+1]
	}
	var diff []int
	for i := range len(t) {
		if t[i] != w[i] {
			diff = append(diff, i)
		}
	}
	if len(diff) == 2 {
		return true // a swap
	}
	return len(t) >= 7 && isVowel(t[diff[0]]) && isVowel(w[diff[0]])
}

func isVowel(c byte) bool { return strings.IndexByte("aeiou", c) >= 0 }

// checkName reports a skill name that imitates another.
func (sc *skillScan) checkName(f *fileState) {
	if sc.s == nil {
		return
	}
	if why := nameTyposquat(sc.s.Name); why != "" {
		sc.add(Finding{Rule: ruleNameTyposquat, Severity: High, File: f.path, Line: 1, Context: CtxFrontmatter, Match: sc.s.Name,
			Message: "the skill's name " + why + ": check who publishes it before trusting it"})
	}
}

// slipOf returns the popular package name that name is a slip of the keys
// from (see slip), the same without separators, or with look-alike glyphs;
// or "". Commands in documents name many packages no list holds, so this
// is stricter than a manifest's one-edit check.
func slipOf(name string, e *ecosystem) string {
	sq, gl := separators.Replace(name), glyphs.Replace(name)
	for _, p := range e.list {
		if len(p) >= 5 && len(name) >= 5 && (slip(name, p) || p != name && separators.Replace(p) == sq || gl != name && gl == p) {
			return p
		}
	}
	return ""
}

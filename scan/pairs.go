package scan

import "strings"

// pairSet holds which pairs of adjacent bytes a text has, each byte taken
// by its class (byteClass): row a holds bit b when a byte of class a is
// followed by one of class b. A literal with a pair the set lacks is not
// in the text, and the search for it is skipped: one pass over a window
// builds the set, and most of the literals the prefilters look for are
// then ruled out at a few bits each, where each strings.Contains is a pass
// of its own.
type pairSet [classes]uint64

// classes is how many classes byteClass has, at most the bits of a row.
const classes = 64

// byteClass sorts bytes into classes: each lower-case letter, digit and
// common punctuation mark (as the rules' literals have them) is a class of
// its own, and every other byte shares the last.
var byteClass = func() (t [256]uint8) {
	for i := range t {
		t[i] = classes - 1
	}
	own := "abcdefghijklmnopqrstuvwxyz0123456789 \t.:;/\\-_$()[]{}<>=|&'\"*+~"
	if len(own) >= classes {
		panic("scan: more byte classes than a pairSet holds")
	}
	for i := range len(own) {
		t[own[i]] = uint8(i)
	}
	return t
}()

// add adds the pairs of s to the set.
func (ps *pairSet) add(s string) {
	if s == "" {
		return
	}
	prev := byteClass[s[0]]
	for i := 1; i < len(s); i++ {
		cur := byteClass[s[i]]
		ps[prev%classes] |= 1 << (cur % classes)
		prev = cur
	}
}

// contains is strings.Contains(s, lit) where ps holds the pairs of s: a lit
// of two bytes or more with a pair ps lacks is not searched for. A nil ps
// rules nothing out.
func (ps *pairSet) contains(s, lit string) bool {
	for i := 1; ps != nil && i < len(lit); i++ {
		if ps[byteClass[lit[i-1]]%classes]&(1<<(byteClass[lit[i]]%classes)) == 0 {
			return false
		}
	}
	return strings.Contains(s, lit)
}

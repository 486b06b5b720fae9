package main

import (
	"slices"
	"strings"
)

// maxSuggestions is how many close matches a "did you mean" names at most.
const maxSuggestions = 3

// suggest returns the candidates close to word, closest first: those within
// a few edits of it (one for a short word, up to three for a long one), and
// those it begins, when it is at least three characters long. Case is
// ignored.
func suggest(word string, candidates []string) []string {
	w := strings.ToLower(word)
	n := len([]rune(w))
	limit := max(1, min(3, n/3))
	type match struct {
		name string
		dist int
	}
	var found []match
	for _, c := range candidates {
		if c == word {
			continue
		}
		lc := strings.ToLower(c)
		d := editDistance(w, lc)
		if d > limit && !(n >= 3 && strings.HasPrefix(lc, w)) {
			continue
		}
		found = append(found, match{c, d})
	}
	slices.SortFunc(found, func(a, b match) int {
		if a.dist != b.dist {
			return a.dist - b.dist
		}
		return strings.Compare(a.name, b.name)
	})
	var out []string
	for _, m := range found {
		if len(out) == maxSuggestions {
			break
		}
		if !slices.Contains(out, m.name) {
			out = append(out, m.name)
		}
	}
	return out
}

// didYouMean is " (did you mean a, b or c?)" for the suggestions s, ""
// when there are none.
func didYouMean(s []string) string {
	if len(s) == 0 {
		return ""
	}
	return " (did you mean " + orList(s) + "?)"
}

// orList writes "a", "a or b", "a, b or c".
func orList(s []string) string {
	if len(s) == 1 {
		return s[0]
	}
	return strings.Join(s[:len(s)-1], ", ") + " or " + s[len(s)-1]
}

// editDistance is how many characters must be inserted, deleted, replaced
// or swapped with their neighbour to turn a into b (the optimal string
// alignment distance): "lsit" is one edit from "list".
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	d := make([][]int, len(ra)+1)
	for i := range d {
		d[i] = make([]int, len(rb)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(ra); i++ {
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(ra)][len(rb)]
}

// dashed puts "--" before each flag name.
func dashed(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = "--" + n
	}
	return out
}

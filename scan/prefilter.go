package scan

import (
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"unicode/utf8"
)

// need is a literal prefilter for a regular expression: every match holds,
// for each clause, at least one of the clause's literals. A text that
// lacks every literal of a clause cannot match, and the expression is not
// run on it; Go's regexp has no such skip of its own unless the expression
// starts with a literal, and tries every position of the text.
type need [][]string

// mayMatch reports whether s holds a literal of every clause.
func (n need) mayMatch(s string) bool { return n.mayMatchIn(s, nil) }

// mayMatchIn is mayMatch where ps, when not nil, holds the pairs of s.
func (n need) mayMatchIn(s string, ps *pairSet) bool {
	for _, clause := range n {
		if !slices.ContainsFunc(clause, func(lit string) bool { return ps.contains(s, lit) }) {
			return false
		}
	}
	return true
}

// Bounds of the analysis: the sets of strings it enumerates, and the
// clauses it keeps (the most selective, tried in that order).
const (
	maxExactStrings  = 32
	maxClauseStrings = 64
	maxClauses       = 4
)

// needOf derives the prefilter of an expression from its syntax.
func needOf(re *regexp.Regexp) need {
	tree, err := syntax.Parse(re.String(), syntax.Perl)
	if err != nil {
		panic("scan: " + err.Error()) // it compiled, so it parses
	}
	info := literalsOf(tree)
	clauses := info.clauses
	if info.exact != nil {
		clauses = appendClause(clauses, info.exact)
	}
	clauses = slices.CompactFunc(sortedClauses(clauses), slices.Equal)
	// The cheapest and most telling first: a clause of one literal is one
	// pass; a long literal is rarely in a text that does not match.
	slices.SortStableFunc(clauses, func(a, b []string) int {
		if one := boolInt(len(a) == 1) - boolInt(len(b) == 1); one != 0 {
			return -one
		}
		if d := shortest(b) - shortest(a); d != 0 {
			return d
		}
		return len(a) - len(b)
	})
	return need(clauses[:min(len(clauses), maxClauses)])
}

// literals is what the analysis knows of a sub-expression: exactly the
// strings it matches (exact, when few), or clauses its every match meets.
type literals struct {
	exact   []string
	clauses [][]string
}

var (
	unknown    = literals{}
	emptyMatch = literals{exact: []string{""}}
)

func literalsOf(re *syntax.Regexp) literals {
	switch re.Op {
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText,
		syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return emptyMatch
	case syntax.OpLiteral:
		// Go's regexp reads a byte of invalid UTF-8 as U+FFFD, which
		// the text does not hold as such.
		if re.Flags&syntax.FoldCase != 0 || slices.Contains(re.Rune, utf8.RuneError) {
			return unknown
		}
		return literals{exact: []string{string(re.Rune)}}
	case syntax.OpCharClass:
		var out []string
		for i := 0; i+1 < len(re.Rune); i += 2 {
			for r := re.Rune[i]; r <= re.Rune[i+1]; r++ {
				if len(out) == maxExactStrings || r == utf8.RuneError {
					return unknown
				}
				out = append(out, string(r))
			}
		}
		return literals{exact: out}
	case syntax.OpCapture:
		return literalsOf(re.Sub[0])
	case syntax.OpQuest:
		return optional(literalsOf(re.Sub[0]))
	case syntax.OpPlus:
		return atLeastOnce(literalsOf(re.Sub[0]))
	case syntax.OpRepeat:
		sub := literalsOf(re.Sub[0])
		switch {
		case re.Min == 1 && re.Max == 1:
			return sub
		case re.Min >= 1:
			return atLeastOnce(sub)
		case re.Max == 1:
			return optional(sub)
		}
		return unknown
	case syntax.OpConcat:
		return concat(re.Sub)
	case syntax.OpAlternate:
		return alternate(re.Sub)
	}
	// Any character, a star, no match: nothing is required.
	return unknown
}

func optional(sub literals) literals {
	if sub.exact == nil || len(sub.exact) == maxExactStrings {
		return unknown
	}
	return literals{exact: append(slices.Clone(sub.exact), "")}
}

// atLeastOnce: each match holds a match of sub, and more after it.
func atLeastOnce(sub literals) literals {
	clauses := sub.clauses
	if sub.exact != nil {
		clauses = appendClause(slices.Clone(clauses), sub.exact)
	}
	return literals{clauses: clauses}
}

// concat enumerates the strings of consecutive parts while they are few,
// and otherwise turns what it has into a clause and starts again.
func concat(subs []*syntax.Regexp) literals {
	acc := []string{""}
	var clauses [][]string
	whole := true // every part so far is exact and acc holds them all
	for _, s := range subs {
		sub := literalsOf(s)
		switch {
		case sub.exact != nil && len(acc)*len(sub.exact) <= maxExactStrings:
			acc = cross(acc, sub.exact)
		case sub.exact != nil:
			clauses, acc, whole = appendClause(clauses, acc), sub.exact, false
		default:
			clauses, acc, whole = append(appendClause(clauses, acc), sub.clauses...), []string{""}, false
		}
	}
	if whole {
		return literals{exact: acc}
	}
	return literals{clauses: appendClause(clauses, acc)}
}

func cross(a, b []string) []string {
	out := make([]string, 0, len(a)*len(b))
	for _, x := range a {
		for _, y := range b {
			out = append(out, x+y)
		}
	}
	return out
}

// alternate: the union of the branches' strings when every branch is
// exact and they are few; otherwise one clause joining each branch's most
// selective clause, when every branch has one.
func alternate(subs []*syntax.Regexp) literals {
	var exact, clause []string
	var common [][]string
	allExact, allClauses := true, true
	for i, s := range subs {
		sub := literalsOf(s)
		if sub.exact == nil {
			allExact = false
		}
		exact = append(exact, sub.exact...)
		clauses := sub.clauses
		if sub.exact != nil {
			clauses = appendClause(slices.Clone(clauses), sub.exact)
		}
		// A clause every branch has holds for the alternation too: the
		// parenthesis all of f\s*\(|g\s*\( need.
		if i == 0 {
			common = sortedClauses(clauses)
		} else {
			mine := sortedClauses(clauses)
			common = slices.DeleteFunc(common, func(c []string) bool {
				return !slices.ContainsFunc(mine, func(m []string) bool { return slices.Equal(c, m) })
			})
		}
		if len(clauses) == 0 {
			allClauses = false // the branch may match "" or anything
			continue
		}
		clause = append(clause, slices.MaxFunc(clauses, func(a, b []string) int { return shortest(a) - shortest(b) })...)
	}
	if allExact && len(exact) <= maxExactStrings {
		return literals{exact: exact}
	}
	clause = minimal(clause)
	if !allClauses || len(clause) > maxClauseStrings {
		return unknown
	}
	return literals{clauses: append(common, clause)}
}

// sortedClauses sorts each clause's literals and the clauses, so that
// equal clauses are equal slices, next to each other.
func sortedClauses(clauses [][]string) [][]string {
	out := make([][]string, len(clauses))
	for i, c := range clauses {
		out[i] = slices.Sorted(slices.Values(c))
	}
	slices.SortFunc(out, slices.Compare)
	return out
}

// appendClause adds the strings as a clause, unless one of them is "",
// which every text holds.
func appendClause(clauses [][]string, strs []string) [][]string {
	if slices.Contains(strs, "") {
		return clauses
	}
	c := minimal(strs)
	if len(c) > maxClauseStrings {
		return clauses
	}
	return append(clauses, c)
}

// minimal drops from a clause the strings that hold another of its
// strings: a text that holds the longer holds the shorter.
func minimal(strs []string) []string {
	out := make([]string, 0, len(strs))
	for i, s := range strs {
		redundant := false
		for j, o := range strs {
			if i != j && strings.Contains(s, o) && (len(o) < len(s) || j < i) {
				redundant = true
				break
			}
		}
		if !redundant {
			out = append(out, s)
		}
	}
	return out
}

func shortest(clause []string) int {
	n := -1
	for _, s := range clause {
		if n < 0 || len(s) < n {
			n = len(s)
		}
	}
	return n
}

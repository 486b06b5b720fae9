package linediff

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"
)

// MaxEdits bounds the search for the shortest diff: past this many
// differing lines, the differing middle is shown removed and added whole.
const MaxEdits = 2000

// context is the number of unchanged lines shown around each change.
const context = 3

// Unified returns the unified diff that turns old into new, with the
// headers "--- oldName" and "+++ newName"; "" when the two are equal.
// Either side may be nil with the name "/dev/null" for a file added or
// removed. A side that is not UTF-8 text, or holds a NUL byte, is
// binary: the diff is then one line saying the files differ.
func Unified(oldName, newName string, old, new []byte) string {
	if bytes.Equal(old, new) {
		return ""
	}
	if binary(old) || binary(new) {
		return fmt.Sprintf("Binary files %s and %s differ\n", oldName, newName)
	}
	a, b := lines(old), lines(new)
	ops := diff(a, b)
	var out strings.Builder
	fmt.Fprintf(&out, "--- %s\n+++ %s\n", oldName, newName)
	for _, h := range hunks(ops) {
		writeHunk(&out, a, b, ops[h[0]:h[1]])
	}
	return out.String()
}

func binary(data []byte) bool {
	return !utf8.Valid(data) || bytes.IndexByte(data, 0) >= 0
}

// lines splits data after each newline; the last line may lack one.
func lines(data []byte) []string {
	var out []string
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			out = append(out, string(data))
			break
		}
		out = append(out, string(data[:i+1]))
		data = data[i+1:]
	}
	return out
}

// op is one line of the diff: kept (' '), removed ('-') from a at index
// ai, or added ('+') from b at index bi. A kept line has both.
type op struct {
	kind   byte
	ai, bi int
}

// diff returns the edit script from a to b.
func diff(a, b []string) []op {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	ops := make([]op, 0, len(a)+len(b))
	for i := range pre {
		ops = append(ops, op{' ', i, i})
	}
	ma, mb := a[pre:len(a)-suf], b[pre:len(b)-suf]
	mid, ok := myers(ma, mb, MaxEdits)
	if !ok {
		mid = mid[:0]
		for i := range ma {
			mid = append(mid, op{'-', i, -1})
		}
		for j := range mb {
			mid = append(mid, op{'+', -1, j})
		}
	}
	for _, o := range mid {
		if o.ai >= 0 {
			o.ai += pre
		}
		if o.bi >= 0 {
			o.bi += pre
		}
		ops = append(ops, o)
	}
	for i := range suf {
		ops = append(ops, op{' ', len(a) - suf + i, len(b) - suf + i})
	}
	return ops
}

// myers returns a shortest edit script from a to b, or false when it needs
// more than maxD removals and additions.
func myers(a, b []string, maxD int) ([]op, bool) {
	n, m := len(a), len(b)
	limit := min(n+m, maxD)
	off := limit + 1
	v := make([]int, 2*limit+3)
	var trace [][]int // trace[d]: v[-d..d] after round d
	end := -1
	for d := 0; d <= limit && end < 0; d++ {
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || k != d && v[off+k-1] < v[off+k+1] {
				x = v[off+k+1]
			} else {
				x = v[off+k-1] + 1
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x, y = x+1, y+1
			}
			v[off+k] = x
			if x >= n && y >= m {
				end = d
			}
		}
		trace = append(trace, append([]int(nil), v[off-d:off+d+1]...))
	}
	if end < 0 {
		return nil, false
	}
	var rev []op
	x, y := n, m
	for d := end; d > 0; d-- {
		prev := trace[d-1]
		at := func(k int) int { return prev[k+d-1] }
		k := x - y
		var pk int
		if k == -d || k != d && at(k-1) < at(k+1) {
			pk = k + 1
		} else {
			pk = k - 1
		}
		px := at(pk)
		py := px - pk
		mx, my := px+1, py // a line of a removed
		if pk == k+1 {
			mx, my = px, py+1 // a line of b added
		}
		for x > mx && y > my {
			x, y = x-1, y-1
			rev = append(rev, op{' ', x, y})
		}
		if pk == k+1 {
			rev = append(rev, op{'+', -1, py})
		} else {
			rev = append(rev, op{'-', px, -1})
		}
		x, y = px, py
	}
	for x > 0 && y > 0 {
		x, y = x-1, y-1
		rev = append(rev, op{' ', x, y})
	}
	out := make([]op, len(rev))
	for i, o := range rev {
		out[len(rev)-1-i] = o
	}
	return out, true
}

// hunks returns the [start, end) ranges of ops that each hunk shows: the
// changes with up to context kept lines around them, joined when their
// context would touch.
func hunks(ops []op) [][2]int {
	var out [][2]int
	for i := 0; i < len(ops); {
		if ops[i].kind == ' ' {
			i++
			continue
		}
		start := max(0, i-context)
		j := i
		for {
			for j < len(ops) && ops[j].kind != ' ' {
				j++
			}
			next := j
			for next < len(ops) && ops[next].kind == ' ' {
				next++
			}
			if next == len(ops) || next-j > 2*context {
				break
			}
			j = next
		}
		end := min(len(ops), j+context)
		out = append(out, [2]int{start, end})
		i = end
	}
	return out
}

// writeHunk writes one hunk: its header and its lines.
func writeHunk(out *strings.Builder, a, b []string, ops []op) {
	aStart, bStart, aCount, bCount := -1, -1, 0, 0
	for _, o := range ops {
		if o.ai >= 0 {
			if aStart < 0 {
				aStart = o.ai
			}
			aCount++
		}
		if o.bi >= 0 {
			if bStart < 0 {
				bStart = o.bi
			}
			bCount++
		}
	}
	fmt.Fprintf(out, "@@ -%s +%s @@\n", span(aStart, aCount), span(bStart, bCount))
	for _, o := range ops {
		line := ""
		switch o.kind {
		case '+':
			line = b[o.bi]
		default:
			line = a[o.ai]
		}
		out.WriteByte(o.kind)
		out.WriteString(line)
		if !strings.HasSuffix(line, "\n") {
			out.WriteString("\n\\ No newline at end of file\n")
		}
	}
}

// span formats a hunk's range on one side: "start,count", or "start" for
// one line. A hunk shows kept lines around every change, so a side with no
// line in a hunk is an empty file: "0,0", as diff -u writes it.
func span(start, count int) string {
	switch count {
	case 0:
		return "0,0"
	case 1:
		return fmt.Sprintf("%d", start+1)
	}
	return fmt.Sprintf("%d,%d", start+1, count)
}

package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"regexp"
	"strconv"
	"strings"
	"unicode"

	"golang.org/x/term"
	"golang.org/x/text/width"

	"github.com/skillkit-go/skillkit/internal/lazyregexp"
)

// info is where lines for people that are neither errors nor the data asked
// for go (summaries, counts, progress, hints): stderr, nothing under
// --quiet.
func (c *cli) info() io.Writer {
	if c.quiet {
		return io.Discard
	}
	return c.stderr
}

// done is where a command says what it did ("installed pdf from ..."):
// stdout, nothing under --quiet.
func (c *cli) done() io.Writer {
	if c.quiet {
		return io.Discard
	}
	return c.stdout
}

// fail prints err as the error of command cmd, in the command line's words
// (see cliWords), and returns exitFailure.
func (c *cli) fail(cmd string, err error) int {
	fmt.Fprintf(c.stderr, "skillkit %s: %s\n", cmd, safeText(cliWords(err.Error())))
	return exitFailure
}

// libraryWords rewrite what the library's messages tell a Go program to
// set into the flag a person types. The library's messages stay as they
// are: they are right for a program calling it.
var libraryWords = []struct {
	re   func() *regexp.Regexp
	repl string
}{
	{lazyregexp.New(`\(Options\.AllowFileURLs\)`), "(allow them with --allow-file-urls)"},
	{lazyregexp.New(`(is not in the allowed hosts \[[^\]]*\])`), "$1 (allow it with --allow-host)"},
	{lazyregexp.New(`\b(install|update) with Force\b`), "$1 with --force"},
	{lazyregexp.New(`\buse Force\b`), "use --force"},
	{lazyregexp.New(`\(install its dependencies with setup\)`), "(skillkit deps --setup runs it, after asking)"},
	{lazyregexp.New(`: install one by its folder$`), ": pick with --skill NAME (repeatable), or --all"},
}

// cliWords rewrites a library message for the command line: option names
// become flags.
func cliWords(msg string) string {
	for _, w := range libraryWords {
		msg = w.re().ReplaceAllString(msg, w.repl)
	}
	return msg
}

// isTerminal reports whether w is a terminal (not a file, a pipe or
// /dev/null, which is a character device but no terminal).
func isTerminal(w any) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// width is how many characters a line of output may hold: the terminal's
// width, else $COLUMNS, else 80.
func (c *cli) width() int {
	if c.columns > 0 {
		return c.columns
	}
	if c.getenv != nil {
		if n, err := strconv.Atoi(c.getenv("COLUMNS")); err == nil && n > 0 {
			return n
		}
	}
	return 80
}

// minLastColumn is the narrowest the last column of a table is cut to,
// even when the others leave less room: a line may then wrap, but a
// description stays readable.
const minLastColumn = 20

// writeTable writes rows (the first is the header) as columns two spaces
// apart, in display width (a wide character counts two). The last column
// is cut with "…" so a line fits width characters.
func writeTable(w io.Writer, width int, rows [][]string) error {
	return writeRows(w, width, len(rows), func(i int) []string { return rows[i] })
}

// writeRows is writeTable for n rows made on demand by row, so that a
// table of thousands of skills is never held whole: row is called twice
// for each, to measure the columns and then to write it, and may reuse
// the slice it returns.
func writeRows(w io.Writer, width, n int, row func(int) []string) error {
	if n == 0 {
		return nil
	}
	cols := len(row(0))
	widths := make([]int, cols)
	for k := range n {
		r := row(k)
		for i := 0; i < cols-1 && i < len(r); i++ {
			widths[i] = max(widths[i], displayWidth(r[i]))
		}
	}
	last := width
	for _, cw := range widths[:cols-1] {
		last -= cw + 2
	}
	last = max(last, minLastColumn)
	bw := bufio.NewWriter(w)
	var line []byte
	for k := range n {
		r := row(k)
		line = line[:0]
		for i := 0; i < cols && i < len(r); i++ {
			if i == cols-1 {
				line = append(line, cut(r[i], last)...)
				break
			}
			line = append(line, r[i]...)
			for range widths[i] - displayWidth(r[i]) + 2 {
				line = append(line, ' ')
			}
		}
		line = append(bytes.TrimRight(line, " "), '\n')
		if _, err := bw.Write(line); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// displayWidth is how many columns s takes on a terminal: two for East
// Asian wide and full-width characters, none for combining marks.
func displayWidth(s string) int {
	n := 0
	for _, r := range s {
		n += runeWidth(r)
	}
	return n
}

func runeWidth(r rune) int {
	switch {
	case unicode.Is(unicode.Mn, r):
		return 0
	case width.LookupRune(r).Kind() == width.EastAsianWide || width.LookupRune(r).Kind() == width.EastAsianFullwidth:
		return 2
	}
	return 1
}

// cut shortens s to at most n columns, ending in "…" when it was longer.
func cut(s string, n int) string {
	if displayWidth(s) <= n {
		return s
	}
	var b strings.Builder
	used := 0
	for _, r := range s {
		rw := runeWidth(r)
		if used+rw > n-1 {
			break
		}
		b.WriteRune(r)
		used += rw
	}
	return b.String() + "…"
}

// oneLine puts s on one line: every run of white space, newlines
// included, becomes one space.
func oneLine(s string) string {
	if isOneLine(s) {
		return s
	}
	return strings.Join(strings.Fields(s), " ")
}

// isOneLine reports whether s is already on one line (white space only
// as single spaces between words), so oneLine need not copy it.
func isOneLine(s string) bool {
	space := true // at the start, a space would be leading
	for _, r := range s {
		isSpace := unicode.IsSpace(r)
		if isSpace && (r != ' ' || space) {
			return false
		}
		space = isSpace
	}
	return s == "" || !space
}

// plural writes n and the noun, with an s unless n is one: "1 skill",
// "2 skills".
func plural(n int, noun string) string {
	return pluralOf(n, noun, noun+"s")
}

// pluralOf writes n and the form of the noun that goes with it: one, or
// many.
func pluralOf(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// short is the first 12 characters of a commit hash.
func short(commit string) string {
	if len(commit) > 12 {
		return commit[:12]
	}
	return commit
}

// nonNil turns a nil slice into an empty one, so JSON shows [] for none.
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

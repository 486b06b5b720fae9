package skill

import (
	"bytes"
	"errors"
)

// Errors from [SplitFrontmatter].
var (
	// ErrNoFrontmatter: the file does not open with a "---" line.
	ErrNoFrontmatter = errors.New("skill: no frontmatter: the file must open with a line that is exactly ---")
	// ErrUnclosedFrontmatter: no line that is exactly "---" closes the frontmatter.
	ErrUnclosedFrontmatter = errors.New("skill: unclosed frontmatter: no line that is exactly --- closes it")
)

var bom = []byte("\xef\xbb\xbf")

// utf16 reports whether data starts with a UTF-16 byte order mark, and in
// which byte order.
func utf16(data []byte) (string, bool) {
	switch {
	case bytes.HasPrefix(data, []byte{0xfe, 0xff}):
		return "big-endian", true
	case bytes.HasPrefix(data, []byte{0xff, 0xfe}):
		return "little-endian", true
	}
	return "", false
}

// crLineEnds reports whether the first line of data ends with a lone CR.
func crLineEnds(data []byte) bool {
	i := bytes.IndexAny(data, "\r\n")
	return i >= 0 && data[i] == '\r' && (i+1 == len(data) || data[i+1] != '\n')
}

// SplitFrontmatter splits SKILL.md content into its YAML frontmatter and its
// Markdown body. It strips a UTF-8 byte order mark and turns CRLF line ends,
// and the lone CR of classic Mac OS files, into LF. The frontmatter opens on the first line, which must be "---", and
// closes at the first later line that is exactly "---" (trailing spaces and
// tabs allowed); "---" inside a value or a body is never mistaken for it,
// because only a whole line counts. The body is everything after the closing
// line, unmodified apart from the line ends; a file that is only frontmatter
// has an empty body.
func SplitFrontmatter(data []byte) (frontmatter, body []byte, err error) {
	data = bytes.TrimPrefix(data, bom)
	if bytes.IndexByte(data, '\r') >= 0 {
		data = bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n"))
		data = bytes.ReplaceAll(data, []byte("\r"), []byte("\n"))
	}
	first, rest, _ := bytes.Cut(data, []byte("\n"))
	if !isDelimiter(first) {
		return nil, nil, ErrNoFrontmatter
	}
	for offset := 0; offset <= len(rest); {
		line := rest[offset:]
		next := len(rest)
		if i := bytes.IndexByte(line, '\n'); i >= 0 {
			line = line[:i]
			next = offset + i + 1
		}
		if isDelimiter(line) {
			return rest[:offset], rest[next:], nil
		}
		if next == len(rest) {
			break
		}
		offset = next
	}
	return nil, nil, ErrUnclosedFrontmatter
}

func isDelimiter(line []byte) bool {
	return string(bytes.TrimRight(line, " \t")) == "---"
}

package safeyaml

import (
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/skillkit-go/skillkit/internal/lazyregexp"
)

// topLevelKey matches a line that opens a top-level field of a YAML mapping:
// a key at the first column, plain or quoted, followed by ":" and a space or
// the line's end. Lines that open with a space, "#", "-" or a flow or block
// indicator continue the field before them.
var topLevelKey = lazyregexp.New(`^(?:"([^"]*)"|'([^']*)'|([^\s#'"\[\]{},&*!|>%@` + "`" + `?:-][^:]*?))[ \t]*:(?:\s|$)`)

// field is one top-level field of a YAML mapping, as lines of text: the line
// that opens it and the indented, blank and comment lines that follow.
type field struct {
	key  string // "" for text before the first key
	line int    // its first line, counted from 1 within the text
	text string
}

// splitFields cuts YAML text into its top-level fields, by lines alone, so
// it works on text that is not valid YAML.
func splitFields(text string) []field {
	var out []field
	cur := field{line: 1}
	var b strings.Builder
	flush := func() {
		cur.text = b.String()
		if cur.key != "" || strings.TrimSpace(stripComments(cur.text)) != "" {
			out = append(out, cur)
		}
		b.Reset()
	}
	for i, line := range strings.SplitAfter(text, "\n") {
		if m := topLevelKey().FindStringSubmatch(line); m != nil {
			flush()
			cur = field{key: m[1] + m[2] + m[3], line: i + 1}
		}
		b.WriteString(line)
	}
	flush()
	return out
}

// stripComments drops whole-line comments, so text made only of comments and
// blank lines counts as empty.
func stripComments(text string) string {
	var b strings.Builder
	for _, line := range strings.Split(text, "\n") {
		if !strings.HasPrefix(strings.TrimSpace(line), "#") {
			b.WriteString(line)
		}
	}
	return b.String()
}

// BrokenField is a top-level field that is not valid YAML on its own.
type BrokenField struct {
	Key  string // "" for text before the first key
	Line int    // counted from 1 within the text
	Err  string // the YAML error, without its line number
}

// RecoverFields reads YAML text that is not valid as a whole one top-level
// field at a time. It returns the mapping of the fields that parse (each
// repaired as ParseMapping repairs, repaired telling whether any needed it)
// and the fields that do not. Each field is parsed on its own, once, so the
// cost grows with the text, and its nodes are moved to the text's lines.
func RecoverFields(text []byte) (root *yaml.Node, repaired bool, broken []BrokenField) {
	root = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	for _, f := range splitFields(string(text)) {
		m, rep, err := ParseMapping([]byte(f.text), true)
		if err != nil {
			broken = append(broken, BrokenField{Key: f.key, Line: f.line, Err: Message(err)})
			continue
		}
		repaired = repaired || rep
		for _, n := range m.Content {
			shiftLines(n, f.line-1, 0)
		}
		root.Content = append(root.Content, m.Content...)
	}
	return root, repaired, broken
}

// shiftLines moves a parsed field's nodes to the line of the text it came
// from. Aliases point at nodes already in the tree, so walking Content alone
// visits each node once.
func shiftLines(n *yaml.Node, by, depth int) {
	if depth > maxDepth {
		return
	}
	n.Line += by
	for _, c := range n.Content {
		shiftLines(c, by, depth+1)
	}
}

// LocateError names the first top-level field of text that is not valid
// YAML on its own; ok is false when every field parses alone (the fault lies
// between fields) and the caller has only the parser's own message.
func LocateError(text []byte) (BrokenField, bool) {
	for _, f := range splitFields(string(text)) {
		if _, _, err := ParseMapping([]byte(f.text), false); err != nil {
			return BrokenField{Key: f.key, Line: f.line, Err: Message(err)}, true
		}
	}
	return BrokenField{}, false
}

var yamlLinePrefix = lazyregexp.New(`^yaml: (?:line \d+: )?`)

// Message is a YAML error without "yaml: line N:": gopkg.in/yaml.v3
// counts lines from 0 for some errors and from 1 for others, so skillkit
// reports the line of the field instead.
func Message(err error) string {
	return yamlLinePrefix().ReplaceAllString(err.Error(), "")
}

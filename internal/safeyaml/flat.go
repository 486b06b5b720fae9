package safeyaml

import (
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// Flat parses the frontmatter most skills write without the YAML
// library, into the node tree yaml.v3 builds for it: a block mapping whose
// keys are plain words and whose values are plain scalars (on one line or
// folded over several), quoted scalars on one line, literal or folded block
// scalars (| |- > >-), empty values, and block mappings of the same. Values
// share the memory of text. For anything else — comments, lists, flow
// collections, anchors, tags, escapes, tabs, values that YAML would read as
// numbers, booleans or null — it returns ok = false and the caller parses
// with yaml.v3, so the subset never changes a result; FuzzFlatYAML holds it
// to yaml.v3's tree.
func Flat(text string) (root *yaml.Node, ok bool) {
	// Frontmatter always ends with a line break; without one the last line
	// of a block scalar would read otherwise.
	if !strings.HasSuffix(text, "\n") || !flatChars(text) {
		return nil, false
	}
	n := strings.Count(text, "\n")
	// Each line makes at most two nodes (a key and its value), plus the
	// root: one allocation for them all.
	p := &flatParser{lines: make([]flatLine, 0, n), nodes: make([]yaml.Node, 0, 2*n+1)}
	for num, rest := 1, text; rest != ""; num++ {
		line, after, _ := strings.Cut(rest, "\n")
		rest = after
		body := strings.TrimLeft(line, " ")
		text := strings.TrimRight(body, " ")
		p.lines = append(p.lines, flatLine{num: num, indent: len(line) - len(body), text: text, trailing: len(text) < len(body) && text != ""})
	}
	first := p.next()
	if first < 0 || p.lines[first].indent != 0 {
		return nil, false
	}
	root, ok = p.mapping(0)
	if !ok || p.next() >= 0 {
		return nil, false
	}
	return root, true
}

// flatChars reports whether text holds only what the subset accepts: no
// control character but the line feed (so no tab, no lone carriage
// return), and only the characters yaml.v3 reads as printable and not as a
// line break.
func flatChars(text string) bool {
	for i := 0; i < len(text); {
		c := text[i]
		if c < utf8.RuneSelf {
			if c < ' ' && c != '\n' || c == 0x7f {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		switch {
		case r == utf8.RuneError && size == 1, r < 0xA0, r == 0x2028, r == 0x2029, r == 0xFEFF,
			r >= 0xD800 && r < 0xE000, r == 0xFFFE, r == 0xFFFF:
			return false
		}
		i += size
	}
	return true
}

type flatLine struct {
	num    int    // 1-based line number within the frontmatter
	indent int    // leading spaces
	text   string // the rest, trailing spaces cut; "" for a blank line
	// trailing: the line had spaces after its text, which a block scalar
	// would keep
	trailing bool
}

type flatParser struct {
	lines []flatLine
	i     int         // the next line to read
	nodes []yaml.Node // where nodes are made; never grown
}

// next returns the index of the next line that is not blank, or -1.
func (p *flatParser) next() int {
	for j := p.i; j < len(p.lines); j++ {
		if p.lines[j].text != "" {
			return j
		}
	}
	return -1
}

// node makes a node.
func (p *flatParser) node(n yaml.Node) *yaml.Node {
	p.nodes = append(p.nodes, n)
	return &p.nodes[len(p.nodes)-1]
}

func (p *flatParser) scalar(style yaml.Style, tag, value string, line, column int) *yaml.Node {
	return p.node(yaml.Node{Kind: yaml.ScalarNode, Style: style, Tag: tag, Value: value, Line: line, Column: column})
}

// mapping reads the entries at exactly indent, up to the first line less
// indented.
func (p *flatParser) mapping(indent int) (*yaml.Node, bool) {
	var m *yaml.Node
	for {
		j := p.next()
		if j < 0 || p.lines[j].indent < indent {
			return m, m != nil
		}
		l := p.lines[j]
		if l.indent > indent {
			return nil, false
		}
		key, rest, ok := flatKey(l.text)
		if !ok {
			return nil, false
		}
		if m == nil {
			m = p.node(yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: l.num, Column: indent + 1})
		}
		p.i = j + 1
		value, ok := p.value(indent, l, rest)
		if !ok {
			return nil, false
		}
		m.Content = append(m.Content, p.scalar(0, "!!str", key, l.num, indent+1), value)
	}
}

// flatKey splits "key: rest" or "key:". The key is a word that YAML reads as
// a string.
func flatKey(text string) (key, rest string, ok bool) {
	n := 0
	for n < len(text) && isKeyByte(text[n], n == 0) {
		n++
	}
	if n == 0 || n > maxFlatKey || n == len(text) || text[n] != ':' || n+1 < len(text) && text[n+1] != ' ' || isSpecialWord(text[:n]) {
		return "", "", false
	}
	return text[:n], text[n+1:], true
}

// maxFlatKey keeps keys well within the 1,024 characters YAML allows an
// implicit key.
const maxFlatKey = 256

func isKeyByte(c byte, first bool) bool {
	letter := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
	return letter || !first && (c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.')
}

// isSpecialWord reports whether a plain scalar starting with a letter is
// one YAML does not read as a string.
func isSpecialWord(s string) bool {
	switch s {
	case "true", "True", "TRUE", "false", "False", "FALSE", "null", "Null", "NULL":
		return true
	}
	return false
}

// value reads the value of the entry on line l, whose text after "key:" is
// rest, in a mapping at indent.
func (p *flatParser) value(indent int, l flatLine, rest string) (*yaml.Node, bool) {
	trimmed := strings.TrimLeft(rest, " ")
	column := l.indent + len(l.text) - len(trimmed) + 1
	if trimmed == "" {
		j := p.next()
		switch {
		case j >= 0 && p.lines[j].indent >= indent && isItem(p.lines[j].text):
			return p.sequence(indent, p.lines[j].indent)
		case j < 0 || p.lines[j].indent <= indent:
			return nil, false // null: yaml.v3 places it where the next token starts
		}
		if _, _, isKey := flatKey(p.lines[j].text); isKey {
			return p.mapping(p.lines[j].indent)
		}
		p.i = j + 1
		return p.plain(indent, p.lines[j].text, p.lines[j].num, p.lines[j].indent+1)
	}
	switch c := trimmed[0]; {
	case c == '"' || c == '\'':
		v, ok := quoted(trimmed)
		if !ok || p.more(indent) {
			return nil, false
		}
		style := yaml.DoubleQuotedStyle
		if c == '\'' {
			style = yaml.SingleQuotedStyle
		}
		return p.scalar(style, "!!str", v, l.num, column), true
	case c == '|' || c == '>':
		return p.block(indent, trimmed, l.num, column)
	}
	return p.plain(indent, trimmed, l.num, column)
}

// isItem reports whether a line opens a sequence entry.
func isItem(text string) bool { return text == "-" || strings.HasPrefix(text, "- ") }

// sequence reads a block sequence of one-line scalars whose dashes stand
// at seqIndent, in a mapping at indent (seqIndent may equal it).
func (p *flatParser) sequence(indent, seqIndent int) (*yaml.Node, bool) {
	var seq *yaml.Node
	for {
		j := p.next()
		if j < 0 || p.lines[j].indent < seqIndent || p.lines[j].indent == seqIndent && !isItem(p.lines[j].text) {
			if j >= 0 && p.lines[j].indent > indent && p.lines[j].indent != seqIndent {
				return nil, false
			}
			return seq, seq != nil
		}
		l := p.lines[j]
		if l.indent > seqIndent || !isItem(l.text) {
			return nil, false
		}
		if seq == nil {
			seq = p.node(yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Line: l.num, Column: seqIndent + 1})
		}
		item := strings.TrimLeft(l.text[1:], " ")
		if item == "" {
			return nil, false
		}
		column := l.indent + len(l.text) - len(item) + 1
		p.i = j + 1
		var v *yaml.Node
		if c := item[0]; c == '"' || c == '\'' {
			s, ok := quoted(item)
			if !ok {
				return nil, false
			}
			style := yaml.DoubleQuotedStyle
			if c == '\'' {
				style = yaml.SingleQuotedStyle
			}
			v = p.scalar(style, "!!str", s, l.num, column)
		} else {
			tag, ok := plainTag(item)
			if !ok || !plainLine(item, true) {
				return nil, false
			}
			v = p.scalar(0, tag, item, l.num, column)
		}
		if p.more(seqIndent) {
			return nil, false // the item goes on, or nests
		}
		seq.Content = append(seq.Content, v)
	}
}

// plainTag returns the tag YAML gives a one-line plain scalar, when it is a
// string, a boolean or null; ok is false for what may read as a number, a
// timestamp or anything else, and for a start YAML refuses.
func plainTag(s string) (tag string, ok bool) {
	switch s {
	case "true", "True", "TRUE", "false", "False", "FALSE":
		return "!!bool", true
	case "null", "Null", "NULL":
		return "!!null", true
	}
	c := s[0]
	switch {
	case c >= utf8.RuneSelf || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		return "!!str", true
	case c >= '0' && c <= '9':
		// A number or a timestamp holds only these.
		if strings.Trim(s, "0123456789abcdefABCDEFxXoO_+-.:tTzZ ") == "" {
			return "", false
		}
		return "!!str", true
	case strings.IndexByte("-?:,[]{}#&*!|>'\"%@`~.+", c) >= 0:
		return "", false
	}
	return "!!str", true
}

// more reports whether a line more indented than indent follows.
func (p *flatParser) more(indent int) bool {
	j := p.next()
	return j >= 0 && p.lines[j].indent > indent
}

// quoted reads a quoted scalar that closes on its line and is all the
// line holds: "..." without escapes, or '...' where a doubled single
// quote stands for one.
func quoted(s string) (string, bool) {
	if len(s) < 2 || s[len(s)-1] != s[0] {
		return "", false
	}
	body := s[1 : len(s)-1]
	if s[0] == '"' {
		return body, !strings.ContainsAny(body, "\\\"")
	}
	if !strings.Contains(body, "'") {
		return body, true
	}
	// Every quote inside must be doubled.
	unq := strings.ReplaceAll(body, "''", "")
	if strings.Contains(unq, "'") {
		return "", false
	}
	return strings.ReplaceAll(body, "''", "'"), true
}

// plainLine reports whether a line of a plain scalar reads as text only:
// no ": " or trailing ":" (a mapping), no " #" (a comment). A line after
// the first must not start with an indicator either.
func plainLine(s string, first bool) bool {
	if strings.Contains(s, ": ") || strings.HasSuffix(s, ":") || strings.Contains(s, " #") {
		return false
	}
	return first || !strings.ContainsRune("#-?:", rune(s[0]))
}

// plain reads a plain scalar starting with first on line num,
// folding the more indented lines that follow: one line break is a space,
// each blank line a line feed.
func (p *flatParser) plain(indent int, first string, num, column int) (*yaml.Node, bool) {
	tag, ok := plainTag(first)
	if !ok || !plainLine(first, true) {
		return nil, false
	}
	value := first
	var b strings.Builder
	for {
		j := p.next()
		if j < 0 || p.lines[j].indent <= indent {
			break
		}
		l := p.lines[j]
		if !plainLine(l.text, false) {
			return nil, false
		}
		if b.Len() == 0 {
			b.WriteString(value)
		}
		if blanks := j - p.i; blanks > 0 {
			b.WriteString(strings.Repeat("\n", blanks))
		} else {
			b.WriteByte(' ')
		}
		b.WriteString(l.text)
		p.i = j + 1
	}
	if b.Len() > 0 {
		value = b.String()
		if tag != "!!str" {
			return nil, false // the hint of the first line may not hold for all
		}
	}
	return p.scalar(0, tag, value, num, column), true
}

// block reads a literal (|) or folded (>) block scalar, clipped or
// stripped (-), whose indentation its first line sets.
func (p *flatParser) block(indent int, header string, num, column int) (*yaml.Node, bool) {
	style := yaml.LiteralStyle
	if header[0] == '>' {
		style = yaml.FoldedStyle
	}
	strip := false
	switch header[1:] {
	case "":
	case "-":
		strip = true
	default:
		return nil, false
	}
	if p.i >= len(p.lines) || p.lines[p.i].text == "" || p.lines[p.i].indent <= indent {
		return nil, false // no content, or blank lines first: left to yaml.v3
	}
	blockIndent := p.lines[p.i].indent
	var b strings.Builder
	blanks := 0
	for ; p.i < len(p.lines); p.i++ {
		l := p.lines[p.i]
		if l.text == "" {
			if l.indent > blockIndent {
				return nil, false // spaces that would be content
			}
			blanks++
			continue
		}
		if l.indent < blockIndent {
			if l.indent > indent {
				return nil, false
			}
			break
		}
		if l.trailing {
			return nil, false
		}
		if b.Len() > 0 {
			switch {
			case style == yaml.LiteralStyle:
				b.WriteString(strings.Repeat("\n", blanks+1))
			case l.indent > blockIndent:
				return nil, false // more indented lines fold otherwise
			case blanks > 0:
				b.WriteString(strings.Repeat("\n", blanks))
			default:
				b.WriteByte(' ')
			}
		} else if style == yaml.FoldedStyle && l.indent > blockIndent {
			return nil, false
		}
		blanks = 0
		b.WriteString(strings.Repeat(" ", l.indent-blockIndent))
		b.WriteString(l.text)
	}
	// The blank lines read past the end belong to what follows.
	p.i -= blanks
	if !strip {
		b.WriteByte('\n')
	}
	return p.scalar(style, "!!str", b.String(), num, column), true
}

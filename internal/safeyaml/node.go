package safeyaml

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/skillkit-go/skillkit/internal/lazyregexp"
)

// maxNodes bounds how many nodes a document may expand to when its aliases
// are followed, so a "billion laughs" document costs a bounded amount of work.
const maxNodes = 100_000

// maxDepth bounds nesting when converting a document to Go values.
const maxDepth = 64

var errYAMLTooLarge = fmt.Errorf("YAML expands to more than %d nodes or %d levels (aliases included)", maxNodes, maxDepth)

// ParseMapping parses YAML text whose root must be a mapping. An empty
// document is an empty mapping. When the text is not valid YAML and repair is
// true, it retries once on a repaired copy (see Repair) and reports
// recovered = true if that worked; the error returned is always the one for
// the original text.
func ParseMapping(text []byte, repair bool) (root *yaml.Node, recovered bool, err error) {
	root, err = Parse(text)
	if err != nil && repair {
		if fixed, changed := Repair(string(text)); changed {
			if r, err2 := Parse([]byte(fixed)); err2 == nil {
				return r, true, nil
			}
		}
	}
	return root, false, err
}

// Parse reads YAML text whose root must be a mapping; an empty document is
// an empty mapping.
func Parse(text []byte) (*yaml.Node, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(text, &doc); err != nil {
		return nil, err
	}
	if doc.Kind == 0 { // empty document
		return &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}, nil
	}
	root := doc.Content[0]
	if root.Kind == yaml.AliasNode {
		root = root.Alias
	}
	if root.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("the frontmatter is a YAML %s, not a mapping of fields", KindName(root))
	}
	return root, nil
}

// KindName names a node's kind for a message: list, mapping, scalar or null.
func KindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.SequenceNode:
		return "list"
	case yaml.MappingNode:
		return "mapping"
	case yaml.ScalarNode:
		if n.Tag == "!!null" {
			return "null"
		}
		return "scalar"
	}
	return "node"
}

// plainKeyValue matches "key: value" on one line, optionally as a list item.
var plainKeyValue = lazyregexp.New(`^( *)((?:- +)?[A-Za-z0-9_.-]+):[ \t]+(\S.*)$`)

// Repair applies the fixes the Agent Skills client guide suggests for
// frontmatter other clients accept although it is not valid YAML, each on a
// shape that no valid YAML has, so a field that parses is never changed:
//   - a plain value holding ": " or ending in ":" (description: Use when: x),
//     or whose indented continuation lines do (a multi-line description with
//     "Triggers:" on a line of its own), becomes a folded block scalar that
//     keeps those lines;
//   - a plain value starting with a reserved indicator ("@", "`") or "%"
//     becomes a folded block scalar, the one way to write it unquoted;
//   - tabs used for indentation become two spaces each.
func Repair(text string) (string, bool) {
	lines := strings.Split(text, "\n")
	changed := false
	for i, line := range lines {
		if expanded, ok := expandLeadingTabs(line); ok {
			lines[i] = expanded
			changed = true
		}
	}
	var out []string
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		m := plainKeyValue().FindStringSubmatch(line)
		if m == nil {
			out = append(out, line)
			continue
		}
		indent, key, value := len(m[1]), m[2], strings.TrimRight(m[3], " \t")
		keyCol := indent // the column of the key itself, after any "- "
		if rest, isItem := strings.CutPrefix(key, "-"); isItem {
			keyCol += 1 + len(rest) - len(strings.TrimLeft(rest, " "))
		}
		// The lines of a value are indented deeper than its key: a block
		// scalar's text, a quoted value's continuation, a plain value's
		// continuation lines (which the block scalar keeps).
		j := i + 1
		blockIndent := keyCol + 2
		plain := isPlainStart(value)
		broken := plain && needsBlock(value)
		for first := true; j < len(lines); j++ {
			t := strings.TrimLeft(lines[j], " ")
			if t == "" {
				continue
			}
			ind := len(lines[j]) - len(t)
			if ind <= keyCol {
				break
			}
			if first || ind < blockIndent {
				blockIndent, first = ind, false
			}
			// A comment line ends a plain value: its colons are no fault.
			broken = broken || plain && !strings.HasPrefix(t, "#") && hasMappingColon(t)
		}
		if !broken {
			// Kept as written, text lines and all: what looks like a key
			// inside a block scalar is text.
			out = append(out, lines[i:j]...)
			i = j - 1
			continue
		}
		out = append(out, strings.Repeat(" ", indent)+key+": >-", strings.Repeat(" ", blockIndent)+value)
		out = append(out, lines[i+1:j]...)
		i = j - 1
		changed = true
	}
	return strings.Join(out, "\n"), changed
}

// isPlainStart reports whether a value is written plain (or starts with a
// character no plain value may start with): not quoted, not a block scalar,
// not a flow collection, anchor, alias, tag or comment.
func isPlainStart(value string) bool {
	switch value[0] {
	case '"', '\'', '|', '>', '[', '{', '&', '*', '!', '#':
		return false
	}
	return true
}

// needsBlock reports whether a plain value's first line cannot be plain
// YAML: it starts with a reserved indicator or "%", or holds a mapping
// colon.
func needsBlock(value string) bool {
	switch value[0] {
	case '@', '`', '%':
		return true
	}
	return hasMappingColon(value)
}

// hasMappingColon reports whether a line of a plain value holds ": " or
// ends in ":", which YAML reads as the start of a mapping; a comment (" #")
// ends the value.
func hasMappingColon(line string) bool {
	for i := 1; i < len(line); i++ {
		if line[i] == '#' && (line[i-1] == ' ' || line[i-1] == '\t') {
			line = line[:i]
			break
		}
	}
	return strings.Contains(line, ": ") || strings.Contains(line, ":\t") || strings.HasSuffix(strings.TrimRight(line, " \t"), ":")
}

func expandLeadingTabs(line string) (string, bool) {
	n := 0
	for n < len(line) && (line[n] == ' ' || line[n] == '\t') {
		n++
	}
	lead := line[:n]
	if !strings.Contains(lead, "\t") {
		return line, false
	}
	return strings.ReplaceAll(lead, "\t", "  ") + line[n:], true
}

// DuplicateKeys returns, for every mapping in the tree, the keys that occur
// more than once, as "path.key" strings in document order.
func DuplicateKeys(n *yaml.Node, prefix string, depth int, out *[]string) {
	if n == nil || depth > maxDepth {
		return
	}
	switch n.Kind {
	case yaml.MappingNode:
		var seen map[string]bool // for large mappings; small ones are scanned
		if len(n.Content) > 2*maxScannedKeys {
			seen = make(map[string]bool, len(n.Content)/2)
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i].Value
			if seen != nil && seen[k] || seen == nil && seenKey(n.Content[:i], k) {
				*out = append(*out, prefix+k)
			}
			if seen != nil {
				seen[k] = true
			}
			if v := n.Content[i+1]; v.Kind == yaml.MappingNode || v.Kind == yaml.SequenceNode {
				DuplicateKeys(v, prefix+k+".", depth+1, out)
			}
		}
	case yaml.SequenceNode:
		for i, c := range n.Content {
			DuplicateKeys(c, prefix+strconv.Itoa(i)+".", depth+1, out)
		}
	}
}

// maxScannedKeys: in mappings of up to this many keys (frontmatter's are
// small) a repeated key is found by scanning the keys before it, without a
// map.
const maxScannedKeys = 32

// seenKey reports whether k is among the keys of a mapping's first pairs.
func seenKey(pairs []*yaml.Node, k string) bool {
	for i := 0; i+1 < len(pairs); i += 2 {
		if pairs[i].Value == k {
			return true
		}
	}
	return false
}

// converter turns yaml.Node trees into plain Go values (map[string]any, []any,
// and scalars), following aliases within a shared node budget.
type converter struct {
	budget int
	// typed resolves scalars to their YAML 1.2 types (int64, float64, bool,
	// nil, string), as a JSON Schema needs. When false every scalar keeps its
	// source text as a string (only null becomes nil), so "version: 1.0" stays
	// "1.0" and "yes" stays "yes".
	typed bool
}

// Decode turns the tree under n into plain Go values (map[string]any,
// []any and scalars), following aliases within a budget of 100,000 nodes
// and 64 levels. typed resolves scalars to their YAML 1.2 types
// (int64, float64, bool, nil, string), as a JSON Schema needs; untyped, every
// scalar keeps its source text (only null becomes nil), so "version: 1.0"
// stays "1.0".
func Decode(n *yaml.Node, typed bool) (any, error) {
	c := &converter{budget: maxNodes, typed: typed}
	return c.value(n, 0)
}

func (c *converter) value(n *yaml.Node, depth int) (any, error) {
	c.budget--
	if c.budget < 0 || depth > maxDepth {
		return nil, errYAMLTooLarge
	}
	switch n.Kind {
	case yaml.AliasNode:
		return c.value(n.Alias, depth+1)
	case yaml.ScalarNode:
		return c.scalar(n)
	case yaml.SequenceNode:
		out := make([]any, 0, len(n.Content))
		for _, item := range n.Content {
			v, err := c.value(item, depth+1)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	case yaml.MappingNode:
		out := make(map[string]any, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			if k.Kind == yaml.AliasNode {
				k = k.Alias
			}
			if k.Tag == "!!merge" {
				if err := c.merge(out, n.Content[i+1], depth+1); err != nil {
					return nil, err
				}
				continue
			}
			v, err := c.value(n.Content[i+1], depth+1)
			if err != nil {
				return nil, err
			}
			out[k.Value] = v
		}
		return out, nil
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return nil, nil
		}
		return c.value(n.Content[0], depth+1)
	}
	return nil, fmt.Errorf("unsupported YAML node kind %d", n.Kind)
}

// merge applies a "<<" merge key: keys already present win.
func (c *converter) merge(out map[string]any, src *yaml.Node, depth int) error {
	v, err := c.value(src, depth)
	if err != nil {
		return err
	}
	maps := []any{v}
	if list, ok := v.([]any); ok {
		maps = list
	}
	for _, m := range maps {
		mm, ok := m.(map[string]any)
		if !ok {
			return errors.New("merge key << needs a mapping or a list of mappings")
		}
		for k, val := range mm {
			if _, exists := out[k]; !exists {
				out[k] = val
			}
		}
	}
	return nil
}

func (c *converter) scalar(n *yaml.Node) (any, error) {
	tag := n.ShortTag()
	if tag == "!!null" {
		return nil, nil
	}
	if !c.typed {
		return n.Value, nil
	}
	switch tag {
	case "!!bool":
		var b bool
		if err := n.Decode(&b); err != nil {
			return nil, err
		}
		return b, nil
	case "!!int":
		var i int64
		if err := n.Decode(&i); err == nil {
			return i, nil
		}
		var f float64
		if err := n.Decode(&f); err != nil {
			return nil, err
		}
		return f, nil
	case "!!float":
		var f float64
		if err := n.Decode(&f); err != nil {
			return nil, err
		}
		if math.IsInf(f, 0) || math.IsNaN(f) {
			return nil, fmt.Errorf("line %d: %q is not a finite number", n.Line, n.Value)
		}
		return f, nil
	}
	return n.Value, nil
}

// Lookup returns the value node of key in mapping m (the last one when the
// key is duplicated, as most YAML readers do), following an alias.
func Lookup(m *yaml.Node, key string) *yaml.Node {
	var found *yaml.Node
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			found = m.Content[i+1]
		}
	}
	if found != nil && found.Kind == yaml.AliasNode {
		found = found.Alias
	}
	return found
}

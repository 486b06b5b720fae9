package schema

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/skillkit-go/skillkit/internal/lazyregexp"
)

// ErrInvalid is wrapped by every error Compile returns.
var ErrInvalid = errors.New("schema: invalid JSON Schema")

// draft2020 is the one dialect understood; a "$schema" naming it is allowed,
// with or without the empty fragment.
const draft2020 = "https://json-schema.org/draft/2020-12/schema"

// unsupported are the 2020-12 keywords (and earlier drafts' spellings of
// them) that would change what validates but are not implemented; a schema
// using one is refused rather than half-understood.
var unsupported = []string{"$dynamicAnchor", "$dynamicRef", "$recursiveAnchor", "$recursiveRef"}

// anchorName is the form draft 2020-12 gives $anchor.
var anchorName = lazyregexp.New(`^[A-Za-z_][-A-Za-z0-9._]*$`)

var jsonTypes = []string{"array", "boolean", "integer", "null", "number", "object", "string"}

// node is one compiled (sub)schema. Only keywords that constrain a value or
// carry a default are kept; annotations (title, description, format,
// examples, content*) are ignored, as draft 2020-12 allows.
type node struct {
	// allow is set for the boolean schemas true and false.
	allow *bool

	types []string
	enum  []any
	cnst  *any
	// enumKeys and cnstKey are the canonical forms of enum's values and
	// const's, computed once.
	enumKeys []string
	cnstKey  string

	multipleOf, maximum, exclusiveMaximum, minimum, exclusiveMinimum *big.Rat

	maxLength, minLength, maxItems, minItems, maxProperties, minProperties, maxContains, minContains int // -1 when absent

	pattern     *regexp.Regexp
	uniqueItems bool

	required          []string
	dependentRequired [][2]string // property, required when it is present
	properties        map[string]*node
	propertyOrder     []string // sorted, for deterministic walks
	patternProperties []patternSchema
	additional        *node
	propertyNames     *node
	dependentSchemas  []namedSchema

	prefixItems []*node
	items       *node
	contains    *node

	unevaluatedProperties, unevaluatedItems *node

	allOf, anyOf, oneOf []*node
	not                 *node
	ifSchema, then, els *node

	ref *node
	def *any
}

type patternSchema struct {
	re *regexp.Regexp
	s  *node
}

type namedSchema struct {
	name string
	s    *node
}

// compiler turns a decoded document into nodes. Nodes are keyed by the
// JSON pointer of their location, so a $ref and the place it points to
// share one node and recursive schemas are finite.
type compiler struct {
	name  string // what the schema is, for errors
	root  any
	nodes map[string]*node
	// anchors maps each $anchor to the pointer of its schema.
	anchors map[string]string
	// refs wait until every schema is compiled, since a $ref may name an
	// anchor defined further on.
	refs []pendingRef
}

type pendingRef struct {
	from *node
	at   string // the pointer of the $ref keyword
	ref  string
}

// compileAll compiles the document and then its references, in rounds:
// a pointer may lead to a schema not compiled yet, holding more
// references.
func (c *compiler) compileAll() (*node, error) {
	root, err := c.compile("", c.root)
	if err != nil {
		return nil, err
	}
	var anchored []pendingRef
	for len(c.refs) > 0 {
		refs := c.refs
		c.refs = nil
		for _, r := range refs {
			frag, ok := c.local(r.ref)
			switch {
			case !ok:
				return nil, c.invalid(r.at, "external schema references are not allowed: %s", r.ref)
			case frag != "" && !strings.HasPrefix(frag, "/"):
				anchored = append(anchored, r)
				continue
			}
			target, err := url.PathUnescape(frag)
			if err != nil {
				return nil, c.invalid(r.at, "%s is not a JSON pointer into this schema", display(r.ref))
			}
			v, found := lookup(c.root, target)
			if !found {
				return nil, c.invalid(r.at, "%s points at nothing", display(r.ref))
			}
			if r.from.ref, err = c.compile(target, v); err != nil {
				return nil, err
			}
		}
	}
	for _, r := range anchored {
		frag, _ := c.local(r.ref)
		name, err := url.PathUnescape(frag)
		target, found := c.anchors[name]
		if err != nil || !found {
			return nil, c.invalid(r.at, "%s names no $anchor of this schema", display(r.ref))
		}
		r.from.ref = c.nodes[target]
	}
	return root, nil
}

// compile reads the schema at ptr (a JSON pointer into the document).
func (c *compiler) compile(ptr string, v any) (*node, error) {
	if n, ok := c.nodes[ptr]; ok {
		return n, nil
	}
	n := &node{maxLength: -1, minLength: -1, maxItems: -1, minItems: -1, maxProperties: -1,
		minProperties: -1, maxContains: -1, minContains: -1}
	c.nodes[ptr] = n
	switch s := v.(type) {
	case bool:
		n.allow = &s
		return n, nil
	case map[string]any:
		return n, c.object(ptr, s, n)
	}
	return nil, c.invalid(ptr, "a schema must be an object or a boolean, not %s", kindOf(v))
}

func (c *compiler) object(ptr string, s map[string]any, n *node) error {
	for _, k := range unsupported {
		if _, ok := s[k]; ok {
			return c.invalid(ptr+"/"+escape(k), "%s is not supported: skillkit implements draft 2020-12 without dynamic references (docs/skill-config.md)", k)
		}
	}
	if v, ok := s["$schema"]; ok {
		if str, _ := v.(string); strings.TrimSuffix(str, "#") != draft2020 {
			return c.invalid(ptr+"/$schema", "only draft 2020-12 (%s) is supported, not %s", draft2020, display(v))
		}
	}
	if v, ok := s["$id"]; ok && ptr != "" {
		return c.invalid(ptr+"/$id", "$id is only allowed at the root, not %s", display(v))
	}
	at := func(k string) string { return ptr + "/" + escape(k) }
	sub := func(k string) (*node, error) {
		v, ok := s[k]
		if !ok {
			return nil, nil
		}
		return c.compile(at(k), v)
	}
	list := func(k string) ([]*node, error) {
		v, ok := s[k]
		if !ok {
			return nil, nil
		}
		arr, ok := v.([]any)
		if !ok || len(arr) == 0 {
			return nil, c.invalid(at(k), "must be a non-empty array of schemas")
		}
		out := make([]*node, len(arr))
		for i, item := range arr {
			var err error
			if out[i], err = c.compile(at(k)+"/"+strconv.Itoa(i), item); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	schemaMap := func(k string, each func(name string, sub *node) error) error {
		v, ok := s[k]
		if !ok {
			return nil
		}
		m, ok := v.(map[string]any)
		if !ok {
			return c.invalid(at(k), "must be an object of schemas")
		}
		for _, name := range sortedKeys(m) {
			sn, err := c.compile(at(k)+"/"+escape(name), m[name])
			if err != nil {
				return err
			}
			if err := each(name, sn); err != nil {
				return err
			}
		}
		return nil
	}
	var err error

	if v, ok := s["$ref"]; ok {
		ref, ok := v.(string)
		if !ok {
			return c.invalid(at("$ref"), "must be a string")
		}
		c.refs = append(c.refs, pendingRef{from: n, at: at("$ref"), ref: ref})
	}
	if v, ok := s["$anchor"]; ok {
		name, _ := v.(string)
		if !anchorName().MatchString(name) {
			return c.invalid(at("$anchor"), "%s is not an anchor name (a letter or _, then letters, digits, -, _ and .)", display(v))
		}
		if prev, dup := c.anchors[name]; dup {
			return c.invalid(at("$anchor"), "the anchor %s is also defined at %s", display(name), prev)
		}
		c.anchors[name] = ptr
	}
	if v, ok := s["type"]; ok {
		if n.types, err = typeList(v); err != nil {
			return c.invalid(at("type"), "%v", err)
		}
	}
	if v, ok := s["enum"]; ok {
		arr, ok := v.([]any)
		if !ok {
			return c.invalid(at("enum"), "must be an array")
		}
		n.enum = arr
		n.enumKeys = make([]string, len(arr))
		for i, e := range arr {
			n.enumKeys[i] = canonical(e)
		}
	}
	if v, ok := s["const"]; ok {
		n.cnst, n.cnstKey = &v, canonical(v)
	}
	if v, ok := s["default"]; ok {
		n.def = &v
	}
	for _, kw := range []struct {
		k   string
		dst **big.Rat
	}{{"multipleOf", &n.multipleOf}, {"maximum", &n.maximum}, {"exclusiveMaximum", &n.exclusiveMaximum},
		{"minimum", &n.minimum}, {"exclusiveMinimum", &n.exclusiveMinimum}} {
		k, dst := kw.k, kw.dst
		v, ok := s[k]
		if !ok {
			continue
		}
		num, ok := asNumber(v)
		if !ok || num.exact == nil {
			return c.invalid(at(k), "must be a number within ±1e%d, not %s", maxExactExponent, display(v))
		}
		if k == "multipleOf" && num.exact.Sign() <= 0 {
			return c.invalid(at(k), "must be greater than 0")
		}
		*dst = num.exact
	}
	for _, kw := range []struct {
		k   string
		dst *int
	}{{"maxLength", &n.maxLength}, {"minLength", &n.minLength}, {"maxItems", &n.maxItems},
		{"minItems", &n.minItems}, {"maxProperties", &n.maxProperties}, {"minProperties", &n.minProperties},
		{"maxContains", &n.maxContains}, {"minContains", &n.minContains}} {
		k, dst := kw.k, kw.dst
		v, ok := s[k]
		if !ok {
			continue
		}
		num, ok := asNumber(v)
		if !ok || num.exact == nil || !num.exact.IsInt() || num.exact.Sign() < 0 || !num.exact.Num().IsInt64() {
			return c.invalid(at(k), "must be a non-negative integer, not %s", display(v))
		}
		*dst = int(min(num.exact.Num().Int64(), int64(maxInt)))
	}
	if v, ok := s["pattern"]; ok {
		if n.pattern, err = compilePattern(v); err != nil {
			return c.invalid(at("pattern"), "%v", err)
		}
	}
	if v, ok := s["uniqueItems"]; ok {
		if n.uniqueItems, ok = v.(bool); !ok {
			return c.invalid(at("uniqueItems"), "must be a boolean")
		}
	}
	if v, ok := s["required"]; ok {
		if n.required, err = stringSet(v); err != nil {
			return c.invalid(at("required"), "%v", err)
		}
	}
	if v, ok := s["dependentRequired"]; ok {
		m, ok := v.(map[string]any)
		if !ok {
			return c.invalid(at("dependentRequired"), "must be an object of arrays of strings")
		}
		for _, name := range sortedKeys(m) {
			names, err := stringSet(m[name])
			if err != nil {
				return c.invalid(at("dependentRequired")+"/"+escape(name), "%v", err)
			}
			for _, r := range names {
				n.dependentRequired = append(n.dependentRequired, [2]string{name, r})
			}
		}
	}
	if err := schemaMap("properties", func(name string, sn *node) error {
		if n.properties == nil {
			n.properties = map[string]*node{}
		}
		n.properties[name] = sn
		n.propertyOrder = append(n.propertyOrder, name)
		return nil
	}); err != nil {
		return err
	}
	if err := schemaMap("patternProperties", func(name string, sn *node) error {
		re, err := compilePattern(name)
		if err != nil {
			return c.invalid(at("patternProperties")+"/"+escape(name), "%v", err)
		}
		n.patternProperties = append(n.patternProperties, patternSchema{re, sn})
		return nil
	}); err != nil {
		return err
	}
	if err := schemaMap("dependentSchemas", func(name string, sn *node) error {
		n.dependentSchemas = append(n.dependentSchemas, namedSchema{name, sn})
		return nil
	}); err != nil {
		return err
	}
	// $defs is compiled even when nothing refers to it, so a broken
	// definition is reported where it is written.
	if err := schemaMap("$defs", func(string, *node) error { return nil }); err != nil {
		return err
	}
	for _, kw := range []struct {
		k   string
		dst **node
	}{{"additionalProperties", &n.additional}, {"propertyNames", &n.propertyNames}, {"items", &n.items},
		{"contains", &n.contains}, {"not", &n.not}, {"if", &n.ifSchema}, {"then", &n.then}, {"else", &n.els},
		{"unevaluatedProperties", &n.unevaluatedProperties}, {"unevaluatedItems", &n.unevaluatedItems}} {
		if *kw.dst, err = sub(kw.k); err != nil {
			return err
		}
	}
	for _, kw := range []struct {
		k   string
		dst *[]*node
	}{{"prefixItems", &n.prefixItems}, {"allOf", &n.allOf}, {"anyOf", &n.anyOf}, {"oneOf", &n.oneOf}} {
		if *kw.dst, err = list(kw.k); err != nil {
			return err
		}
	}
	return nil
}

const maxInt = int(^uint(0) >> 1)

// local returns the fragment of a reference to this document: "#..." or
// the root's $id (absolute, or relative to it) with a fragment. ok is false
// for a reference to anything else.
func (c *compiler) local(ref string) (fragment string, ok bool) {
	if frag, ok := strings.CutPrefix(ref, "#"); ok {
		return frag, true
	}
	root, _ := c.root.(map[string]any)
	id, _ := root["$id"].(string)
	base, err := url.Parse(id)
	if id == "" || err != nil || !base.IsAbs() {
		return "", false
	}
	u, err := url.Parse(ref)
	if err != nil {
		return "", false
	}
	u = base.ResolveReference(u)
	frag := u.EscapedFragment()
	u.Fragment, u.RawFragment, base.Fragment, base.RawFragment = "", "", "", ""
	return frag, u.String() == base.String()
}

// lookup follows an RFC 6901 pointer.
func lookup(doc any, ptr string) (any, bool) {
	if ptr == "" {
		return doc, true
	}
	for _, tok := range strings.Split(ptr[1:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch d := doc.(type) {
		case map[string]any:
			v, ok := d[tok]
			if !ok {
				return nil, false
			}
			doc = v
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(d) || strconv.Itoa(i) != tok {
				return nil, false
			}
			doc = d[i]
		default:
			return nil, false
		}
	}
	return doc, true
}

func typeList(v any) ([]string, error) {
	var names []string
	switch t := v.(type) {
	case string:
		names = []string{t}
	case []any:
		for _, x := range t {
			s, ok := x.(string)
			if !ok {
				return nil, fmt.Errorf("must be a type name or an array of them, not %s", display(v))
			}
			names = append(names, s)
		}
	default:
		return nil, fmt.Errorf("must be a type name or an array of them, not %s", display(v))
	}
	for _, name := range names {
		if !slices.Contains(jsonTypes, name) {
			return nil, fmt.Errorf("%s is not a JSON type (%s)", display(name), strings.Join(jsonTypes, ", "))
		}
	}
	return names, nil
}

func stringSet(v any) ([]string, error) {
	arr, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("must be an array of strings, not %s", display(v))
	}
	out := make([]string, 0, len(arr))
	for _, x := range arr {
		s, ok := x.(string)
		if !ok {
			return nil, fmt.Errorf("must be an array of strings, not %s", display(v))
		}
		if slices.Contains(out, s) {
			return nil, fmt.Errorf("names %s twice", display(s))
		}
		out = append(out, s)
	}
	return out, nil
}

// compilePattern compiles a regular expression with Go's regexp (RE2):
// matching takes linear time whatever the pattern, which untrusted schemas
// need; ECMA 262 features such as back-references are refused.
func compilePattern(v any) (*regexp.Regexp, error) {
	s, ok := v.(string)
	if !ok {
		return nil, fmt.Errorf("must be a string, not %s", display(v))
	}
	re, err := regexp.Compile(s)
	if err != nil {
		return nil, fmt.Errorf("not a regular expression Go accepts: %v", err)
	}
	return re, nil
}

func (c *compiler) invalid(ptr, format string, args ...any) error {
	where := ptr
	if where == "" {
		where = "the root"
	}
	return fmt.Errorf("%w %s at %s: %s", ErrInvalid, c.name, where, fmt.Sprintf(format, args...))
}

func escape(key string) string {
	return strings.ReplaceAll(strings.ReplaceAll(key, "~", "~0"), "/", "~1")
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// kindOf names a decoded JSON value's type as JSON Schema does.
func kindOf(v any) string {
	switch t := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	case json.Number:
		if plainInteger(string(t)) {
			return "integer" // the common case, without parsing
		}
	}
	if n, ok := asNumber(v); ok {
		if n.isInteger() {
			return "integer"
		}
		return "number"
	}
	return fmt.Sprintf("%T", v)
}

// maxDisplay bounds, in characters, how much of an object or array a
// message quotes.
const maxDisplay = 60

// display quotes a value for a message: strings in single quotes, numbers
// as written, objects and arrays as JSON, cut after maxDisplay characters.
func display(v any) string {
	switch t := v.(type) {
	case string:
		q := strconv.Quote(t)
		return "'" + q[1:len(q)-1] + "'"
	case nil:
		return "null"
	case bool:
		return strconv.FormatBool(t)
	case json.Number:
		return string(t)
	case map[string]any, []any:
		b, err := json.Marshal(v)
		if err != nil {
			return kindOf(v)
		}
		if text := []rune(string(b)); len(text) > maxDisplay {
			return string(text[:maxDisplay]) + "…"
		}
		return string(b)
	}
	if n, ok := asNumber(v); ok {
		return n.String()
	}
	return fmt.Sprintf("%v", v)
}

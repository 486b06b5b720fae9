package schema

import (
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// inPlace lists the subschemas that apply to the same value as n, the
// edges along which a cycle would never end.
func (n *node) inPlace() []*node {
	out := []*node{n.ref, n.not, n.ifSchema, n.then, n.els}
	out = append(out, n.allOf...)
	out = append(out, n.anyOf...)
	out = append(out, n.oneOf...)
	for _, d := range n.dependentSchemas {
		out = append(out, d.s)
	}
	return out
}

// checkCycles refuses a schema that could apply itself to the same value
// forever ({"$ref": "#"}, or two definitions referring to each other).
// Recursion through properties or items is fine: the value gets smaller.
func (c *compiler) checkCycles() error {
	nodes := c.nodes
	const (
		unseen = iota
		active
		done
	)
	state := map[*node]int{}
	var visit func(n *node) bool
	visit = func(n *node) bool {
		switch state[n] {
		case active:
			return false
		case done:
			return true
		}
		state[n] = active
		for _, next := range n.inPlace() {
			if next != nil && !visit(next) {
				return false
			}
		}
		state[n] = done
		return true
	}
	ptrs := make([]string, 0, len(nodes))
	for p := range nodes {
		ptrs = append(ptrs, p)
	}
	slices.Sort(ptrs)
	for _, p := range ptrs {
		if !visit(nodes[p]) {
			return c.invalid(p, "$ref cycle: the schema would apply itself to the same value forever")
		}
	}
	return nil
}

// evaluated is what a schema looked at of the value it validated, the
// annotations unevaluatedProperties and unevaluatedItems read. Only kept
// when a schema uses one of them (validator.annotate).
type evaluated struct {
	props    map[string]bool
	items    map[int]bool
	allItems bool
}

func (e *evaluated) merge(o *evaluated) {
	if o == nil {
		return
	}
	for k := range o.props {
		e.props[k] = true
	}
	for i := range o.items {
		e.items[i] = true
	}
	e.allItems = e.allItems || o.allItems
}

// maxSteps bounds the (sub)schemas evaluated for one document. Work is
// otherwise the document's size times the schema's, except that anyOf and
// oneOf under references can multiply: 30 definitions, each an anyOf of
// two references to the next, are 2^30 evaluations of one value, and
// schemas come from skills. A legitimate document of 1 MiB (the
// executor's limit) has some 100,000 values and needs far fewer.
const maxSteps = 4_000_000

// validator evaluates one document.
type validator struct {
	annotate bool
	// budget is how many more evaluations may start; over is set once
	// it ran out, and every evaluation then stops at once.
	budget int
	over   bool
}

// eval returns every way v breaks n (path is where v is in the document)
// and, when annotating, what n evaluated of v; that is nil when v is not
// valid, since failed schemas give no annotations.
func (va *validator) eval(n *node, v any, path []string) ([]Problem, *evaluated) {
	if va.budget--; va.budget < 0 {
		va.over = true
	}
	if va.over {
		// Validate reports the budget instead of any result, so every
		// evaluation now passes: anyOf stops at its first branch and the
		// recursion unwinds at once.
		return nil, nil
	}
	if n.allow != nil {
		if *n.allow {
			return nil, va.none()
		}
		return []Problem{at(path, "no value is allowed here (the schema is false)")}, nil
	}
	var out []Problem
	seen := va.none()
	add := func(msg string, args ...any) { out = append(out, at(path, fmt.Sprintf(msg, args...))) }
	// apply evaluates a subschema on the same value, keeping its problems
	// and what it evaluated.
	apply := func(s *node) {
		p, ev := va.eval(s, v, path)
		out = append(out, p...)
		if seen != nil {
			seen.merge(ev)
		}
	}

	if n.ref != nil {
		apply(n.ref)
	}
	if n.types != nil && !slices.ContainsFunc(n.types, func(t string) bool { return hasType(v, t) }) {
		got := kindOf(v)
		if got == "integer" {
			got = "number"
		}
		add("got %s, want %s", got, strings.Join(n.types, " or "))
	}
	var key string // v's canonical form, when enum or const needs it
	if n.enum != nil || n.cnst != nil {
		key = canonical(v)
	}
	if n.enum != nil && !slices.Contains(n.enumKeys, key) {
		if len(n.enum) == 1 {
			add("value must be %s", display(n.enum[0]))
		} else {
			want := make([]string, len(n.enum))
			for i, e := range n.enum {
				want[i] = display(e)
			}
			add("value must be one of %s", strings.Join(want, ", "))
		}
	}
	if n.cnst != nil && key != n.cnstKey {
		add("value must be %s", display(*n.cnst))
	}
	if n.multipleOf != nil || n.maximum != nil || n.exclusiveMaximum != nil || n.minimum != nil || n.exclusiveMinimum != nil {
		if num, ok := asNumber(v); ok {
			out = append(out, n.number(num, path)...)
		}
	}
	switch t := v.(type) {
	case string:
		if n.maxLength >= 0 || n.minLength >= 0 {
			length := utf8.RuneCountInString(t)
			if n.maxLength >= 0 && length > n.maxLength {
				add("maxLength: got %d, want %d", length, n.maxLength)
			}
			if n.minLength >= 0 && length < n.minLength {
				add("minLength: got %d, want %d", length, n.minLength)
			}
		}
		if n.pattern != nil && !n.pattern.MatchString(t) {
			add("%s does not match pattern %s", display(t), display(n.pattern.String()))
		}
	case []any:
		out = append(out, va.array(n, t, path, seen)...)
	case map[string]any:
		// object applies dependentSchemas through apply, which appends to
		// out itself: its own problems are appended after it returns.
		own := va.object(n, t, path, seen, apply)
		out = append(out, own...)
	}

	for _, s := range n.allOf {
		apply(s)
	}
	if n.anyOf != nil {
		var all []Problem
		matched := false
		for _, s := range n.anyOf {
			p, ev := va.eval(s, v, path)
			if p == nil {
				matched = true
				if seen == nil {
					break
				}
				seen.merge(ev) // every branch that matches counts
				continue
			}
			all = append(all, p...)
		}
		if !matched {
			out = append(out, all...)
		}
	}
	if n.oneOf != nil {
		var all []Problem
		var matched []string
		var matchedSeen *evaluated
		for i, s := range n.oneOf {
			if p, ev := va.eval(s, v, path); p != nil {
				all = append(all, p...)
			} else {
				matched = append(matched, strconv.Itoa(i))
				matchedSeen = ev
			}
		}
		switch {
		case len(matched) == 0:
			out = append(out, all...)
		case len(matched) > 1:
			add("value matches oneOf subschemas %s; want exactly one", strings.Join(matched, ", "))
		case seen != nil:
			seen.merge(matchedSeen)
		}
	}
	if n.not != nil {
		if p, _ := va.eval(n.not, v, path); p == nil {
			add("value must not match the 'not' schema")
		}
	}
	if n.ifSchema != nil {
		p, ev := va.eval(n.ifSchema, v, path)
		if p == nil {
			if seen != nil {
				seen.merge(ev)
			}
			if n.then != nil {
				apply(n.then)
			}
		} else if n.els != nil {
			apply(n.els)
		}
	}
	// The unevaluated keywords come last: they read what all the others,
	// here and in the subschemas applied in place, evaluated.
	if seen != nil {
		out = append(out, va.unevaluated(n, v, path, seen)...)
	}
	if out != nil {
		// The caller copies these problems into its own: that work is
		// charged too, or failing branches multiplied by nesting would
		// cost more than the evaluations.
		va.budget -= len(out)
		return out, nil
	}
	return nil, seen
}

// none is an empty record of what was evaluated, or nil when not
// annotating.
func (va *validator) none() *evaluated {
	if !va.annotate {
		return nil
	}
	return &evaluated{props: map[string]bool{}, items: map[int]bool{}}
}

func (va *validator) unevaluated(n *node, v any, path []string, seen *evaluated) []Problem {
	var out []Problem
	switch t := v.(type) {
	case map[string]any:
		if n.unevaluatedProperties == nil {
			return nil
		}
		for _, name := range sortedKeys(t) {
			if seen.props[name] {
				continue
			}
			p, _ := va.eval(n.unevaluatedProperties, t[name], append(slices.Clip(path), name))
			if p != nil && n.unevaluatedProperties.allow != nil {
				p = []Problem{at(append(slices.Clip(path), name), "property is not allowed (unevaluatedProperties)")}
			}
			out = append(out, p...)
			seen.props[name] = true
		}
	case []any:
		if n.unevaluatedItems == nil || seen.allItems {
			return nil
		}
		for i, item := range t {
			if seen.items[i] {
				continue
			}
			p, _ := va.eval(n.unevaluatedItems, item, append(slices.Clip(path), strconv.Itoa(i)))
			if p != nil && n.unevaluatedItems.allow != nil {
				p = []Problem{at(append(slices.Clip(path), strconv.Itoa(i)), "item is not allowed (unevaluatedItems)")}
			}
			out = append(out, p...)
		}
		seen.allItems = true
	}
	return out
}

func (n *node) number(num number, path []string) []Problem {
	var out []Problem
	bound := func(b *big.Rat, name string, bad func(c int) bool) {
		if b != nil && bad(num.cmp(b)) {
			out = append(out, at(path, fmt.Sprintf("%s: got %s, want %s", name, num, ratString(b))))
		}
	}
	bound(n.minimum, "minimum", func(c int) bool { return c < 0 })
	bound(n.maximum, "maximum", func(c int) bool { return c > 0 })
	bound(n.exclusiveMinimum, "exclusiveMinimum", func(c int) bool { return c <= 0 })
	bound(n.exclusiveMaximum, "exclusiveMaximum", func(c int) bool { return c >= 0 })
	if n.multipleOf != nil && !num.multipleOf(n.multipleOf) {
		out = append(out, at(path, fmt.Sprintf("multipleOf: got %s, want %s", num, ratString(n.multipleOf))))
	}
	return out
}

func (va *validator) array(n *node, arr []any, path []string, seen *evaluated) []Problem {
	var out []Problem
	add := func(msg string, args ...any) { out = append(out, at(path, fmt.Sprintf(msg, args...))) }
	if n.maxItems >= 0 && len(arr) > n.maxItems {
		add("maxItems: got %d, want %d", len(arr), n.maxItems)
	}
	if n.minItems >= 0 && len(arr) < n.minItems {
		add("minItems: got %d, want %d", len(arr), n.minItems)
	}
	if n.uniqueItems {
		first := make(map[string]int, len(arr))
		for i, item := range arr {
			key := canonical(item)
			if j, dup := first[key]; dup {
				add("items at %d and %d are equal", j, i)
				break
			}
			first[key] = i
		}
	}
	for i, item := range arr {
		child := append(slices.Clip(path), strconv.Itoa(i))
		var p []Problem
		switch {
		case i < len(n.prefixItems):
			p, _ = va.eval(n.prefixItems[i], item, child)
		case n.items != nil:
			p, _ = va.eval(n.items, item, child)
		default:
			continue
		}
		out = append(out, p...)
		if seen != nil {
			seen.items[i] = true
		}
	}
	if n.contains != nil {
		matched := 0
		for i, item := range arr {
			if p, _ := va.eval(n.contains, item, nil); p == nil {
				matched++
				if seen != nil {
					seen.items[i] = true
				}
			}
		}
		least := 1
		if n.minContains >= 0 {
			least = n.minContains
		}
		switch {
		case matched < least && matched == 0:
			add("no items match the contains schema (want at least %d)", least)
		case matched < least:
			add("minContains: %d items match the contains schema, want at least %d", matched, least)
		case n.maxContains >= 0 && matched > n.maxContains:
			add("maxContains: %d items match the contains schema, want at most %d", matched, n.maxContains)
		}
	}
	return out
}

func (va *validator) object(n *node, obj map[string]any, path []string, seen *evaluated, apply func(*node)) []Problem {
	var out []Problem
	add := func(msg string, args ...any) { out = append(out, at(path, fmt.Sprintf(msg, args...))) }
	child := func(name string) []string { return append(slices.Clip(path), name) }
	if n.maxProperties >= 0 && len(obj) > n.maxProperties {
		add("maxProperties: got %d, want %d", len(obj), n.maxProperties)
	}
	if n.minProperties >= 0 && len(obj) < n.minProperties {
		add("minProperties: got %d, want %d", len(obj), n.minProperties)
	}
	for _, name := range n.required {
		if _, ok := obj[name]; !ok {
			out = append(out, at(child(name), "required property is missing"))
		}
	}
	for _, dr := range n.dependentRequired {
		if _, present := obj[dr[0]]; present {
			if _, ok := obj[dr[1]]; !ok {
				out = append(out, at(child(dr[1]), fmt.Sprintf("required property is missing (because %s is present)", display(dr[0]))))
			}
		}
	}
	for _, d := range n.dependentSchemas {
		if _, present := obj[d.name]; present {
			apply(d.s)
		}
	}
	if n.properties == nil && n.patternProperties == nil && n.additional == nil && n.propertyNames == nil {
		return out
	}
	for _, name := range sortedKeys(obj) {
		value, p := obj[name], child(name)
		if n.propertyNames != nil {
			problems, _ := va.eval(n.propertyNames, name, nil)
			for _, prob := range problems {
				out = append(out, at(p, "property name "+prob.Message))
			}
		}
		matched := false
		if s, ok := n.properties[name]; ok {
			matched = true
			problems, _ := va.eval(s, value, p)
			out = append(out, problems...)
		}
		for _, pp := range n.patternProperties {
			if pp.re.MatchString(name) {
				matched = true
				problems, _ := va.eval(pp.s, value, p)
				out = append(out, problems...)
			}
		}
		if !matched && n.additional != nil {
			matched = true
			if n.additional.allow != nil && !*n.additional.allow {
				out = append(out, at(p, "property is not allowed"))
			} else {
				problems, _ := va.eval(n.additional, value, p)
				out = append(out, problems...)
			}
		}
		if matched && seen != nil {
			seen.props[name] = true
		}
	}
	return out
}

func at(path []string, msg string) Problem { return Problem{Pointer: pointer(path), Message: msg} }

func hasType(v any, t string) bool {
	k := kindOf(v)
	return k == t || (t == "number" && k == "integer")
}

// canonical writes a value so that equal JSON values, and only they, are
// written alike: numbers by value (1 equals 1.0), objects whatever their
// key order.
func canonical(v any) string {
	var b strings.Builder
	writeCanonical(&b, v)
	return b.String()
}

func writeCanonical(b *strings.Builder, v any) {
	switch t := v.(type) {
	case map[string]any:
		b.WriteByte('{')
		for i, k := range sortedKeys(t) {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(strconv.Quote(k))
			b.WriteByte(':')
			writeCanonical(b, t[k])
		}
		b.WriteByte('}')
	case []any:
		b.WriteByte('[')
		for i, x := range t {
			if i > 0 {
				b.WriteByte(',')
			}
			writeCanonical(b, x)
		}
		b.WriteByte(']')
	case string:
		b.WriteString(strconv.Quote(t))
	default:
		if n, ok := asNumber(v); ok {
			if n.exact != nil {
				b.WriteString(n.exact.RatString())
			} else {
				b.WriteString("~" + strconv.FormatFloat(n.approx, 'g', -1, 64))
			}
			return
		}
		fmt.Fprint(b, v)
	}
}

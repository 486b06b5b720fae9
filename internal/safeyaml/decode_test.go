package safeyaml

import (
	"errors"
	"strings"
	"testing"
)

// Decode's budget: a document within it decodes, one past it does not,
// whether it is large or deep.
func TestDecodeBounds(t *testing.T) {
	list := func(n int) string { return "items:\n" + strings.Repeat("- x\n", n) }
	nest := func(n int) string { return "items: " + strings.Repeat("[", n) + strings.Repeat("]", n) + "\n" }
	for _, tc := range []struct {
		name, text string
		ok         bool
	}{
		{"99,000 nodes", list(99_000), true},
		{"101,000 nodes", list(101_000), false},
		{"60 levels", nest(60), true},
		{"70 levels", nest(70), false},
	} {
		root, err := Parse([]byte(tc.text))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		_, err = Decode(root, false)
		if tc.ok && err != nil || !tc.ok && !errors.Is(err, errYAMLTooLarge) {
			t.Errorf("%s: Decode = %v, want ok %v", tc.name, err, tc.ok)
		}
	}
}

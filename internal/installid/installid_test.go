package installid

import (
	"errors"
	"strings"
	"testing"
)

func TestNewIsValidAndFresh(t *testing.T) {
	seen := map[string]bool{}
	for range 100 {
		id := New()
		if err := Validate(id); err != nil || len(id) < 26 {
			t.Fatalf("New() = %q: %v", id, err)
		}
		if seen[id] {
			t.Fatalf("New() repeated %q", id)
		}
		seen[id] = true
	}
}

func TestValidate(t *testing.T) {
	for _, id := range []string{"", "ABC234", "a-b_c.d", strings.Repeat("x", MaxLen)} {
		if err := Validate(id); err != nil {
			t.Errorf("Validate(%q) = %v", id, err)
		}
	}
	for _, id := range []string{"a b", "a/b", "é", "a\x00", "a\n", strings.Repeat("x", MaxLen+1)} {
		if err := Validate(id); !errors.Is(err, ErrInvalid) {
			t.Errorf("Validate(%q) = %v, want ErrInvalid", id, err)
		}
	}
}

package pkgerr

import (
	"errors"
	"fmt"
	"testing"
)

func TestWrap(t *testing.T) {
	sentinel := errors.New("secrets: value not found")
	for _, tt := range []struct {
		err  error
		want string
	}{
		{sentinel, "secrets: reading A of skill pdf: value not found"},
		{fmt.Errorf("%w: more", sentinel), "secrets: reading A of skill pdf: value not found: more"},
		{errors.New("registry: corrupt store"), "secrets: reading A of skill pdf: registry: corrupt store"},
		{errors.New("connection refused"), "secrets: reading A of skill pdf: connection refused"},
	} {
		got := Wrap("secrets", tt.err, "reading %s of skill %s", "A", "pdf")
		if got.Error() != tt.want {
			t.Errorf("Wrap(%q) = %q, want %q", tt.err, got, tt.want)
		}
		if !errors.Is(got, tt.err) {
			t.Errorf("Wrap(%q) does not wrap it", tt.err)
		}
	}
	if Wrap("secrets", nil, "x") != nil {
		t.Error("Wrap(nil) is not nil")
	}
}

// Package installid makes and checks install ids: the random id the
// registry gives each install of a skill, which sealed secrets carry so that
// they open for that install only. The registry and secrets packages share
// the rule here because neither imports the other.
package installid

import (
	"crypto/rand"
	"errors"
	"fmt"
)

// MaxLen is the longest install id, in bytes.
const MaxLen = 64

// ErrInvalid is wrapped by [Validate]'s errors.
var ErrInvalid = errors.New("invalid install id")

// New returns a fresh id: 26 characters of base32 (A-Z, 2-7) holding 128
// random bits.
func New() string { return rand.Text() }

// Validate accepts the empty id (an install made before install ids) and ids
// of at most MaxLen ASCII letters, digits, '-', '_' and '.', which print as
// they are and fit the sealed header.
func Validate(id string) error {
	if len(id) > MaxLen {
		return fmt.Errorf("%w: %d bytes, over the limit of %d", ErrInvalid, len(id), MaxLen)
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
			return fmt.Errorf("%w: byte %d is %q; use letters, digits, '-', '_' and '.'", ErrInvalid, i, c)
		}
	}
	return nil
}

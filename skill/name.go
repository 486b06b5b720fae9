package skill

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Name limits from the Agent Skills specification, in characters (runes).
const (
	MaxNameLength          = 64
	MaxDescriptionLength   = 1024
	MaxCompatibilityLength = 500
)

// ErrInvalidName is wrapped by every error [ValidateName] returns.
var ErrInvalidName = errors.New("invalid skill name")

// reservedWords may not appear in a name accepted by Anthropic's API. The
// Agent Skills specification does not forbid them, so they only warn.
var reservedWords = []string{"anthropic", "claude"}

// NormalizeName returns the NFKC form of a name with surrounding white space
// removed. Names and folder names are compared in this form.
func NormalizeName(name string) string {
	return norm.NFKC.String(strings.TrimSpace(name))
}

// ValidateName checks a name against the specification: 1 to 64 characters,
// only a-z, 0-9 and hyphens, no leading, trailing or double hyphen. The name
// is checked in NFKC form (see [NormalizeName]); errors wrap
// [ErrInvalidName] and say which rule broke.
func ValidateName(name string) error {
	name = NormalizeName(name)
	n := utf8.RuneCountInString(name)
	switch {
	case n == 0:
		return fmt.Errorf("%w: empty", ErrInvalidName)
	case n > MaxNameLength:
		return fmt.Errorf("%w: %q is %d characters, over the limit of %d", ErrInvalidName, name, n, MaxNameLength)
	}
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') {
			if r >= 'A' && r <= 'Z' {
				return fmt.Errorf("%w: %q has upper-case letters; use a-z, 0-9 and hyphens", ErrInvalidName, name)
			}
			return fmt.Errorf("%w: %q has the character %q; use a-z, 0-9 and hyphens", ErrInvalidName, name, r)
		}
	}
	switch {
	case strings.HasPrefix(name, "-") || strings.HasSuffix(name, "-"):
		return fmt.Errorf("%w: %q starts or ends with a hyphen", ErrInvalidName, name)
	case strings.Contains(name, "--"):
		return fmt.Errorf("%w: %q has consecutive hyphens", ErrInvalidName, name)
	}
	return nil
}

// reservedWord returns the reserved word the name contains, or "".
func reservedWord(name string) string {
	lower := strings.ToLower(name)
	for _, w := range reservedWords {
		if strings.Contains(lower, w) {
			return w
		}
	}
	return ""
}

// xmlTag matches something that looks like an XML or HTML tag.
var xmlTag = regexp.MustCompile(`</?[A-Za-z][A-Za-z0-9_.:-]*(?:\s[^<>]*)?/?>`)

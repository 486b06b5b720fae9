package skill

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/skillkit-go/skillkit/internal/lazyregexp"
)

// Name limits from the Agent Skills specification, in characters (runes).
const (
	MaxNameLength          = 64
	MaxDescriptionLength   = 1024
	MaxCompatibilityLength = 500
)

// MaxKeyBytes bounds a skill name as a key ([ValidateKey]), in bytes: it
// becomes a file name in the registry, the secrets store and the locks.
const MaxKeyBytes = 128

// ErrInvalidName is wrapped by every error [ValidateName] and [ValidateKey]
// return.
var ErrInvalidName = errors.New("skill: invalid skill name")

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
var xmlTag = lazyregexp.New(`</?[A-Za-z][A-Za-z0-9_.:-]*(?:\s[^<>]*)?/?>`)

// ValidateKey checks that name can identify a skill: the one rule every part
// of skillkit applies to a skill name used as a key. The loader loads no
// skill whose name breaks it (NAME_INVALID, an error), and the registry, the
// secrets vault and its stores, the install locks and enable, disable, pin
// and uninstall accept every name it accepts. It is looser than
// [ValidateName], the specification's rule, which installs and skills an
// agent writes must follow: a skill folder placed by hand as My_Tool loads
// with a NAME_INVALID warning, can be disabled and can hold secrets.
//
// A key is 1 to [MaxKeyBytes] bytes of valid UTF-8 in the form
// [NormalizeName] gives (NFKC, no surrounding space); it holds no control,
// format (zero-width, bidirectional) or separator-like character (/ \ : * ?
// " < > |), does not start with a dot, does not end with a dot, and is not a
// device name Windows reserves (CON, NUL, COM1, ...): it is a file name on
// every system skillkit runs on. Errors wrap [ErrInvalidName].
func ValidateKey(name string) error {
	switch {
	case name == "":
		return fmt.Errorf("%w: empty", ErrInvalidName)
	case len(name) > MaxKeyBytes:
		return fmt.Errorf("%w: %d bytes, over the limit of %d", ErrInvalidName, len(name), MaxKeyBytes)
	case !utf8.ValidString(name):
		return fmt.Errorf("%w: not valid UTF-8", ErrInvalidName)
	case name != NormalizeName(name):
		return fmt.Errorf("%w: %q is not in NFKC form without surrounding space", ErrInvalidName, name)
	case name[0] == '.':
		return fmt.Errorf("%w: %q starts with a dot", ErrInvalidName, name)
	case strings.HasSuffix(name, "."):
		return fmt.Errorf("%w: %q ends with a dot", ErrInvalidName, name)
	case isWindowsDevice(name):
		return fmt.Errorf("%w: %q is a device name on Windows", ErrInvalidName, name)
	}
	for _, r := range name {
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || strings.ContainsRune(`/\:*?"<>|`, r) {
			return fmt.Errorf("%w: %q has the character %U, which cannot be part of a skill's name", ErrInvalidName, name, r)
		}
	}
	return nil
}

// isWindowsDevice reports whether name, before any extension, is a device
// name Windows reserves in every folder.
func isWindowsDevice(name string) bool {
	base, _, _ := strings.Cut(name, ".")
	base = strings.TrimRight(base, " ")
	if len(base) != 3 && len(base) != 4 { // every device name is 3 or 4 letters
		return false
	}
	for _, dev := range []string{"CON", "PRN", "AUX", "NUL",
		"COM1", "COM2", "COM3", "COM4", "COM5", "COM6", "COM7", "COM8", "COM9",
		"LPT1", "LPT2", "LPT3", "LPT4", "LPT5", "LPT6", "LPT7", "LPT8", "LPT9"} {
		if strings.EqualFold(base, dev) {
			return true
		}
	}
	return false
}

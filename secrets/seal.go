package secrets

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// The sealed value format; the package comment describes it.
const (
	// FormatVersion is the first byte of every sealed value.
	FormatVersion = 1
	// Overhead is how many bytes sealing adds to a value: version (1), key
	// id (4), nonce (12) and tag (16).
	Overhead = headerLen + nonceLen + tagLen
	// MaxValueLen is the longest value, in bytes, that can be saved. Linux
	// refuses a single environment string over 128 KiB; 64 KiB leaves room
	// for several.
	MaxValueLen = 64 << 10
	// MaxSealedLen is the longest sealed value that is opened; anything longer
	// is damaged.
	MaxSealedLen = MaxValueLen + Overhead

	headerLen = 1 + 4
	nonceLen  = 12
	tagLen    = 16
)

// ErrCannotOpen is wrapped by every failure to open a sealed value: a wrong
// or missing key, truncated or altered data, or a value sealed for another
// skill or variable. It never says anything about the plaintext.
var ErrCannotOpen = errors.New("secrets: cannot open sealed value (wrong key, damaged data, or sealed for another skill or variable)")

// ErrValueTooLong is wrapped when a value is over [MaxValueLen] bytes.
var ErrValueTooLong = errors.New("secrets: value too long")

// Seal encrypts plaintext for the variable name of skill skillName with the
// primary key. The result carries the key id and is bound to both names: it
// opens only with the same two names.
func (kr *Keyring) Seal(skillName, name string, plaintext []byte) ([]byte, error) {
	if err := checkNames(skillName, name); err != nil {
		return nil, err
	}
	if len(plaintext) > MaxValueLen {
		return nil, fmt.Errorf("%w: the value of %s is %d bytes, over the limit of %d", ErrValueTooLong, name, len(plaintext), MaxValueLen)
	}
	out := make([]byte, headerLen, Overhead+len(plaintext))
	out[0] = FormatVersion
	binary.BigEndian.PutUint32(out[1:headerLen], kr.primary.id)
	return kr.primary.aead.Seal(out, nil, plaintext, additionalData(out[:headerLen], skillName, name)), nil
}

// Open decrypts a value sealed by [Keyring.Seal] for the same skill and
// variable, with the key whose id the value carries. Every failure wraps
// [ErrCannotOpen].
func (kr *Keyring) Open(skillName, name string, sealed []byte) ([]byte, error) {
	if err := checkNames(skillName, name); err != nil {
		return nil, err
	}
	id, err := SealedKeyID(sealed)
	if err != nil {
		return nil, err
	}
	key, ok := kr.keys[id]
	if !ok {
		return nil, fmt.Errorf("%w: sealed by key %#08x, which the keyring does not hold", ErrCannotOpen, id)
	}
	plain, err := key.aead.Open(nil, nil, sealed[headerLen:], additionalData(sealed[:headerLen], skillName, name))
	if err != nil {
		return nil, ErrCannotOpen
	}
	return plain, nil
}

// SealedKeyID returns the id of the key that sealed a value, after checking
// the value's length and version; errors wrap [ErrCannotOpen]. It does not
// authenticate the value.
func SealedKeyID(sealed []byte) (uint32, error) {
	switch {
	case len(sealed) < Overhead:
		return 0, fmt.Errorf("%w: %d bytes is shorter than any sealed value", ErrCannotOpen, len(sealed))
	case len(sealed) > MaxSealedLen:
		return 0, fmt.Errorf("%w: %d bytes is longer than any sealed value", ErrCannotOpen, len(sealed))
	case sealed[0] != FormatVersion:
		return 0, fmt.Errorf("%w: unknown format version %d", ErrCannotOpen, sealed[0])
	}
	return binary.BigEndian.Uint32(sealed[1:headerLen]), nil
}

// additionalData binds a sealed value to its header, skill and variable:
// header || uint32(len(skill)) || skill || uint32(len(name)) || name.
func additionalData(header []byte, skillName, name string) []byte {
	ad := make([]byte, 0, len(header)+8+len(skillName)+len(name))
	ad = append(ad, header...)
	ad = binary.BigEndian.AppendUint32(ad, uint32(len(skillName)))
	ad = append(ad, skillName...)
	ad = binary.BigEndian.AppendUint32(ad, uint32(len(name)))
	return append(ad, name...)
}

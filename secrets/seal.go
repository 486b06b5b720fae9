package secrets

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/skillkit-go/skillkit/internal/installid"
)

// The sealed value format; the package comment describes it.
const (
	// FormatVersion is the first byte of every value [Keyring.Seal]
	// writes. Values of version 1 (no install id) still open.
	FormatVersion = 2
	// Overhead is how many bytes sealing adds to a value for a skill
	// without an install id: version (1), key id (4), install id length
	// (1), nonce (12) and tag (16). An install id adds its length.
	Overhead = headerLen + nonceLen + tagLen
	// MaxInstallIDLen is the longest install id a sealed value carries.
	MaxInstallIDLen = installid.MaxLen
	// MaxValueLen is the longest value, in bytes, that can be saved. Linux
	// refuses a single environment string over 128 KiB; 64 KiB leaves room
	// for several.
	MaxValueLen = 64 << 10
	// MaxSealedLen is the longest sealed value that is opened; anything longer
	// is damaged.
	MaxSealedLen = MaxValueLen + Overhead + MaxInstallIDLen

	headerLen   = 1 + 4 + 1 // version 2: version, key id, install id length
	headerLenV1 = 1 + 4     // version 1: version, key id
	nonceLen    = 12
	tagLen      = 16
)

// ErrCannotOpen is wrapped by every failure to open a sealed value: a wrong
// or missing key, truncated or altered data, or a value sealed for another
// skill, install or variable. It never says anything about the plaintext.
var ErrCannotOpen = errors.New("secrets: cannot open sealed value (wrong key, damaged data, or sealed for another skill, install or variable)")

// ErrValueTooLong is wrapped when a value is over [MaxValueLen] bytes.
var ErrValueTooLong = errors.New("secrets: value too long")

// A Binding names what a sealed value belongs to: one variable of one
// install of one skill. A value opens only with the Binding it was sealed
// with.
type Binding struct {
	Skill string // the skill's name ([skill.ValidateKey])
	// Install is the install id of the skill (the registry's
	// Record.InstallID); empty for an install made before install ids and
	// for a skill without an install.
	Install  string
	Variable string // the environment variable ([skill.ValidateEnvName])
}

func (b Binding) check() error {
	if err := checkNames(b.Skill, b.Variable); err != nil {
		return err
	}
	if err := installid.Validate(b.Install); err != nil {
		return fmt.Errorf("secrets: skill %s: %w", b.Skill, err)
	}
	return nil
}

// Header is the unencrypted start of a sealed value. It is authenticated
// when the value is opened, not when it is read: use it to report and to
// choose, never to trust.
type Header struct {
	Version   int    // 1 or 2
	KeyID     uint32 // the id of the key that sealed the value
	InstallID string // the install the value was sealed for; empty in version 1
}

// Seal encrypts plaintext for b with the primary key. The result carries the
// key id and the install id in its header and opens only with the same
// Binding.
func (kr *Keyring) Seal(b Binding, plaintext []byte) ([]byte, error) {
	if err := b.check(); err != nil {
		return nil, err
	}
	if len(plaintext) > MaxValueLen {
		return nil, fmt.Errorf("%w: the value of %s is %d bytes, over the limit of %d", ErrValueTooLong, b.Variable, len(plaintext), MaxValueLen)
	}
	hl := headerLen + len(b.Install)
	out := make([]byte, hl, hl+nonceLen+len(plaintext)+tagLen)
	out[0] = FormatVersion
	binary.BigEndian.PutUint32(out[1:5], kr.primary.id)
	out[5] = byte(len(b.Install))
	copy(out[headerLen:], b.Install)
	return kr.primary.aead.Seal(out, nil, plaintext, additionalData(out, b)), nil
}

// Open decrypts a value sealed by [Keyring.Seal] for b, with the key whose
// id the value carries. A value of version 1 opens only for a Binding
// without an install id. Every failure wraps [ErrCannotOpen].
func (kr *Keyring) Open(b Binding, sealed []byte) ([]byte, error) {
	if err := b.check(); err != nil {
		return nil, err
	}
	h, hl, err := readHeader(sealed)
	if err != nil {
		return nil, err
	}
	if h.InstallID != b.Install {
		return nil, fmt.Errorf("%w: sealed for another install of %s", ErrCannotOpen, b.Skill)
	}
	key, ok := kr.keys[h.KeyID]
	if !ok {
		return nil, fmt.Errorf("%w: sealed by key %#08x, which the keyring does not hold", ErrCannotOpen, h.KeyID)
	}
	plain, err := key.aead.Open(nil, nil, sealed[hl:], additionalData(sealed[:hl], b))
	if err != nil {
		return nil, ErrCannotOpen
	}
	return plain, nil
}

// ReadHeader returns the header of a sealed value after checking its length
// and version; errors wrap [ErrCannotOpen]. It does not authenticate the
// value.
func ReadHeader(sealed []byte) (Header, error) {
	h, _, err := readHeader(sealed)
	return h, err
}

// readHeader also returns the header's length.
func readHeader(sealed []byte) (Header, int, error) {
	if len(sealed) > MaxSealedLen {
		return Header{}, 0, fmt.Errorf("%w: %d bytes is longer than any sealed value", ErrCannotOpen, len(sealed))
	}
	if len(sealed) == 0 {
		return Header{}, 0, short(0)
	}
	var hl int
	switch sealed[0] {
	case 1:
		hl = headerLenV1
	case FormatVersion:
		if len(sealed) < headerLen {
			return Header{}, 0, short(len(sealed))
		}
		hl = headerLen + int(sealed[5])
	default:
		return Header{}, 0, fmt.Errorf("%w: unknown format version %d", ErrCannotOpen, sealed[0])
	}
	if len(sealed) < hl+nonceLen+tagLen {
		return Header{}, 0, short(len(sealed))
	}
	h := Header{Version: int(sealed[0]), KeyID: binary.BigEndian.Uint32(sealed[1:5])}
	if h.Version == FormatVersion {
		h.InstallID = string(sealed[headerLen:hl])
		if err := installid.Validate(h.InstallID); err != nil {
			return Header{}, 0, fmt.Errorf("%w: %w", ErrCannotOpen, err)
		}
	}
	return h, hl, nil
}

func short(n int) error {
	return fmt.Errorf("%w: %d bytes is shorter than any sealed value", ErrCannotOpen, n)
}

// additionalData binds a sealed value to its header (version, key id and
// install id), skill and variable:
// header || uint32(len(skill)) || skill || uint32(len(variable)) || variable.
func additionalData(header []byte, b Binding) []byte {
	ad := make([]byte, 0, len(header)+8+len(b.Skill)+len(b.Variable))
	ad = append(ad, header...)
	ad = binary.BigEndian.AppendUint32(ad, uint32(len(b.Skill)))
	ad = append(ad, b.Skill...)
	ad = binary.BigEndian.AppendUint32(ad, uint32(len(b.Variable)))
	return append(ad, b.Variable...)
}

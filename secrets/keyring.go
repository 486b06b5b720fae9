package secrets

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hkdf"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"log/slog"
	"slices"
)

// Environment variables read by [KeyringFromEnv] and [LegacyKeyFromEnv].
const (
	// EnvKey holds the secret the primary key is derived from.
	EnvKey = "SKILL_SECRET_KEY"
	// EnvAppSecret is used when EnvKey is unset or empty, as by hosts
	// that keep one application secret for everything.
	EnvAppSecret = "APP_SECRET"
	// EnvPreviousKey optionally holds the secret of the key used before a
	// rotation: it opens values but never seals them.
	EnvPreviousKey = "SKILL_SECRET_KEY_PREVIOUS"
)

// Key sizes and labels.
const (
	// KeySize is the length of a raw AES-256 key given to [NewKey].
	KeySize = 32
	// MinSecretLen is the shortest secret [DeriveKey] accepts, in bytes.
	MinSecretLen = 16
	// DeriveLabel is the HKDF-SHA256 info string [DeriveKey] uses; the salt is
	// empty. Changing it would make every sealed value unreadable.
	DeriveLabel = "skillkit/secrets v1 AES-256-GCM key"
	// keyIDLabel is the HKDF-SHA256 info string that turns a raw key into its
	// key id.
	keyIDLabel = "skillkit/secrets v1 key id"
)

// ErrNoKey is returned on first use when no key is configured: neither
// [Options].Keyring nor SKILL_SECRET_KEY nor APP_SECRET.
var ErrNoKey = errors.New("secrets: no key configured: set SKILL_SECRET_KEY (or APP_SECRET) to a random secret of at least 16 bytes, e.g. the output of `openssl rand -base64 32`")

// ErrInvalidKey is wrapped by errors about key material: a raw key of the
// wrong length, a secret that is too short, a keyring with two keys of one id.
var ErrInvalidKey = errors.New("secrets: invalid key")

// Key is one AES-256-GCM key and its 32-bit id. The id is derived from the
// key material (HKDF-SHA256 with a fixed label), so the same secret always
// gives the same id and no key list has to be stored beside the values. The
// zero Key is not usable. A Key is safe for concurrent use; printing or
// logging it shows only its id.
type Key struct {
	id   uint32
	aead cipher.AEAD
}

// NewKey returns the key for raw, which must be exactly [KeySize] random
// bytes. raw is not retained.
func NewKey(raw []byte) (Key, error) {
	if len(raw) != KeySize {
		return Key{}, fmt.Errorf("%w: a raw key is %d bytes, want %d", ErrInvalidKey, len(raw), KeySize)
	}
	block, err := aes.NewCipher(raw)
	if err != nil {
		return Key{}, fmt.Errorf("%w: %v", ErrInvalidKey, err)
	}
	aead, err := cipher.NewGCMWithRandomNonce(block)
	if err != nil {
		return Key{}, fmt.Errorf("%w: %v", ErrInvalidKey, err)
	}
	idBytes, err := hkdf.Key(sha256.New, raw, nil, keyIDLabel, 4)
	if err != nil {
		return Key{}, fmt.Errorf("%w: %v", ErrInvalidKey, err)
	}
	return Key{id: binary.BigEndian.Uint32(idBytes), aead: aead}, nil
}

// DeriveKey derives a key from a secret of at least [MinSecretLen] bytes
// with HKDF-SHA256 (empty salt, info [DeriveLabel]). HKDF does not slow down
// guessing: the secret must be random, not a password.
func DeriveKey(secret []byte) (Key, error) {
	if len(secret) < MinSecretLen {
		return Key{}, fmt.Errorf("%w: the secret is %d bytes, want at least %d random bytes", ErrInvalidKey, len(secret), MinSecretLen)
	}
	raw, err := hkdf.Key(sha256.New, secret, nil, DeriveLabel, KeySize)
	if err != nil {
		return Key{}, fmt.Errorf("%w: %v", ErrInvalidKey, err)
	}
	return NewKey(raw)
}

// ID returns the key id written into every value the key seals.
func (k Key) ID() uint32 { return k.id }

func (k Key) valid() bool { return k.aead != nil }

// String returns "secrets.Key(id=0x…)"; the key material is never shown.
func (k Key) String() string { return fmt.Sprintf("secrets.Key(id=%#08x)", k.id) }

// GoString is String, so %#v does not show the key material either.
func (k Key) GoString() string { return k.String() }

// Format prints String for every verb.
func (k Key) Format(f fmt.State, verb rune) { _, _ = f.Write([]byte(k.String())) }

// LogValue logs only the key id.
func (k Key) LogValue() slog.Value { return slog.StringValue(k.String()) }

// Keyring is a set of keys with one primary: the primary seals, every key
// opens the values that carry its id. A Keyring is immutable and safe for
// concurrent use; printing or logging it shows only key ids.
type Keyring struct {
	primary Key
	keys    map[uint32]Key
}

// NewKeyring returns a keyring that seals with primary and opens with
// primary and others. Two keys with the same id are an error unless they are
// the same key given twice.
func NewKeyring(primary Key, others ...Key) (*Keyring, error) {
	if !primary.valid() {
		return nil, fmt.Errorf("%w: the primary key is the zero Key", ErrInvalidKey)
	}
	kr := &Keyring{primary: primary, keys: map[uint32]Key{primary.id: primary}}
	for i, k := range others {
		if !k.valid() {
			return nil, fmt.Errorf("%w: key %d is the zero Key", ErrInvalidKey, i+1)
		}
		if old, ok := kr.keys[k.id]; ok && !sameKey(old, k) {
			return nil, fmt.Errorf("%w: two different keys have the id %#08x", ErrInvalidKey, k.id)
		}
		kr.keys[k.id] = k
	}
	return kr, nil
}

// sameKey reports whether two keys of one id are the same key, by sealing a
// probe with one and opening it with the other.
func sameKey(a, b Key) bool {
	probe := a.aead.Seal(nil, nil, nil, []byte("skillkit/secrets same-key probe"))
	_, err := b.aead.Open(nil, nil, probe, []byte("skillkit/secrets same-key probe"))
	return err == nil
}

// KeyringFromEnv builds the keyring from the environment: the primary key is
// derived ([DeriveKey]) from SKILL_SECRET_KEY, or from APP_SECRET when
// SKILL_SECRET_KEY is unset or empty (JavaScript's ||). When
// SKILL_SECRET_KEY_PREVIOUS is set, the key derived from it opens values
// sealed before a rotation. getenv is usually os.Getenv; nil reads nothing.
// Without a secret the error wraps [ErrNoKey].
func KeyringFromEnv(getenv func(string) string) (*Keyring, error) {
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	name, secret := envSecret(getenv)
	if secret == "" {
		return nil, ErrNoKey
	}
	primary, err := DeriveKey([]byte(secret))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	var others []Key
	if prev := getenv(EnvPreviousKey); prev != "" {
		k, err := DeriveKey([]byte(prev))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", EnvPreviousKey, err)
		}
		others = append(others, k)
	}
	return NewKeyring(primary, others...)
}

// envSecret returns the variable the secret is taken from and its
// value: SKILL_SECRET_KEY || APP_SECRET, where an empty string counts as
// unset, as it does in JavaScript.
func envSecret(getenv func(string) string) (name, value string) {
	if v := getenv(EnvKey); v != "" {
		return EnvKey, v
	}
	return EnvAppSecret, getenv(EnvAppSecret)
}

// Primary returns the key that seals.
func (kr *Keyring) Primary() Key { return kr.primary }

// IDs returns the ids of every key, sorted.
func (kr *Keyring) IDs() []uint32 {
	ids := make([]uint32, 0, len(kr.keys))
	for id := range kr.keys {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}

// Has reports whether the keyring holds a key with the id.
func (kr *Keyring) Has(id uint32) bool {
	_, ok := kr.keys[id]
	return ok
}

// with returns a keyring with kr's primary that also opens with the keys
// of more (kr's keys win on an id both hold).
func (kr *Keyring) with(more *Keyring) *Keyring {
	out := &Keyring{primary: kr.primary, keys: make(map[uint32]Key, len(kr.keys)+len(more.keys))}
	for id, k := range more.keys {
		out.keys[id] = k
	}
	for id, k := range kr.keys {
		out.keys[id] = k
	}
	return out
}

// String returns "secrets.Keyring(primary=0x…, keys=[…])" with ids only.
func (kr *Keyring) String() string {
	if kr == nil {
		return "secrets.Keyring(nil)"
	}
	ids := kr.IDs()
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = fmt.Sprintf("%#08x", id)
	}
	return fmt.Sprintf("secrets.Keyring(primary=%#08x, keys=%v)", kr.primary.id, parts)
}

// GoString is String.
func (kr *Keyring) GoString() string { return kr.String() }

// Format prints String for every verb.
func (kr *Keyring) Format(f fmt.State, verb rune) { _, _ = f.Write([]byte(kr.String())) }

// LogValue logs only key ids.
func (kr *Keyring) LogValue() slog.Value { return slog.StringValue(kr.String()) }

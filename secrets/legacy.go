package secrets

import (
	"bytes"
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"strings"

	"github.com/skillkit-go/skillkit/skill"
)

// Limits of the legacy format: one encrypted JSON object per skill,
// base64(IV || ciphertext || tag).
const (
	// MaxLegacyBlobLen is the longest legacy blob, in base64 characters,
	// that [Vault.ImportLegacy] reads.
	MaxLegacyBlobLen = 1 << 20

	legacyIVLen  = 16
	legacyTagLen = 16
)

// LegacyKey opens secrets blobs of the legacy format: AES-256-GCM with a
// 16-byte IV under the key sha256(secret). Printing or logging it shows
// nothing of the key.
type LegacyKey struct {
	aead cipher.AEAD
}

// NewLegacyKey returns the legacy format's key for a secret: its SHA-256
// digest, as Node's crypto.createHash('sha256').update(raw).digest()
// computes it for the UTF-8 text raw. The secret must not be empty (the
// legacy format refuses it too).
func NewLegacyKey(secret []byte) (LegacyKey, error) {
	if len(secret) == 0 {
		return LegacyKey{}, fmt.Errorf("%w: the legacy secret is empty", ErrInvalidKey)
	}
	sum := sha256.Sum256(secret)
	block, err := aes.NewCipher(sum[:])
	if err != nil {
		return LegacyKey{}, fmt.Errorf("%w: %v", ErrInvalidKey, err)
	}
	aead, err := cipher.NewGCMWithNonceSize(block, legacyIVLen)
	if err != nil {
		return LegacyKey{}, fmt.Errorf("%w: %v", ErrInvalidKey, err)
	}
	return LegacyKey{aead: aead}, nil
}

// LegacyKeyFromEnv returns the key the legacy format derives from
// process.env.SKILL_SECRET_KEY || process.env.APP_SECRET: the first of the
// two that is set and not empty, never both joined. Without either the
// error wraps [ErrNoKey].
func LegacyKeyFromEnv(getenv func(string) string) (LegacyKey, error) {
	if getenv == nil {
		return LegacyKey{}, ErrNoKey
	}
	_, secret := envSecret(getenv)
	if secret == "" {
		return LegacyKey{}, ErrNoKey
	}
	return NewLegacyKey([]byte(secret))
}

// String returns "secrets.LegacyKey"; the key is never shown.
func (k LegacyKey) String() string { return "secrets.LegacyKey" }

// GoString is String.
func (k LegacyKey) GoString() string { return k.String() }

// Format prints String for every verb.
func (k LegacyKey) Format(f fmt.State, verb rune) { _, _ = f.Write([]byte(k.String())) }

// LogValue logs String.
func (k LegacyKey) LogValue() slog.Value { return slog.StringValue(k.String()) }

// openLegacy decrypts a legacy blob, base64(IV 16 bytes || ciphertext || tag
// 16 bytes), into its JSON object of strings. Errors wrap ErrCannotOpen and
// never quote the decrypted text.
func openLegacy(key LegacyKey, blob string) (map[string]string, error) {
	if key.aead == nil {
		return nil, fmt.Errorf("%w: the legacy key is the zero LegacyKey", ErrInvalidKey)
	}
	blob = strings.TrimSpace(blob)
	if len(blob) > MaxLegacyBlobLen {
		return nil, fmt.Errorf("%w: the legacy blob is %d characters, over the limit of %d", ErrCannotOpen, len(blob), MaxLegacyBlobLen)
	}
	raw, err := base64.StdEncoding.DecodeString(blob)
	if err != nil {
		return nil, fmt.Errorf("%w: the legacy blob is not standard base64", ErrCannotOpen)
	}
	if len(raw) < legacyIVLen+legacyTagLen {
		return nil, fmt.Errorf("%w: the legacy blob is %d bytes, shorter than IV and tag", ErrCannotOpen, len(raw))
	}
	plain, err := key.aead.Open(nil, raw[:legacyIVLen], raw[legacyIVLen:], nil)
	if err != nil {
		return nil, ErrCannotOpen
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(plain, &fields); err != nil || fields == nil {
		return nil, fmt.Errorf("%w: the legacy blob opens but is not a JSON object", ErrCannotOpen)
	}
	values := make(map[string]string, len(fields))
	for _, name := range slices.Sorted(maps.Keys(fields)) {
		if !plainName(name) {
			return nil, fmt.Errorf("%w: the legacy blob holds a name that is not a variable name", ErrCannotOpen)
		}
		var s string
		raw := fields[name]
		if len(raw) == 0 || raw[0] != '"' || json.Unmarshal(raw, &s) != nil {
			return nil, fmt.Errorf("%w: the legacy value of %s is not a JSON string", ErrCannotOpen, name)
		}
		values[name] = s
	}
	if err := checkDuplicateKeys(plain); err != nil {
		return nil, err
	}
	return values, nil
}

// plainName reports whether a name read from a decrypted blob may be shown
// in an error: at most MaxNameLen bytes of A-Z, a-z, 0-9 and '_'. Other
// text from inside a blob never reaches an error.
func plainName(name string) bool {
	if name == "" || len(name) > MaxNameLen {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// checkDuplicateKeys refuses a JSON object that names a variable twice:
// JSON.stringify never writes one, and which value would win is a guess.
func checkDuplicateKeys(obj []byte) error {
	dec := json.NewDecoder(bytes.NewReader(obj))
	if _, err := dec.Token(); err != nil { // {
		return ErrCannotOpen
	}
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return ErrCannotOpen
		}
		name, _ := tok.(string)
		if seen[name] {
			return fmt.Errorf("%w: the legacy blob names %s twice", ErrCannotOpen, name)
		}
		seen[name] = true
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return ErrCannotOpen
		}
	}
	return nil
}

// ImportLegacy reads a secrets blob of the legacy format,
// base64(IV 16 bytes || ciphertext || tag 16 bytes), encrypted with key
// (see [LegacyKeyFromEnv]) over a JSON object of string values, and saves
// its values for the skill as [Vault.Save] does. It returns the imported
// names, sorted. A blob that does not open, or that does not hold a JSON
// object of strings, is an error wrapping [ErrCannotOpen], and nothing is
// saved.
func (v *Vault) ImportLegacy(ctx context.Context, skillName, blob string, key LegacyKey) ([]string, error) {
	if err := skill.ValidateKey(skillName); err != nil {
		return nil, err
	}
	values, err := openLegacy(key, blob)
	if err != nil {
		return nil, fmt.Errorf("secrets: importing the legacy blob of skill %s: %w", skillName, err)
	}
	if err := v.Save(ctx, skillName, values); err != nil {
		return nil, err
	}
	names := slices.Sorted(maps.Keys(values))
	v.log.InfoContext(ctx, "secrets imported from the legacy format", "skill", skillName, "keys", names)
	return names, nil
}

package registry

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"
	"encoding/asn1"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"os"
	"runtime"
	"strings"
)

// Fleet signatures. Replicas sharing a registry and a [PackageStore] trust
// what the shared database says only as far as it is signed: the replica
// that installs a skill signs a statement binding the skill's name, its
// fingerprint (which names its package's files) and its install id, and
// the one that uninstalls it signs the removal; other replicas place or
// remove nothing without a statement that one of the public keys they
// trust verifies. Statements live in the package store under keys derived
// from what they state ([StatementKey]), so no schema changes.

// The operations a [Statement] signs.
const (
	OpInstall = "install" // the skill's record names this fingerprint and install id
	OpRemove  = "remove"  // the skill at this fingerprint was uninstalled
	// OpRetire: the install of this install id (no fingerprint) is over:
	// uninstalled, or replaced by an install of another origin. A replica
	// that missed versions removes whatever version of it it holds.
	OpRetire = "retire"
)

// Errors of fleet signatures.
var (
	// ErrUnsigned: the package store holds no statement for what a record
	// says (or for a removal), or none that a trusted key verifies.
	ErrUnsigned = errors.New("registry: not signed by a trusted fleet key")
	// ErrNoTrustedKeys: a replica with no trusted fleet key was asked to
	// sync, and did not opt in to unsigned rows.
	ErrNoTrustedKeys = errors.New("registry: no trusted fleet key: a replica places and removes only what a trusted installer signed (trust the installers' public keys, or opt in to unsigned rows)")
	// ErrBadKey: a fleet key cannot be read.
	ErrBadKey = errors.New("registry: bad fleet key")
)

// PublicKeyPrefix starts the text form of a fleet public key:
// "ed25519:" and the key's 32 bytes in standard base64.
const PublicKeyPrefix = "ed25519:"

// maxStatementBytes bounds a statement read from the package store.
const maxStatementBytes = 4 << 10

// Statement is one signed fact about a skill, as stored.
type Statement struct {
	Version     int    `json:"version"`
	Op          string `json:"op"`
	Name        string `json:"name"`
	Fingerprint string `json:"fingerprint"`
	InstallID   string `json:"install_id,omitempty"`
	Key         string `json:"key"` // the signer's public key (PublicKeyPrefix form)
	Signature   string `json:"signature"`
}

// message is what the signature covers.
func (s *Statement) message() []byte {
	return []byte("skillkit fleet statement v1\x00" + s.Op + "\x00" + s.Name + "\x00" + s.Fingerprint + "\x00" + s.InstallID)
}

// StatementKey is the package store key of the statement of op about the
// skill name at fingerprint fp and install id installID (empty for a
// removal): a fingerprint-shaped digest of them.
func StatementKey(op, name, fp, installID string) string {
	sum := sha256.Sum256([]byte("skillkit fleet statement key v1\x00" + op + "\x00" + name + "\x00" + fp + "\x00" + installID))
	return FingerprintPrefix + hex.EncodeToString(sum[:])
}

// PutStatement signs the statement of op about name at fp (and installID)
// with key and stores it in ps. A statement already stored under its key
// stays (the store keeps the first).
func PutStatement(ctx context.Context, ps PackageStore, key ed25519.PrivateKey, op, name, fp, installID string) error {
	if len(key) != ed25519.PrivateKeySize {
		return fmt.Errorf("%w: a private key of %d bytes", ErrBadKey, len(key))
	}
	s := Statement{Version: 1, Op: op, Name: name, Fingerprint: fp, InstallID: installID,
		Key: FormatPublicKey(key.Public().(ed25519.PublicKey))}
	s.Signature = base64.StdEncoding.EncodeToString(ed25519.Sign(key, s.message()))
	data, err := json.Marshal(s)
	if err != nil {
		return err
	}
	if err := ps.PutPackage(ctx, StatementKey(op, name, fp, installID), data); err != nil {
		return fmt.Errorf("registry: storing the signed %s of %s: %w", op, name, err)
	}
	return nil
}

// CheckStatement verifies that ps holds the statement of op about name at
// fp (and installID), signed by one of trusted. The error wraps
// ErrUnsigned when there is none, or it does not verify; other errors are
// the store's.
func CheckStatement(ctx context.Context, ps PackageStore, trusted []ed25519.PublicKey, op, name, fp, installID string) error {
	data, err := ps.GetPackage(ctx, StatementKey(op, name, fp, installID), maxStatementBytes)
	switch {
	case errors.Is(err, ErrNotFound):
		return fmt.Errorf("%w: no signed %s of %s at %s in the shared store", ErrUnsigned, op, name, fp)
	case errors.Is(err, ErrPackageTooLarge):
		return fmt.Errorf("%w: the signed %s of %s is not a statement", ErrUnsigned, op, name)
	case err != nil:
		return err
	}
	var s Statement
	if err := json.Unmarshal(data, &s); err != nil {
		return fmt.Errorf("%w: the signed %s of %s cannot be read: %v", ErrUnsigned, op, name, err)
	}
	if s.Version != 1 || s.Op != op || s.Name != name || s.Fingerprint != fp || s.InstallID != installID {
		return fmt.Errorf("%w: the statement stored for the %s of %s states something else", ErrUnsigned, op, name)
	}
	sig, err := base64.StdEncoding.DecodeString(s.Signature)
	if err != nil {
		return fmt.Errorf("%w: the signature of the %s of %s is not base64", ErrUnsigned, op, name)
	}
	for _, k := range trusted {
		if len(k) == ed25519.PublicKeySize && ed25519.Verify(k, s.message(), sig) {
			return nil
		}
	}
	return fmt.Errorf("%w: the %s of %s at %s is signed by %s, which is not trusted", ErrUnsigned, op, name, fp, shorten(s.Key))
}

// FormatPublicKey writes pub as "ed25519:" and its standard base64.
func FormatPublicKey(pub ed25519.PublicKey) string {
	return PublicKeyPrefix + base64.StdEncoding.EncodeToString(pub)
}

// ParsePublicKey reads a key [FormatPublicKey] wrote (the prefix may be
// left out).
func ParsePublicKey(s string) (ed25519.PublicKey, error) {
	b, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(strings.TrimSpace(s), PublicKeyPrefix))
	if err != nil || len(b) != ed25519.PublicKeySize {
		return nil, fmt.Errorf("%w: %q is not %s and 32 bytes in base64", ErrBadKey, shorten(s), PublicKeyPrefix)
	}
	return ed25519.PublicKey(b), nil
}

// ParsePublicKeys reads a comma-separated list of public keys.
func ParsePublicKeys(list string) ([]ed25519.PublicKey, error) {
	var out []ed25519.PublicKey
	for _, s := range strings.Split(list, ",") {
		if strings.TrimSpace(s) == "" {
			continue
		}
		k, err := ParsePublicKey(s)
		if err != nil {
			return nil, err
		}
		out = append(out, k)
	}
	return out, nil
}

// NewFleetKey returns a new private key in PEM (PKCS #8), for a file only
// its owner reads, and its public key.
func NewFleetKey() (pemData []byte, pub ed25519.PublicKey, err error) {
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, nil, err
	}
	der, err := marshalPKCS8(priv)
	if err != nil {
		return nil, nil, err
	}
	return pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}), pub, nil
}

// ParsePrivateKey reads a private key [NewFleetKey] wrote.
func ParsePrivateKey(pemData []byte) (ed25519.PrivateKey, error) {
	block, rest := pem.Decode(pemData)
	if block == nil || block.Type != "PRIVATE KEY" || len(bytes.TrimSpace(rest)) > 0 {
		return nil, fmt.Errorf("%w: not one PEM block of type PRIVATE KEY", ErrBadKey)
	}
	return parsePKCS8(block.Bytes)
}

// pkcs8 is a PKCS #8 private key (RFC 5208) as far as an Ed25519 key needs
// it (RFC 8410): what follows the key (attributes, a public key) is
// ignored, as crypto/x509 ignores it. The package encodes and decodes it
// with encoding/asn1 instead of crypto/x509, which would link the net
// package (and, with cgo, the C library) into every program that reads
// the registry, the command line's read-only commands among them.
type pkcs8 struct {
	Version    int
	Algorithm  pkixAlgorithm
	PrivateKey []byte
}

// pkixAlgorithm is an AlgorithmIdentifier.
type pkixAlgorithm struct {
	Algorithm  asn1.ObjectIdentifier
	Parameters asn1.RawValue `asn1:"optional"`
}

// oidEd25519 is the algorithm identifier of Ed25519 keys (RFC 8410).
var oidEd25519 = asn1.ObjectIdentifier{1, 3, 101, 112}

// marshalPKCS8 encodes an Ed25519 private key as PKCS #8, as
// x509.MarshalPKCS8PrivateKey does.
func marshalPKCS8(priv ed25519.PrivateKey) ([]byte, error) {
	// The key's first SeedSize bytes are what RFC 8410 stores.
	inner, err := asn1.Marshal([]byte(priv[:ed25519.SeedSize]))
	if err != nil {
		return nil, err
	}
	return asn1.Marshal(pkcs8{Algorithm: pkixAlgorithm{Algorithm: oidEd25519}, PrivateKey: inner})
}

// parsePKCS8 decodes a PKCS #8 Ed25519 private key; any other key, or
// parameters an Ed25519 key does not have, is [ErrBadKey].
func parsePKCS8(der []byte) (ed25519.PrivateKey, error) {
	var k pkcs8
	if _, err := asn1.Unmarshal(der, &k); err != nil {
		return nil, fmt.Errorf("%w: not a PKCS #8 private key: %v", ErrBadKey, err)
	}
	if !k.Algorithm.Algorithm.Equal(oidEd25519) {
		return nil, fmt.Errorf("%w: not an Ed25519 key", ErrBadKey)
	}
	if len(k.Algorithm.Parameters.FullBytes) != 0 {
		return nil, fmt.Errorf("%w: an Ed25519 key has no algorithm parameters", ErrBadKey)
	}
	var raw []byte
	if rest, err := asn1.Unmarshal(k.PrivateKey, &raw); err != nil || len(rest) != 0 {
		return nil, fmt.Errorf("%w: the Ed25519 key is not one octet string", ErrBadKey)
	}
	if len(raw) != ed25519.SeedSize {
		return nil, fmt.Errorf("%w: an Ed25519 private key has %d bytes, not %d", ErrBadKey, ed25519.SeedSize, len(raw))
	}
	return ed25519.NewKeyFromSeed(raw), nil
}

// ReadPrivateKeyFile reads a private key file. A file that others than its
// owner may read is refused.
func ReadPrivateKeyFile(path string) (ed25519.PrivateKey, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadKey, err)
	}
	if runtime.GOOS != "windows" && st.Mode().Perm()&0o077 != 0 {
		return nil, fmt.Errorf("%w: %s may be read by others (mode %v): make it 0600", ErrBadKey, path, st.Mode().Perm())
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadKey, err)
	}
	k, err := ParsePrivateKey(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return k, nil
}

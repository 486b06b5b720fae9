package registry

import (
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestStatements(t *testing.T) {
	ctx := t.Context()
	ps := &MemPackages{}
	pub, key, _ := ed25519.GenerateKey(rand.Reader)
	otherPub, otherKey, _ := ed25519.GenerateKey(rand.Reader)
	fp := FingerprintPrefix + strings.Repeat("a", 64)
	if err := PutStatement(ctx, ps, key, OpInstall, "pdf", fp, "id1"); err != nil {
		t.Fatal(err)
	}
	trusted := []ed25519.PublicKey{pub}
	if err := CheckStatement(ctx, ps, trusted, OpInstall, "pdf", fp, "id1"); err != nil {
		t.Fatalf("a signed install: %v", err)
	}
	for _, tc := range []struct{ op, name, fp, id string }{
		{OpRemove, "pdf", fp, "id1"},                                           // another operation
		{OpInstall, "pdf2", fp, "id1"},                                         // another skill
		{OpInstall, "pdf", FingerprintPrefix + strings.Repeat("b", 64), "id1"}, // another version
		{OpInstall, "pdf", fp, "id2"},                                          // another install
	} {
		if err := CheckStatement(ctx, ps, trusted, tc.op, tc.name, tc.fp, tc.id); !errors.Is(err, ErrUnsigned) {
			t.Errorf("%+v: %v", tc, err)
		}
	}
	if err := CheckStatement(ctx, ps, []ed25519.PublicKey{otherPub}, OpInstall, "pdf", fp, "id1"); !errors.Is(err, ErrUnsigned) || !strings.Contains(err.Error(), "not trusted") {
		t.Errorf("another key: %v", err)
	}
	// A statement an untrusted key signed, stored first, is refused.
	if err := PutStatement(ctx, ps, otherKey, OpRemove, "pdf", fp, ""); err != nil {
		t.Fatal(err)
	}
	if err := CheckStatement(ctx, ps, trusted, OpRemove, "pdf", fp, ""); !errors.Is(err, ErrUnsigned) {
		t.Errorf("a removal by an untrusted key: %v", err)
	}
	// A forged statement: the right words with a signature of others.
	ps.SetPackage(StatementKey(OpInstall, "x", fp, ""), []byte(`{"version":1,"op":"install","name":"x","fingerprint":"`+fp+`","key":"`+FormatPublicKey(pub)+`","signature":"AAAA"}`))
	if err := CheckStatement(ctx, ps, trusted, OpInstall, "x", fp, ""); !errors.Is(err, ErrUnsigned) {
		t.Errorf("a forged signature: %v", err)
	}
}

func TestFleetKeys(t *testing.T) {
	pemData, pub, err := NewFleetKey()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "fleet.key")
	if err := os.WriteFile(path, pemData, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadPrivateKeyFile(path); !errors.Is(err, ErrBadKey) || !strings.Contains(err.Error(), "0600") {
		t.Errorf("a key others may read: %v", err)
	}
	os.Chmod(path, 0o600)
	key, err := ReadPrivateKeyFile(path)
	if err != nil || !key.Public().(ed25519.PublicKey).Equal(pub) {
		t.Fatalf("read back: %v", err)
	}
	keys, err := ParsePublicKeys(FormatPublicKey(pub) + ", " + FormatPublicKey(pub)[len(PublicKeyPrefix):])
	if err != nil || len(keys) != 2 || !keys[1].Equal(pub) {
		t.Fatalf("parse: %v %v", keys, err)
	}
	for _, bad := range []string{"ed25519:", "ed25519:AAAA", "nonsense!"} {
		if _, err := ParsePublicKeys(bad); !errors.Is(err, ErrBadKey) {
			t.Errorf("%q: %v", bad, err)
		}
	}
	if _, err := ParsePrivateKey([]byte("-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n")); !errors.Is(err, ErrBadKey) {
		t.Errorf("a broken key: %v", err)
	}
}

// Whatever a database writer stores as a statement, it verifies only when
// the trusted key signed exactly what is checked.
func FuzzCheckStatement(f *testing.F) {
	pub, key, _ := ed25519.GenerateKey(rand.Reader)
	fp := FingerprintPrefix + strings.Repeat("c", 64)
	ps := &MemPackages{}
	if err := PutStatement(f.Context(), ps, key, OpInstall, "s", fp, "i"); err != nil {
		f.Fatal(err)
	}
	good, _ := ps.GetPackage(f.Context(), StatementKey(OpInstall, "s", fp, "i"), maxStatementBytes)
	f.Add(good, "s", "i")
	f.Add([]byte(`{"version":1}`), "s", "i")
	f.Add([]byte(`not json`), "t", "")
	f.Fuzz(func(t *testing.T, data []byte, name, id string) {
		m := &MemPackages{}
		m.SetPackage(StatementKey(OpInstall, name, fp, id), data)
		err := CheckStatement(t.Context(), m, []ed25519.PublicKey{pub}, OpInstall, name, fp, id)
		if err == nil && !(name == "s" && id == "i") {
			t.Fatalf("%q verified for %q %q", data, name, id)
		}
	})
}

func FuzzParsePublicKeys(f *testing.F) {
	f.Add("ed25519:" + strings.Repeat("A", 43) + "=")
	f.Add("a,b,,")
	f.Fuzz(func(t *testing.T, s string) {
		keys, err := ParsePublicKeys(s)
		for _, k := range keys {
			if err == nil && len(k) != ed25519.PublicKeySize {
				t.Fatalf("a key of %d bytes", len(k))
			}
		}
	})
}

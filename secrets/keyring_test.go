package secrets_test

import (
	"bytes"
	"crypto/hkdf"
	"crypto/sha256"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/skillkit-go/skillkit/secrets"
)

// env returns a getenv over a map.
func env(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func deriveKey(t testing.TB, secret string) secrets.Key {
	t.Helper()
	k, err := secrets.DeriveKey([]byte(secret))
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func keyring(t testing.TB, primary secrets.Key, others ...secrets.Key) *secrets.Keyring {
	t.Helper()
	kr, err := secrets.NewKeyring(primary, others...)
	if err != nil {
		t.Fatal(err)
	}
	return kr
}

const (
	oldSecret = "old secret, 32 bytes of entropy!"
	newSecret = "new secret, 32 bytes of entropy!"
)

func TestKeyringFromEnvChoosesTheSeedsVariable(t *testing.T) {
	a, b := deriveKey(t, oldSecret), deriveKey(t, newSecret)
	tests := []struct {
		name string
		env  map[string]string
		want secrets.Key
	}{
		{"SKILL_SECRET_KEY only", map[string]string{"SKILL_SECRET_KEY": oldSecret}, a},
		{"APP_SECRET only", map[string]string{"APP_SECRET": newSecret}, b},
		{"both: SKILL_SECRET_KEY wins", map[string]string{"SKILL_SECRET_KEY": oldSecret, "APP_SECRET": newSecret}, a},
		{"empty SKILL_SECRET_KEY counts as unset", map[string]string{"SKILL_SECRET_KEY": "", "APP_SECRET": newSecret}, b},
	}
	for _, tt := range tests {
		kr, err := secrets.KeyringFromEnv(env(tt.env))
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if kr.Primary().ID() != tt.want.ID() || !slices.Equal(kr.IDs(), []uint32{tt.want.ID()}) {
			t.Errorf("%s: primary %v, keys %v, want only %v", tt.name, kr.Primary(), kr.IDs(), tt.want)
		}
	}
}

func TestKeyringFromEnvPreviousKeyOpensOnly(t *testing.T) {
	kr, err := secrets.KeyringFromEnv(env(map[string]string{"SKILL_SECRET_KEY": newSecret, "SKILL_SECRET_KEY_PREVIOUS": oldSecret}))
	if err != nil {
		t.Fatal(err)
	}
	oldKey, newKey := deriveKey(t, oldSecret), deriveKey(t, newSecret)
	if kr.Primary().ID() != newKey.ID() || !kr.Has(oldKey.ID()) || len(kr.IDs()) != 2 {
		t.Fatalf("keyring %v: want primary %v and %v", kr, newKey, oldKey)
	}
	sealedOld, err := keyring(t, oldKey).Seal(bind("pdf", "", "API_KEY"), []byte("v"))
	if err != nil {
		t.Fatal(err)
	}
	if got, err := kr.Open(bind("pdf", "", "API_KEY"), sealedOld); err != nil || string(got) != "v" {
		t.Fatalf("the previous key does not open its value: %q, %v", got, err)
	}
}

func TestNoKeyIsAClearError(t *testing.T) {
	for _, e := range []map[string]string{nil, {"SKILL_SECRET_KEY": "", "APP_SECRET": ""}} {
		_, err := secrets.KeyringFromEnv(env(e))
		if !errors.Is(err, secrets.ErrNoKey) || !strings.Contains(err.Error(), "SKILL_SECRET_KEY") {
			t.Errorf("env %v: %v, want ErrNoKey naming the variable", e, err)
		}
	}
	if _, err := secrets.KeyringFromEnv(nil); !errors.Is(err, secrets.ErrNoKey) {
		t.Errorf("nil getenv: %v", err)
	}
}

func TestKeyValidation(t *testing.T) {
	if _, err := secrets.NewKey(make([]byte, 31)); !errors.Is(err, secrets.ErrInvalidKey) {
		t.Errorf("31 raw bytes: %v", err)
	}
	if _, err := secrets.NewKey(make([]byte, 33)); !errors.Is(err, secrets.ErrInvalidKey) {
		t.Errorf("33 raw bytes: %v", err)
	}
	if _, err := secrets.DeriveKey([]byte("short")); !errors.Is(err, secrets.ErrInvalidKey) {
		t.Errorf("a 5-byte secret: %v", err)
	}
	_, err := secrets.KeyringFromEnv(env(map[string]string{"SKILL_SECRET_KEY": "short"}))
	if !errors.Is(err, secrets.ErrInvalidKey) || !strings.Contains(err.Error(), "SKILL_SECRET_KEY") || strings.Contains(err.Error(), "short") {
		t.Errorf("short env secret: %v (want the variable named and the secret not shown)", err)
	}
	if _, err := secrets.NewKeyring(secrets.Key{}); !errors.Is(err, secrets.ErrInvalidKey) {
		t.Errorf("zero primary: %v", err)
	}
	if _, err := secrets.NewKeyring(deriveKey(t, oldSecret), secrets.Key{}); !errors.Is(err, secrets.ErrInvalidKey) {
		t.Errorf("zero secondary: %v", err)
	}
	// The same key twice (SKILL_SECRET_KEY_PREVIOUS equal to SKILL_SECRET_KEY) is fine.
	if _, err := secrets.NewKeyring(deriveKey(t, oldSecret), deriveKey(t, oldSecret)); err != nil {
		t.Errorf("the same key twice: %v", err)
	}
}

func TestRawKeyAndDerivedKey(t *testing.T) {
	// DeriveKey is HKDF-SHA256 with an empty salt and the documented label;
	// computed here independently, the raw key must give the same key.
	raw, err := hkdf.Key(sha256.New, []byte(oldSecret), nil, secrets.DeriveLabel, secrets.KeySize)
	if err != nil {
		t.Fatal(err)
	}
	fromRaw, err := secrets.NewKey(raw)
	if err != nil {
		t.Fatal(err)
	}
	derived := deriveKey(t, oldSecret)
	if fromRaw.ID() != derived.ID() {
		t.Fatalf("ids differ: %v %v", fromRaw, derived)
	}
	sealed, err := keyring(t, fromRaw).Seal(bind("pdf", "", "K"), []byte("value"))
	if err != nil {
		t.Fatal(err)
	}
	if got, err := keyring(t, derived).Open(bind("pdf", "", "K"), sealed); err != nil || !bytes.Equal(got, []byte("value")) {
		t.Fatalf("derived key does not open what the raw key sealed: %v", err)
	}
	if deriveKey(t, newSecret).ID() == derived.ID() {
		t.Fatal("two secrets, one id")
	}
}

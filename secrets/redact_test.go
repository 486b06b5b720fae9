package secrets_test

import (
	"bytes"
	"crypto/hkdf"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/skillkit-go/skillkit/secrets"
)

// TestPrintingShowsNoKeyMaterial prints every type that holds a key in
// every way fmt and slog can, and looks for the key and the secret it came
// from.
func TestPrintingShowsNoKeyMaterial(t *testing.T) {
	raw, err := hkdf.Key(sha256.New, []byte(oldSecret), nil, secrets.DeriveLabel, secrets.KeySize)
	if err != nil {
		t.Fatal(err)
	}
	legacyRaw := sha256.Sum256([]byte(oldSecret))
	needles := []string{
		oldSecret, string(raw), hex.EncodeToString(raw), strings.ToUpper(hex.EncodeToString(raw)),
		base64.StdEncoding.EncodeToString(raw), fmt.Sprint(raw[:8]), fmt.Sprintf("%#v", raw[:4]),
		hex.EncodeToString(legacyRaw[:]), string(legacyRaw[:]), fmt.Sprint(legacyRaw[:8]),
	}
	key := deriveKey(t, oldSecret)
	kr := keyring(t, key)
	legacy, err := secrets.NewLegacyKey([]byte(oldSecret))
	if err != nil {
		t.Fatal(err)
	}
	vault := secrets.NewVault(nil, &secrets.Options{Keyring: kr})
	type holder struct {
		K  secrets.Key
		KR *secrets.Keyring
		L  secrets.LegacyKey
		V  *secrets.Vault
	}
	values := []any{key, &key, kr, *kr, legacy, &legacy, vault, holder{key, kr, legacy, vault}, []secrets.Key{key}, map[string]any{"k": key}}
	var out bytes.Buffer
	for _, v := range values {
		for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x", "%X", "%d", "%T"} {
			fmt.Fprintf(&out, verb+"\n", v)
		}
		fmt.Fprintln(&out, v)
	}
	for _, h := range []slog.Handler{slog.NewTextHandler(&out, nil), slog.NewJSONHandler(&out, nil)} {
		slog.New(h).Info("keys", "key", key, "keyring", kr, "legacy", legacy, "vault", vault, "holder", holder{key, kr, legacy, vault})
	}
	text := out.String()
	for _, n := range needles {
		if strings.Contains(text, n) {
			t.Errorf("printing shows key material %q:\n%s", n, text)
		}
	}
	if !strings.Contains(text, fmt.Sprintf("%#08x", key.ID())) {
		t.Errorf("the key id is not shown:\n%s", text)
	}
	// Every verb goes through the redacting String, whatever fields the
	// types grow later.
	for _, v := range []fmt.Stringer{key, kr, legacy, vault} {
		for _, verb := range []string{"%v", "%+v", "%#v", "%x", "%d"} {
			if got := fmt.Sprintf(verb, v); got != v.String() {
				t.Errorf("%T with %s prints %q, not String()", v, verb, got)
			}
		}
	}
}

package secrets_test

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/skillkit-go/skillkit/secrets"
	"github.com/skillkit-go/skillkit/skill"
)

// legacyEncryptGo is the seed's encrypt in Go, for tests that need blobs of
// arbitrary text; TestLegacyAgainstNode checks the format against Node.js.
func legacyEncryptGo(t testing.TB, secret, plaintext string) string {
	t.Helper()
	key, err := secrets.NewLegacyKey([]byte(secret))
	if err != nil {
		t.Fatal(err)
	}
	return secrets.LegacySealForTest(key, []byte(plaintext))
}

// lookNode finds Node.js. Without it the test fails in CI (CI is set), where
// .ci/run installs it, and is skipped, saying why, elsewhere.
func lookNode(t *testing.T) string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		msg := "node (Node.js) is not installed: the legacy-format test vectors come from testdata/seed_encrypt.js; .ci/run installs it"
		if os.Getenv("CI") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return node
}

// nodeEncrypt runs testdata/seed_encrypt.js, the seed's encrypt as the
// seed writes it, with the given environment, and returns one blob per
// object.
func nodeEncrypt(t *testing.T, node string, vars map[string]string, objects []map[string]string) []string {
	t.Helper()
	input, err := json.Marshal(objects)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(t.Context(), node, filepath.Join("testdata", "seed_encrypt.js"))
	cmd.Env = []string{"PATH=" + os.Getenv("PATH")}
	for k, v := range vars {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	cmd.Stdin = strings.NewReader(string(input))
	out, err := cmd.Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			t.Fatalf("node: %v\n%s", err, ee.Stderr)
		}
		t.Fatalf("node: %v", err)
	}
	blobs := strings.Fields(string(out))
	if len(blobs) != len(objects) {
		t.Fatalf("node printed %d blobs for %d objects", len(blobs), len(objects))
	}
	return blobs
}

func TestLegacyAgainstNode(t *testing.T) {
	node := lookNode(t)
	objects := []map[string]string{
		{"OCR_API_KEY": "sk-123", "REGION": "eu-west-1"},
		{},
		{"QUOTES": `say "hi" \ back`, "LINES": "a\nb\r\n", "UNICODE": "密钥 🔑 é", "EMPTY": "", "HTML": "<script>&amp;"},
		{"LONG": strings.Repeat("0123456789", 2000)},
	}
	cases := []struct {
		name string
		vars map[string]string
		// the secret that must open the blobs, and one that must not
		secret, notSecret string
	}{
		{"SKILL_SECRET_KEY", map[string]string{"SKILL_SECRET_KEY": "seed-skill-key"}, "seed-skill-key", ""},
		{"APP_SECRET", map[string]string{"APP_SECRET": "seed-app-secret"}, "seed-app-secret", ""},
		// || takes the first that is set: never both joined.
		{"both", map[string]string{"SKILL_SECRET_KEY": "first", "APP_SECRET": "second"}, "first", "firstsecond"},
		// An empty string is falsy in JavaScript: APP_SECRET is used.
		{"empty SKILL_SECRET_KEY", map[string]string{"SKILL_SECRET_KEY": "", "APP_SECRET": "fallback"}, "fallback", ""},
		{"unicode secret", map[string]string{"SKILL_SECRET_KEY": "密钥-ключ-🔑"}, "密钥-ключ-🔑", ""},
	}
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			blobs := nodeEncrypt(t, node, tt.vars, objects)
			key, err := secrets.LegacyKeyFromEnv(env(tt.vars))
			if err != nil {
				t.Fatal(err)
			}
			explicit, err := secrets.NewLegacyKey([]byte(tt.secret))
			if err != nil {
				t.Fatal(err)
			}
			for i, blob := range blobs {
				for _, k := range []secrets.LegacyKey{key, explicit} {
					v := newVault(t, nil, keyring(t, deriveKey(t, oldSecret)))
					names, err := v.ImportLegacy(t.Context(), "ocr", blob, k)
					if err != nil {
						t.Fatalf("object %d: %v", i, err)
					}
					if !slices.Equal(names, slices.Sorted(maps.Keys(objects[i]))) {
						t.Fatalf("object %d: imported %v", i, names)
					}
					got, err := v.ResolveEnv(t.Context(), "ocr", nil)
					if err != nil || !maps.Equal(got, objects[i]) {
						t.Fatalf("object %d: %v %v", i, got, err)
					}
				}
				if tt.notSecret != "" {
					wrong, _ := secrets.NewLegacyKey([]byte(tt.notSecret))
					_, err := newVault(t, nil, keyring(t, deriveKey(t, oldSecret))).ImportLegacy(t.Context(), "ocr", blob, wrong)
					if !errors.Is(err, secrets.ErrCannotOpen) {
						t.Fatalf("the key of %q opened the blob: %v", tt.notSecret, err)
					}
				}
			}
		})
	}
	// The Go helper the other tests use writes the same format.
	blob := legacyEncryptGo(t, "x", `{"A":"b"}`)
	key, _ := secrets.NewLegacyKey([]byte("x"))
	if names, err := newVault(t, nil, keyring(t, deriveKey(t, oldSecret))).ImportLegacy(t.Context(), "ocr", blob, key); err != nil || !slices.Equal(names, []string{"A"}) {
		t.Fatalf("legacyEncryptGo: %v %v", names, err)
	}
}

func TestLegacyRefuses(t *testing.T) {
	key, err := secrets.NewLegacyKey([]byte("legacy secret"))
	if err != nil {
		t.Fatal(err)
	}
	good := legacyEncryptGo(t, "legacy secret", `{"A":"1"}`)
	raw, _ := base64.StdEncoding.DecodeString(good)
	flipped := append([]byte(nil), raw...)
	flipped[len(flipped)-1] ^= 1
	tests := []struct {
		name, blob string
		is         error
	}{
		{"not base64", "%%%", secrets.ErrCannotOpen},
		{"too short", base64.StdEncoding.EncodeToString(make([]byte, 31)), secrets.ErrCannotOpen},
		{"tampered", base64.StdEncoding.EncodeToString(flipped), secrets.ErrCannotOpen},
		{"truncated", good[:len(good)-8], secrets.ErrCannotOpen},
		{"too long", strings.Repeat("A", secrets.MaxLegacyBlobLen+4), secrets.ErrCannotOpen},
		{"not an object", legacyEncryptGo(t, "legacy secret", `["A"]`), secrets.ErrCannotOpen},
		{"null", legacyEncryptGo(t, "legacy secret", `null`), secrets.ErrCannotOpen},
		{"number value", legacyEncryptGo(t, "legacy secret", `{"A":1}`), secrets.ErrCannotOpen},
		{"null value", legacyEncryptGo(t, "legacy secret", `{"A":null}`), secrets.ErrCannotOpen},
		{"duplicate name", legacyEncryptGo(t, "legacy secret", `{"A":"1","A":"2"}`), secrets.ErrCannotOpen},
		{"name with a dash", legacyEncryptGo(t, "legacy secret", `{"A-B":"1"}`), secrets.ErrCannotOpen},
		{"trailing garbage", legacyEncryptGo(t, "legacy secret", `{"A":"1"} x`), secrets.ErrCannotOpen},
		{"loader variable", legacyEncryptGo(t, "legacy secret", `{"LD_PRELOAD":"/x.so"}`), skill.ErrInvalidEnvName},
	}
	for _, tt := range tests {
		v := newVault(t, nil, keyring(t, deriveKey(t, oldSecret)))
		if _, err := v.ImportLegacy(t.Context(), "ocr", tt.blob, key); !errors.Is(err, tt.is) {
			t.Errorf("%s: %v, want %v", tt.name, err, tt.is)
		}
		if skills, _ := v.Store().Skills(t.Context()); len(skills) != 0 {
			t.Errorf("%s: a refused import saved values", tt.name)
		}
	}
	if _, err := newVault(t, nil, nil).ImportLegacy(t.Context(), "ocr", good, secrets.LegacyKey{}); !errors.Is(err, secrets.ErrInvalidKey) {
		t.Errorf("zero LegacyKey: %v", err)
	}
	if _, err := secrets.NewLegacyKey(nil); !errors.Is(err, secrets.ErrInvalidKey) {
		t.Errorf("empty legacy secret: %v", err)
	}
	if _, err := secrets.LegacyKeyFromEnv(env(nil)); !errors.Is(err, secrets.ErrNoKey) {
		t.Errorf("no legacy secret: %v", err)
	}
	// Base64 with surrounding white space, as pasted from a database dump.
	v := newVault(t, nil, keyring(t, deriveKey(t, oldSecret)))
	if _, err := v.ImportLegacy(t.Context(), "ocr", "  "+good+"\n", key); err != nil {
		t.Errorf("white space around the blob: %v", err)
	}
}

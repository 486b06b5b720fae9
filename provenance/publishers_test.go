package provenance_test

import (
	"crypto/sha256"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/skillkit-go/skillkit/internal/sigstoretest"
	"github.com/skillkit-go/skillkit/provenance"
)

// TestParsePublishers: an allowed-signers file is read as before; a JSON
// file names the allowed-signers file and the Sigstore identities with
// their trusted root, read through the caller's function; unknown fields,
// identities without a root, and a second value are refused.
func TestParsePublishers(t *testing.T) {
	vs := sigstoretest.New(t)
	allowed, err := os.ReadFile("testdata/allowed_signers")
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{"keys": allowed, "root.json": vs.TrustedRoot(t)}
	var asked []string
	read := func(name string) ([]byte, error) {
		asked = append(asked, name)
		if data, ok := files[name]; ok {
			return data, nil
		}
		return nil, os.ErrNotExist
	}
	commit, _ := os.ReadFile("testdata/signed-commit")

	plain, err := provenance.ParsePublishers(allowed, read)
	if err != nil || plain.VerifyCommit(commit).State != provenance.Verified || len(asked) != 0 {
		t.Fatalf("an allowed-signers file: %v, read %v", err, asked)
	}
	both, err := provenance.ParsePublishers([]byte(` {"allowed_signers": "keys", "sigstore": {"trusted_root": "root.json",
		"identities": [{"san": "release@example.com", "issuer": "https://issuer.example.com"}]}}`), read)
	if err != nil {
		t.Fatal(err)
	}
	if both.VerifyCommit(commit).State != provenance.Verified {
		t.Error("the JSON file's allowed signers do not verify the commit")
	}
	artifact := []byte("archive")
	if sig := both.VerifyBundle(vs.Bundle(t, "release@example.com", "https://issuer.example.com", artifact), sha256.Sum256(artifact)); sig.State != provenance.Verified {
		t.Errorf("the JSON file's identity: %+v", sig)
	}
	for name, data := range map[string]string{
		"an unknown field":         `{"allowed_signer": "keys"}`,
		"identities without root":  `{"sigstore": {"identities": [{"san": "a@example.com", "issuer": "https://i"}]}}`,
		"a missing file":           `{"allowed_signers": "none"}`,
		"two values":               `{} {}`,
		"an identity with no SAN":  `{"sigstore": {"trusted_root": "root.json", "identities": [{"issuer": "https://i"}]}}`,
		"not JSON after the brace": `{allowed_signers}`,
	} {
		if _, err := provenance.ParsePublishers([]byte(data), read); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	if _, err := provenance.ParsePublishers([]byte(`{"allowed_signers": "none"}`), read); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a missing file: %v, want the read's error", err)
	}
}

// TestTrustsSSH: a key that verified is trusted while it is listed, and
// not once the list no longer holds it.
func TestTrustsSSH(t *testing.T) {
	allowed, _ := os.ReadFile("testdata/allowed_signers")
	commit, _ := os.ReadFile("testdata/signed-commit")
	s, err := provenance.ParseAllowedSigners(allowed)
	if err != nil {
		t.Fatal(err)
	}
	sig := s.VerifyCommit(commit)
	if !s.Trusts(sig) {
		t.Fatal("a listed key is not trusted")
	}
	var kept []string
	for l := range strings.Lines(string(allowed)) {
		if !strings.Contains(l, "ada@example.com") {
			kept = append(kept, l)
		}
	}
	without, err := provenance.ParseAllowedSigners([]byte(strings.Join(kept, "")))
	if err != nil {
		t.Fatal(err)
	}
	if without.Trusts(sig) {
		t.Error("a key removed from the list is still trusted")
	}
	if (*provenance.Signers)(nil).Trusts(sig) {
		t.Error("no publishers trust a key")
	}
}

package provenance_test

import (
	"crypto/sha256"
	"encoding/json"
	"strings"
	"testing"

	"github.com/skillkit-go/skillkit/internal/sigstoretest"
	"github.com/skillkit-go/skillkit/provenance"
)

const (
	releaser = "release@example.com"
	issuer   = "https://issuer.example.com"
)

// sigstoreSigners trusts the identities ids against vs's trusted root.
func sigstoreSigners(t *testing.T, vs *sigstoretest.Sigstore, ids ...provenance.Identity) *provenance.Signers {
	t.Helper()
	s, err := (*provenance.Signers)(nil).WithSigstore(vs.TrustedRoot(t), ids)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestVerifyBundle: a bundle over the artifact by a listed identity
// verifies offline against the test's trusted root; the identity matched
// exactly or by a regular expression; another identity, or another issuer,
// is an unknown signer; a bundle over other bytes, one from another
// Sigstore instance, and one whose signature was changed are broken.
func TestVerifyBundle(t *testing.T) {
	vs := sigstoretest.New(t)
	artifact := []byte("the archive's bytes")
	digest := sha256.Sum256(artifact)
	b := vs.Bundle(t, releaser, issuer, artifact)

	exact := sigstoreSigners(t, vs, provenance.Identity{SAN: releaser, Issuer: issuer})
	sig := exact.VerifyBundle(b, digest)
	if sig.State != provenance.Verified || sig.Key != releaser || sig.Issuer != issuer || sig.Format != "sigstore" ||
		strings.Join(sig.Principals, ",") != releaser || !strings.HasPrefix(sig.Digest, "sha256:") {
		t.Fatalf("a listed identity: %+v", sig)
	}
	if !exact.Trusts(sig) {
		t.Error("Trusts: the identity that verified is not trusted")
	}
	byRegexp := sigstoreSigners(t, vs, provenance.Identity{SANRegexp: `^release@example\.com$`, IssuerRegexp: `^https://issuer\.`})
	if sig := byRegexp.VerifyBundle(b, digest); sig.State != provenance.Verified {
		t.Errorf("an identity by regular expression: %+v", sig)
	}
	for name, id := range map[string]provenance.Identity{
		"another SAN":    {SAN: "someone@example.com", Issuer: issuer},
		"another issuer": {SAN: releaser, Issuer: "https://other.example.com"},
	} {
		s := sigstoreSigners(t, vs, id)
		if sig := s.VerifyBundle(b, digest); sig.State != provenance.UnknownSigner || sig.Key != releaser {
			t.Errorf("%s: %+v", name, sig)
		}
		if s.Trusts(sig) {
			t.Errorf("%s: Trusts", name)
		}
	}

	other := sha256.Sum256([]byte("other bytes"))
	if sig := exact.VerifyBundle(b, other); sig.State != provenance.Broken {
		t.Errorf("a bundle for other bytes: %+v", sig)
	}
	foreign := sigstoretest.New(t).Bundle(t, releaser, issuer, artifact)
	if sig := exact.VerifyBundle(foreign, digest); sig.State != provenance.Broken {
		t.Errorf("a bundle from another Sigstore instance: %+v", sig)
	}
	if sig := exact.VerifyBundle([]byte(`{"mediaType": "application/vnd.dev.sigstore.bundle.v0.3+json"}`), digest); sig.State != provenance.Broken {
		t.Errorf("an empty bundle: %+v", sig)
	}
	forged := vs.Bundle(t, releaser, issuer, []byte("other bytes"))
	if sig := exact.VerifyBundle(forged, digest); sig.State != provenance.Broken {
		t.Errorf("a valid bundle of other bytes: %+v", sig)
	}
	// Without its transparency log entry a bundle still has its timestamp
	// authority's time, but the log is required.
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	delete(m["verificationMaterial"].(map[string]any), "tlogEntries")
	unlogged, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	if sig := exact.VerifyBundle(unlogged, digest); sig.State != provenance.Broken {
		t.Errorf("a bundle without its log entry: %+v", sig)
	}
}

// TestVerifyBundleWithoutRoot: with no trusted root a bundle cannot be
// checked (unsupported), but one naming another digest is still broken,
// and one that does not parse too.
func TestVerifyBundleWithoutRoot(t *testing.T) {
	vs := sigstoretest.New(t)
	artifact := []byte("bytes")
	b := vs.Bundle(t, releaser, issuer, artifact)
	var none *provenance.Signers
	if sig := none.VerifyBundle(b, sha256.Sum256(artifact)); sig.State != provenance.Unsupported {
		t.Errorf("no root: %+v", sig)
	}
	if sig := none.VerifyBundle(b, sha256.Sum256([]byte("other"))); sig.State != provenance.Broken {
		t.Errorf("no root, other bytes: %+v", sig)
	}
	if sig := none.VerifyBundle([]byte("{"), sha256.Sum256(artifact)); sig.State != provenance.Broken {
		t.Errorf("no root, not JSON: %+v", sig)
	}
}

// TestWithSigstoreRefuses: an identity needs a SAN and an issuer, a
// regular expression must compile, and the root must parse.
func TestWithSigstoreRefuses(t *testing.T) {
	vs := sigstoretest.New(t)
	for name, id := range map[string]provenance.Identity{
		"no SAN":     {Issuer: issuer},
		"no issuer":  {SAN: releaser},
		"bad regexp": {SANRegexp: "(", Issuer: issuer},
	} {
		if _, err := (*provenance.Signers)(nil).WithSigstore(vs.TrustedRoot(t), []provenance.Identity{id}); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	if _, err := (*provenance.Signers)(nil).WithSigstore([]byte("{}"), nil); err == nil {
		t.Error("an empty trusted root: no error")
	}
}

// FuzzVerifyBundle: a bundle is untrusted input (it comes with the
// archive): whatever its bytes, VerifyBundle answers without panicking,
// and never Verified for bytes the test's instance did not sign.
func FuzzVerifyBundle(f *testing.F) {
	vs := sigstoretest.New(f)
	artifact := []byte("fuzzed archive")
	valid := vs.Bundle(f, releaser, issuer, artifact)
	f.Add(valid)
	f.Add([]byte(`{}`))
	f.Add([]byte(`{"mediaType":"application/vnd.dev.sigstore.bundle.v0.3+json","verificationMaterial":{},"messageSignature":{}}`))
	f.Add([]byte(strings.Replace(string(valid), `"SHA2_256"`, `"SHA2_512"`, 1)))
	s, err := (*provenance.Signers)(nil).WithSigstore(vs.TrustedRoot(f), []provenance.Identity{{SAN: releaser, Issuer: issuer}})
	if err != nil {
		f.Fatal(err)
	}
	digest := sha256.Sum256(artifact)
	other := sha256.Sum256([]byte("other"))
	f.Fuzz(func(t *testing.T, data []byte) {
		sig := s.VerifyBundle(data, digest)
		if sig.State == provenance.Verified && sig.Key != releaser {
			t.Fatalf("verified as %q", sig.Key)
		}
		if got := s.VerifyBundle(data, other); got.State == provenance.Verified {
			t.Fatal("verified for bytes nobody signed")
		}
		(*provenance.Signers)(nil).VerifyBundle(data, digest)
	})
}

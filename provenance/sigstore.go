package provenance

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"time"

	"github.com/sigstore/sigstore-go/pkg/bundle"
	"github.com/sigstore/sigstore-go/pkg/fulcio/certificate"
	"github.com/sigstore/sigstore-go/pkg/root"
	"github.com/sigstore/sigstore-go/pkg/verify"
	"golang.org/x/crypto/ssh"
)

// BundleSuffix ends the name of the Sigstore bundle published beside an
// archive: "skill.zip" is signed by "skill.zip.sigstore.json", the name
// sigstore-python writes by default and cosign's documentation uses for
// `cosign sign-blob --bundle`.
const BundleSuffix = ".sigstore.json"

// MaxBundleBytes bounds a bundle: one certificate chain, a signature and
// a few log entries and timestamps take a few kilobytes.
const MaxBundleBytes = 1 << 20

// Identity is a Sigstore signing identity a host trusts: the subject of
// the short-lived certificate (its subject alternative name: an email, or
// a URI such as a CI workflow's) and the OIDC issuer that vouched for it.
// Each is given exactly (SAN, Issuer) or as a regular expression
// (SANRegexp, IssuerRegexp, Go syntax, matched anywhere unless anchored),
// as sigstore-go's verify.NewShortCertificateIdentity takes them.
type Identity struct {
	SAN          string `json:"san,omitempty"`
	SANRegexp    string `json:"san_regexp,omitempty"`
	Issuer       string `json:"issuer,omitempty"`
	IssuerRegexp string `json:"issuer_regexp,omitempty"`
}

// sigstoreTrust is what Sigstore bundles are checked against.
type sigstoreTrust struct {
	material   root.TrustedMaterial
	identities verify.CertificateIdentities
}

// WithSigstore returns a copy of s (nil: no keys) that also trusts the
// Sigstore identities ids, whose bundles verify against the trusted root
// trustedRoot (a trusted_root.json, as `cosign trusted-root create` or the
// Sigstore TUF repository gives it). Each identity needs a SAN (exact or
// regular expression) and an issuer (exact or regular expression).
func (s *Signers) WithSigstore(trustedRoot []byte, ids []Identity) (*Signers, error) {
	tr, err := root.NewTrustedRootFromJSON(trustedRoot)
	if err != nil {
		return nil, fmt.Errorf("provenance: the Sigstore trusted root: %w", err)
	}
	trust := &sigstoreTrust{material: tr}
	for i, id := range ids {
		if id.SAN == "" && id.SANRegexp == "" || id.Issuer == "" && id.IssuerRegexp == "" {
			return nil, fmt.Errorf("provenance: Sigstore identity %d: give a SAN (san or san_regexp) and an issuer (issuer or issuer_regexp)", i+1)
		}
		ci, err := verify.NewShortCertificateIdentity(id.Issuer, id.IssuerRegexp, id.SAN, id.SANRegexp)
		if err != nil {
			return nil, fmt.Errorf("provenance: Sigstore identity %d: %w", i+1, err)
		}
		trust.identities = append(trust.identities, ci)
	}
	out := &Signers{sigstore: trust}
	if s != nil {
		out.entries = s.entries
	}
	return out, nil
}

// VerifyBundle checks a Sigstore bundle (its JSON, the
// application/vnd.dev.sigstore.bundle media types) over the artifact whose
// SHA-256 is digest, offline, against the trusted root given to
// [Signers.WithSigstore]: the certificate chains to the root's CA, the
// transparency log's entry and an observer timestamp (the log's time or a
// timestamp authority's) are verified, with signed certificate timestamps
// when the root lists CT logs, and the signature is over these bytes.
// Then the certificate's identity (SAN and issuer) is matched against the
// listed identities: Verified, or UnknownSigner.
//
// A bundle that does not parse, or does not verify — for other bytes, a
// certificate from another CA, a changed signature — is Broken. With no
// trusted root (s nil or without Sigstore), a bundle that parses is
// Unsupported, unless its signature names another digest (Broken).
func (s *Signers) VerifyBundle(data []byte, digest [sha256.Size]byte) Signature {
	out := Signature{Format: "sigstore", Digest: "sha256:" + hex.EncodeToString(digest[:])}
	broken := func(reason string) Signature {
		out.State, out.Reason = Broken, reason
		return out
	}
	if len(data) > MaxBundleBytes {
		return broken(fmt.Sprintf("the bundle is over %d bytes", MaxBundleBytes))
	}
	var b bundle.Bundle
	if err := b.UnmarshalJSON(data); err != nil {
		return broken("the bundle does not parse: " + oneLine(err))
	}
	if s == nil || s.sigstore == nil {
		if sc, err := b.SignatureContent(); err == nil && sc.MessageSignatureContent() != nil {
			m := sc.MessageSignatureContent()
			if m.DigestAlgorithm() == "SHA2_256" && !bytes.Equal(m.Digest(), digest[:]) {
				return broken("the bundle signs other bytes")
			}
		}
		out.State, out.Reason = Unsupported, "no Sigstore trusted root is configured"
		return out
	}
	t := s.sigstore
	opts := []verify.VerifierOption{verify.WithObserverTimestamps(1)}
	if len(t.material.RekorLogs()) > 0 {
		opts = append(opts, verify.WithTransparencyLog(1))
	}
	if len(t.material.CTLogs()) > 0 {
		opts = append(opts, verify.WithSignedCertificateTimestamps(1))
	}
	v, err := verify.NewVerifier(t.material, opts...)
	if err != nil {
		return broken(oneLine(err))
	}
	res, err := v.Verify(&b, verify.NewPolicy(verify.WithArtifactDigest("sha256", digest[:]), verify.WithoutIdentitiesUnsafe()))
	if err != nil {
		return broken(oneLine(err))
	}
	if res.Signature == nil || res.Signature.Certificate == nil {
		out.State, out.Reason = Unsupported, "the bundle is signed by a key, not a certificate with an identity"
		return out
	}
	c := res.Signature.Certificate
	out.Key, out.Issuer = c.SubjectAlternativeName, c.Issuer
	if _, err := t.identities.Verify(*c); err != nil {
		out.State = UnknownSigner
		return out
	}
	out.State, out.Principals = Verified, []string{c.SubjectAlternativeName}
	return out
}

// Trusts reports whether a signature found Verified earlier would still
// be: for "ssh", a key of the allowed signers (for the git namespace, valid
// now) has its fingerprint sig.Key; for "sigstore", a listed identity
// matches sig.Key (the SAN) and sig.Issuer. It checks the publishers, not
// the signature, which is not kept.
func (s *Signers) Trusts(sig Signature) bool {
	if s == nil {
		return false
	}
	switch sig.Format {
	case "sigstore":
		if s.sigstore == nil {
			return false
		}
		_, err := s.sigstore.identities.Verify(certificate.Summary{SubjectAlternativeName: sig.Key, Extensions: certificate.Extensions{Issuer: sig.Issuer}})
		return err == nil
	case "ssh", "":
		for _, e := range s.entries {
			if sig.Key == ssh.FingerprintSHA256(e.key) && len(s.match(e.key, time.Now())) > 0 {
				return true
			}
		}
	}
	return false
}

// oneLine is err's message on one line.
func oneLine(err error) string {
	return strings.Join(strings.Fields(err.Error()), " ")
}

// VerifyBundleOver is [Signers.VerifyBundle] over the bytes artifact reads
// to its end, hashed here; the error is the read's.
func (s *Signers) VerifyBundleOver(data []byte, artifact io.Reader) (Signature, error) {
	h := sha256.New()
	if _, err := io.Copy(h, artifact); err != nil {
		return Signature{}, err
	}
	return s.VerifyBundle(data, [sha256.Size]byte(h.Sum(nil))), nil
}

// ReadBundle reads the bundle file name, as published beside an archive
// (the archive's name and [BundleSuffix]); nil, and no error, when there is
// none. It must be a regular file; at most MaxBundleBytes and one byte are
// read, so that a longer one is refused by the check, not cut.
func ReadBundle(name string) ([]byte, error) {
	f, err := os.Open(name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return nil, fmt.Errorf("provenance: the bundle %s is not a regular file", name)
	}
	return io.ReadAll(io.LimitReader(f, MaxBundleBytes+1))
}

package skillkit

import (
	"context"
	"os"

	"github.com/skillkit-go/skillkit/diagnostics"
	"github.com/skillkit-go/skillkit/provenance"
	"github.com/skillkit-go/skillkit/registry"
)

// publisherDiagnostics are PUBLISHER_UNTRUSTED for each installed skill a
// listed publisher signed that would not verify now: its key or identity
// is no longer among the publishers, or, for a ZIP archive whose file and
// bundle are still where it was installed from and still hold the bytes
// installed, the bundle no longer verifies (a trusted root that dropped
// the CA). Without publishers (none given to the Kit) nothing can be told
// and nothing is said.
func (k *Kit) publisherDiagnostics(ctx context.Context) (diagnostics.List, error) {
	if k.publishers == nil {
		return nil, nil
	}
	recs, err := k.registry.List(ctx)
	if err != nil {
		return nil, err
	}
	var out diagnostics.List
	for _, rec := range recs {
		s := rec.Signer
		if !s.Verified() {
			continue
		}
		sig := provenance.Signature{Format: s.Format, Key: s.Key, Issuer: s.Issuer}
		reason := ""
		if !k.publishers.Trusts(sig) {
			reason = "is no longer among the host's publishers"
		} else if now, ok := reverifyArchive(rec, k.publishers); ok && now.State != provenance.Verified {
			reason = "no longer verifies: " + string(now.State)
			if now.Reason != "" {
				reason += ", " + now.Reason
			}
		}
		if reason == "" {
			continue
		}
		who := "the key " + s.Key
		if s.Issuer != "" {
			who = "the identity " + s.Key + " of " + s.Issuer
		}
		out = append(out, diagnostics.New(diagnostics.PublisherUntrusted, rec.Name, k.dir.OSPath(rec.Name),
			"%s was signed by %s (%s), which %s; update or reinstall it once its publisher is trusted again",
			rec.Name, who, s.Object, reason).
			With("format", s.Format).With("key", s.Key).With("issuer", s.Issuer).With("reason", reason))
	}
	return out, nil
}

// reverifyArchive checks again the bundle of a ZIP archive installed from
// a file, when the file and its bundle are still there and the file still
// holds the bytes the record's digest names; false when it cannot.
func reverifyArchive(rec registry.Record, p *provenance.Signers) (provenance.Signature, bool) {
	if rec.Source != registry.SourceZip || rec.URL == "" || rec.Signer.Format != "sigstore" {
		return provenance.Signature{}, false
	}
	bundle, err := provenance.ReadBundle(rec.URL + provenance.BundleSuffix)
	if err != nil || bundle == nil {
		return provenance.Signature{}, false
	}
	f, err := os.Open(rec.URL)
	if err != nil {
		return provenance.Signature{}, false
	}
	defer f.Close()
	sig, err := p.VerifyBundleOver(bundle, f)
	if err != nil || sig.Digest != rec.Signer.Digest {
		return provenance.Signature{}, false
	}
	return sig, true
}

package registry

import "testing"

// Records that differ only in their signer are different records (a
// compare-and-swap relies on it), and equal signers in two allocations are
// equal.
func TestRecordEqualComparesSigners(t *testing.T) {
	signer := func() *Signer {
		return &Signer{State: "verified", Principals: []string{"alice@example.com"}, Key: "SHA256:AAAA", Object: "commit abc"}
	}
	base := Record{Name: "notes", Signer: signer()}
	if !base.Equal(Record{Name: "notes", Signer: signer()}) {
		t.Error("equal signers in two allocations differ")
	}
	for what, change := range map[string]func(*Signer){
		"state":      func(s *Signer) { s.State = "unknown-signer" },
		"principals": func(s *Signer) { s.Principals = []string{"mallory@example.com"} },
		"key":        func(s *Signer) { s.Key = "SHA256:BBBB" },
		"object":     func(s *Signer) { s.Object = "tag v1" },
		"format":     func(s *Signer) { s.Format = "sigstore" },
		"issuer":     func(s *Signer) { s.Issuer = "https://issuer.example.com" },
		"digest":     func(s *Signer) { s.Digest = "sha256:00" },
	} {
		other := Record{Name: "notes", Signer: signer()}
		change(other.Signer)
		if base.Equal(other) || other.Equal(base) {
			t.Errorf("records whose signers differ in %s are equal", what)
		}
	}
	if base.Equal(Record{Name: "notes"}) || (Record{Name: "notes"}).Equal(base) {
		t.Error("a record with a signer equals one without")
	}
	if (*Signer)(nil).Verified() || !base.Signer.Verified() {
		t.Error("Verified")
	}
}

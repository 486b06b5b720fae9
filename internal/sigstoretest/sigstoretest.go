// Package sigstoretest makes Sigstore material for tests: a virtual
// Sigstore instance (a certificate authority, a transparency log and a
// timestamp authority, from sigstore-go's testing package) whose trusted
// root a test writes where the code under test reads it, and bundles, in
// their JSON form, signing given bytes as given identities.
package sigstoretest

import (
	"encoding/base64"
	"encoding/hex"
	"testing"

	protobundle "github.com/sigstore/protobuf-specs/gen/pb-go/bundle/v1"
	protocommon "github.com/sigstore/protobuf-specs/gen/pb-go/common/v1"
	rekorv1 "github.com/sigstore/protobuf-specs/gen/pb-go/rekor/v1"
	"github.com/sigstore/sigstore-go/pkg/root"
	"github.com/sigstore/sigstore-go/pkg/testing/ca"
	"github.com/sigstore/sigstore-go/pkg/tlog"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
)

// Sigstore is a virtual Sigstore instance.
type Sigstore struct {
	ca *ca.VirtualSigstore
}

// New starts a virtual Sigstore instance: fresh keys, nothing shared with
// another instance.
func New(t testing.TB) *Sigstore {
	t.Helper()
	vs, err := ca.NewVirtualSigstore()
	if err != nil {
		t.Fatal(err)
	}
	return &Sigstore{ca: vs}
}

// TrustedRoot is the instance's trusted_root.json: its CA, its
// transparency log and its timestamp authority. It lists no CT log: the
// virtual CA's certificates carry no signed certificate timestamps.
func (s *Sigstore) TrustedRoot(t testing.TB) []byte {
	t.Helper()
	// The virtual log's ID is its key's hash in hex; the trusted root
	// holds the hash itself, as a real one does.
	logs := map[string]*root.TransparencyLog{}
	for id, l := range s.ca.RekorLogs() {
		raw, err := hex.DecodeString(id)
		if err != nil {
			t.Fatal(err)
		}
		c := *l
		c.ID = raw
		logs[id] = &c
	}
	tr, err := root.NewTrustedRoot(root.TrustedRootMediaType01, s.ca.FulcioCertificateAuthorities(), nil,
		s.ca.TimestampingAuthorities(), logs)
	if err != nil {
		t.Fatal(err)
	}
	data, err := tr.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// logEntry is the bundle's form of a log entry the virtual log made: the
// testing package keeps its inclusion promise to itself and makes no
// inclusion proof, which bundles of v0.2 and later need, so both are made
// again here with the log's key.
func (s *Sigstore) logEntry(t testing.TB, entry *tlog.Entry) *rekorv1.TransparencyLogEntry {
	t.Helper()
	tle := proto.Clone(entry.TransparencyLogEntry()).(*rekorv1.TransparencyLogEntry)
	tle.KindVersion = &rekorv1.KindVersion{Kind: "hashedrekord", Version: "0.0.1"}
	set, err := s.ca.RekorSignPayload(tlog.RekorPayload{
		Body:           base64.StdEncoding.EncodeToString(tle.CanonicalizedBody),
		IntegratedTime: tle.IntegratedTime,
		LogIndex:       tle.LogIndex,
		LogID:          hex.EncodeToString(tle.LogId.KeyId),
	})
	if err != nil {
		t.Fatal(err)
	}
	tle.InclusionPromise = &rekorv1.InclusionPromise{SignedEntryTimestamp: set}
	p, err := s.ca.GetInclusionProof(tle.CanonicalizedBody)
	if err != nil {
		t.Fatal(err)
	}
	rootHash, err := hex.DecodeString(*p.RootHash)
	if err != nil {
		t.Fatal(err)
	}
	proof := &rekorv1.InclusionProof{LogIndex: *p.LogIndex, RootHash: rootHash, TreeSize: *p.TreeSize, Checkpoint: &rekorv1.Checkpoint{Envelope: *p.Checkpoint}}
	for _, h := range p.Hashes {
		b, err := hex.DecodeString(h)
		if err != nil {
			t.Fatal(err)
		}
		proof.Hashes = append(proof.Hashes, b)
	}
	tle.InclusionProof = proof
	return tle
}

// Bundle signs artifact as identity (an email, the certificate's subject
// alternative name) vouched for by the OIDC issuer, and returns the bundle
// (media type v0.3) as JSON: the leaf certificate, the message signature,
// the transparency log's entry and a timestamp.
func (s *Sigstore) Bundle(t testing.TB, identity, issuer string, artifact []byte) []byte {
	t.Helper()
	e, err := s.ca.Sign(identity, issuer, artifact)
	if err != nil {
		t.Fatal(err)
	}
	vc, err := e.VerificationContent()
	if err != nil {
		t.Fatal(err)
	}
	cert := vc.Certificate()
	sc, err := e.SignatureContent()
	if err != nil {
		t.Fatal(err)
	}
	ms := sc.MessageSignatureContent()
	tsrs, err := e.Timestamps()
	if err != nil {
		t.Fatal(err)
	}
	entries, err := e.TlogEntries()
	if err != nil {
		t.Fatal(err)
	}
	var tlog []*rekorv1.TransparencyLogEntry
	for _, entry := range entries {
		tlog = append(tlog, s.logEntry(t, entry))
	}
	var stamps []*protocommon.RFC3161SignedTimestamp
	for _, ts := range tsrs {
		stamps = append(stamps, &protocommon.RFC3161SignedTimestamp{SignedTimestamp: ts})
	}
	b := &protobundle.Bundle{
		MediaType: "application/vnd.dev.sigstore.bundle.v0.3+json",
		VerificationMaterial: &protobundle.VerificationMaterial{
			Content:                   &protobundle.VerificationMaterial_Certificate{Certificate: &protocommon.X509Certificate{RawBytes: cert.Raw}},
			TlogEntries:               tlog,
			TimestampVerificationData: &protobundle.TimestampVerificationData{Rfc3161Timestamps: stamps},
		},
		Content: &protobundle.Bundle_MessageSignature{MessageSignature: &protocommon.MessageSignature{
			MessageDigest: &protocommon.HashOutput{Algorithm: protocommon.HashAlgorithm_SHA2_256, Digest: ms.Digest()},
			Signature:     ms.Signature(),
		}},
	}
	data, err := protojson.Marshal(b)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

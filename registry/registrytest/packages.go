package registrytest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"sync"
	"testing"
	"time"

	"github.com/skillkit-go/skillkit/registry"
)

// NewPackageStore returns a new, empty package store for one case.
type NewPackageStore func(t *testing.T) registry.PackageStore

// TestPackages runs every case of the package store's conformance suite,
// each as a subtest named after its function without "Test". The replica
// cases run when the store implements [registry.ReplicaStore] and skip
// otherwise.
func TestPackages(t *testing.T, newStore NewPackageStore) {
	for _, tc := range []struct {
		name string
		run  func(*testing.T, NewPackageStore)
	}{
		{"PackageRoundTrip", TestPackageRoundTrip},
		{"PackageKeptOnce", TestPackageKeptOnce},
		{"PackageSizeLimit", TestPackageSizeLimit},
		{"PackageInvalidFingerprints", TestPackageInvalidFingerprints},
		{"PackagesConcurrent", TestPackagesConcurrent},
		{"Replicas", TestReplicas},
	} {
		t.Run(tc.name, func(t *testing.T) { tc.run(t, newStore) })
	}
}

// FakeFingerprint returns a well-formed fingerprint derived from s, for
// stores that do not look inside what they keep.
func FakeFingerprint(s string) string {
	sum := sha256.Sum256([]byte(s))
	return registry.FingerprintPrefix + hex.EncodeToString(sum[:])
}

// TestPackageRoundTrip: GetPackage returns what PutPackage stored, byte
// for byte, a copy the caller may change; a fingerprint never stored wraps
// ErrNotFound; a canceled context is an error.
func TestPackageRoundTrip(t *testing.T, newStore NewPackageStore) {
	s := newStore(t)
	ctx := t.Context()
	fp := FakeFingerprint("a")
	if _, err := s.GetPackage(ctx, fp, 1<<20); !errors.Is(err, registry.ErrNotFound) {
		t.Fatalf("GetPackage of a missing package: %v, want ErrNotFound", err)
	}
	data := []byte("PK\x03\x04 not really a zip \x00\xff")
	if err := s.PutPackage(ctx, fp, data); err != nil {
		t.Fatal(err)
	}
	data[0] = 'X' // the store kept its own copy
	got, err := s.GetPackage(ctx, fp, 1<<20)
	if err != nil || !bytes.Equal(got, []byte("PK\x03\x04 not really a zip \x00\xff")) {
		t.Fatalf("GetPackage = %q, %v", got, err)
	}
	got[0] = 'Y'
	if again, _ := s.GetPackage(ctx, fp, 1<<20); again[0] != 'P' {
		t.Fatal("the caller's change reached the store")
	}
	canceled, cancel := context.WithCancel(ctx)
	cancel()
	if err := s.PutPackage(canceled, FakeFingerprint("b"), data); err == nil {
		t.Error("PutPackage with a canceled context succeeded")
	}
	if _, err := s.GetPackage(canceled, fp, 1<<20); err == nil {
		t.Error("GetPackage with a canceled context succeeded")
	}
}

// TestPackageKeptOnce: a second PutPackage of a stored fingerprint keeps
// the first archive.
func TestPackageKeptOnce(t *testing.T, newStore NewPackageStore) {
	s := newStore(t)
	ctx := t.Context()
	fp := FakeFingerprint("once")
	for _, data := range []string{"first", "second"} {
		if err := s.PutPackage(ctx, fp, []byte(data)); err != nil {
			t.Fatal(err)
		}
	}
	if got, err := s.GetPackage(ctx, fp, 100); err != nil || string(got) != "first" {
		t.Fatalf("GetPackage = %q, %v; want the first archive", got, err)
	}
}

// TestPackageSizeLimit: an archive over maxBytes is refused with
// ErrPackageTooLarge; one of exactly maxBytes is returned.
func TestPackageSizeLimit(t *testing.T, newStore NewPackageStore) {
	s := newStore(t)
	ctx := t.Context()
	fp := FakeFingerprint("big")
	if err := s.PutPackage(ctx, fp, bytes.Repeat([]byte("x"), 1000)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.GetPackage(ctx, fp, 999); !errors.Is(err, registry.ErrPackageTooLarge) {
		t.Errorf("GetPackage over the limit: %v, want ErrPackageTooLarge", err)
	}
	if got, err := s.GetPackage(ctx, fp, 1000); err != nil || len(got) != 1000 {
		t.Errorf("GetPackage at the limit: %d bytes, %v", len(got), err)
	}
}

// TestPackageInvalidFingerprints: keys that are not fingerprints are
// refused with ErrInvalidRecord by both methods.
func TestPackageInvalidFingerprints(t *testing.T, newStore NewPackageStore) {
	s := newStore(t)
	ctx := t.Context()
	valid := FakeFingerprint("x")
	for _, fp := range []string{"", "sha256:", valid[7:], "md5:" + valid[7:], valid + "0", "sha256:" + string(bytes.Repeat([]byte("G"), 64)),
		"SHA256:" + valid[7:], "sha256:../../" + valid[20:], valid[:70] + "\x00" + valid[71:]} {
		if err := s.PutPackage(ctx, fp, []byte("x")); !errors.Is(err, registry.ErrInvalidRecord) {
			t.Errorf("PutPackage(%q): %v, want ErrInvalidRecord", fp, err)
		}
		if _, err := s.GetPackage(ctx, fp, 10); !errors.Is(err, registry.ErrInvalidRecord) {
			t.Errorf("GetPackage(%q): %v, want ErrInvalidRecord", fp, err)
		}
	}
}

// TestPackagesConcurrent: writers putting the same and different
// fingerprints at once all succeed, and every archive reads back.
func TestPackagesConcurrent(t *testing.T, newStore NewPackageStore) {
	s := newStore(t)
	ctx := t.Context()
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			for _, key := range []string{"shared", fmt.Sprint("own-", i)} {
				if err := s.PutPackage(ctx, FakeFingerprint(key), []byte(key)); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	for _, key := range []string{"shared", "own-0", "own-7"} {
		if got, err := s.GetPackage(ctx, FakeFingerprint(key), 100); err != nil || string(got) != key {
			t.Errorf("%s: %q, %v", key, got, err)
		}
	}
}

// TestReplicas: PutReplica replaces a replica's report, Replicas lists
// them sorted by ID with every field, and an invalid ID is refused.
func TestReplicas(t *testing.T, newStore NewPackageStore) {
	rs, ok := newStore(t).(registry.ReplicaStore)
	if !ok {
		t.Skip("the store does not implement registry.ReplicaStore")
	}
	ctx := t.Context()
	if got, err := rs.Replicas(ctx); err != nil || len(got) != 0 {
		t.Fatalf("Replicas of an empty store = %v, %v", got, err)
	}
	at := time.Date(2025, 3, 4, 5, 6, 7, 8000, time.UTC)
	b := registry.Replica{ID: "b.host-2_x", Host: "h2", Dir: "/srv/skills", SyncedAt: at, Skills: map[string]string{"pdf": FakeFingerprint("1")}}
	// Skills is never nil in what Replicas returns.
	a := registry.Replica{ID: "a", Host: "h1", Dir: "/skills", SyncedAt: at.Add(-time.Hour), Skills: map[string]string{}, Error: "pdf: no package"}
	for _, r := range []registry.Replica{b, {ID: "a"}} {
		if err := rs.PutReplica(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	b.Skills["docx"] = FakeFingerprint("2")
	b.SyncedAt = at.Add(time.Minute)
	for _, r := range []registry.Replica{b, a} {
		if err := rs.PutReplica(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	got, err := rs.Replicas(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := []registry.Replica{a, b}
	same := len(got) == len(want)
	for i := 0; same && i < len(want); i++ {
		g, w := got[i], want[i]
		same = g.ID == w.ID && g.Host == w.Host && g.Dir == w.Dir && g.SyncedAt.Equal(w.SyncedAt) && g.Error == w.Error &&
			g.Skills != nil && maps.Equal(g.Skills, w.Skills)
	}
	if !same {
		t.Errorf("Replicas =\n%+v\nwant\n%+v", got, want)
	}
	for _, id := range []string{"", "a b", "ü", string(bytes.Repeat([]byte("x"), 129))} {
		if err := rs.PutReplica(ctx, registry.Replica{ID: id}); !errors.Is(err, registry.ErrInvalidRecord) {
			t.Errorf("PutReplica(%q): %v, want ErrInvalidRecord", id, err)
		}
	}
}

package registry

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"
)

// ErrPackageTooLarge is wrapped by [PackageStore.GetPackage] for a package
// over the size the caller accepts.
var ErrPackageTooLarge = errors.New("registry: package over the size limit")

// PackageStore keeps the files of installed skills as archives (ZIP, as
// skillkit's install core writes them), content-addressed by the skill's
// [Fingerprint], so that other replicas sharing the registry can fetch
// what one installed. A store holds bytes only: it does not check that an
// archive matches its fingerprint; whoever reads one must (skillkit's Sync
// does, and refuses a mismatch). Implementations are safe for concurrent
// use and return the context's error when it is done before they start.
// registrytest.TestPackages is the conformance suite.
type PackageStore interface {
	// PutPackage stores archive under fingerprint (see
	// [ValidateFingerprint]; other keys wrap ErrInvalidRecord). Storing a
	// fingerprint that is already stored keeps the archive there: the same
	// fingerprint names the same files.
	PutPackage(ctx context.Context, fingerprint string, archive []byte) error
	// GetPackage returns the archive stored under fingerprint: an error
	// wrapping ErrNotFound when there is none, ErrPackageTooLarge when it
	// is over maxBytes (which must be positive). The caller may modify the
	// returned slice.
	GetPackage(ctx context.Context, fingerprint string, maxBytes int64) ([]byte, error)
}

// Replica is what one replica — one skills folder of a host sharing the
// registry with others — reported after its last sync.
type Replica struct {
	ID       string    `json:"id"`   // the replica's identity, stable across restarts
	Host     string    `json:"host"` // the host's name, for people
	Dir      string    `json:"dir"`  // its skills folder
	SyncedAt time.Time `json:"synced_at"`
	// Skills are the skills the replica holds from the registry, by name:
	// the fingerprint of the version it placed.
	Skills map[string]string `json:"skills"`
	// Error says what its last sync could not do; "" when it did all.
	Error string `json:"error,omitempty"`
}

// ReplicaStore is the optional capability of a [PackageStore] to keep each
// replica's last sync, so that one replica can tell which others lag.
// Find it with a type assertion.
type ReplicaStore interface {
	// PutReplica stores r, replacing what the replica reported before.
	// r.ID must be 1 to 128 bytes of ASCII letters, digits, '-', '_' and
	// '.' (else the error wraps ErrInvalidRecord).
	PutReplica(ctx context.Context, r Replica) error
	// Replicas returns every replica's last report, sorted by ID; Skills
	// is never nil.
	Replicas(ctx context.Context) ([]Replica, error)
}

// ValidateFingerprint checks that fp is a fingerprint [Fingerprint]
// returns: [FingerprintPrefix] and 64 lower-case hex digits. The error
// wraps ErrInvalidRecord.
func ValidateFingerprint(fp string) error {
	hexPart, ok := strings.CutPrefix(fp, FingerprintPrefix)
	if !ok || len(hexPart) != 64 || !isLowerHex(hexPart) {
		return fmt.Errorf("%w: %q is not a fingerprint (%s and 64 hex digits)", ErrInvalidRecord, shorten(fp), FingerprintPrefix)
	}
	return nil
}

// ValidateReplicaID checks a replica's id (see [ReplicaStore.PutReplica]).
func ValidateReplicaID(id string) error {
	if id == "" || len(id) > 128 {
		return fmt.Errorf("%w: a replica id is 1 to 128 bytes, not %d", ErrInvalidRecord, len(id))
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
			return fmt.Errorf("%w: the replica id %q holds %q", ErrInvalidRecord, id, c)
		}
	}
	return nil
}

// MemPackages is a [PackageStore] and [ReplicaStore] in memory, for tests
// and for several Kits in one process. Its zero value is ready to use.
type MemPackages struct {
	mu       sync.RWMutex
	archives map[string][]byte
	replicas map[string]Replica
}

var (
	_ PackageStore = (*MemPackages)(nil)
	_ ReplicaStore = (*MemPackages)(nil)
)

// PutPackage implements [PackageStore].
func (m *MemPackages) PutPackage(ctx context.Context, fingerprint string, archive []byte) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := ValidateFingerprint(fingerprint); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.archives == nil {
		m.archives = map[string][]byte{}
	}
	if _, ok := m.archives[fingerprint]; !ok {
		m.archives[fingerprint] = slices.Clone(archive)
	}
	return nil
}

// GetPackage implements [PackageStore].
func (m *MemPackages) GetPackage(ctx context.Context, fingerprint string, maxBytes int64) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := ValidateFingerprint(fingerprint); err != nil {
		return nil, err
	}
	m.mu.RLock()
	defer m.mu.RUnlock()
	a, ok := m.archives[fingerprint]
	if !ok {
		return nil, PackageNotFound(fingerprint)
	}
	if int64(len(a)) > maxBytes {
		return nil, PackageTooLarge(fingerprint, int64(len(a)), maxBytes)
	}
	return slices.Clone(a), nil
}

// SetPackage replaces the archive stored under fingerprint whatever it
// holds: what someone with write access to a shared store can do, for
// tests of what reads it.
func (m *MemPackages) SetPackage(fingerprint string, archive []byte) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.archives == nil {
		m.archives = map[string][]byte{}
	}
	m.archives[fingerprint] = slices.Clone(archive)
}

// PutReplica implements [ReplicaStore].
func (m *MemPackages) PutReplica(ctx context.Context, r Replica) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := ValidateReplicaID(r.ID); err != nil {
		return err
	}
	r.Skills = maps.Clone(r.Skills)
	if r.Skills == nil {
		r.Skills = map[string]string{}
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.replicas == nil {
		m.replicas = map[string]Replica{}
	}
	m.replicas[r.ID] = r
	return nil
}

// Replicas implements [ReplicaStore].
func (m *MemPackages) Replicas(ctx context.Context) ([]Replica, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	m.mu.RLock()
	defer m.mu.RUnlock()
	out := make([]Replica, 0, len(m.replicas))
	for _, r := range m.replicas {
		r.Skills = maps.Clone(r.Skills)
		out = append(out, r)
	}
	slices.SortFunc(out, func(a, b Replica) int { return cmp.Compare(a.ID, b.ID) })
	return out, nil
}

// PackageNotFound is the error of a GetPackage that found no archive for a
// valid fingerprint: it wraps ErrNotFound.
func PackageNotFound(fingerprint string) error {
	return fmt.Errorf("%w: no package stored for %s", ErrNotFound, fingerprint)
}

// PackageTooLarge is the error of a GetPackage whose archive is over
// maxBytes: it wraps ErrPackageTooLarge.
func PackageTooLarge(fingerprint string, size, maxBytes int64) error {
	return fmt.Errorf("%w: the package %s is %d bytes, over %d", ErrPackageTooLarge, fingerprint, size, maxBytes)
}

func isLowerHex(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// shorten keeps the first 80 characters of s for an error message.
func shorten(s string) string {
	if r := []rune(s); len(r) > 80 {
		return string(r[:80]) + "..."
	}
	return s
}

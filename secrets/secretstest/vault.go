package secretstest

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/skillkit-go/skillkit/secrets"
)

// The secrets the vault checks seal with: the key before a rotation and
// the key after it.
const (
	OldSecret = "secretstest old secret, 32 bytes!"
	NewSecret = "secretstest new secret, 32 bytes!"
)

// Keyring returns a keyring whose primary key is derived from primary and
// that also opens with the keys of others.
func Keyring(t testing.TB, primary string, others ...string) *secrets.Keyring {
	t.Helper()
	derive := func(s string) secrets.Key {
		k, err := secrets.DeriveKey([]byte(s))
		if err != nil {
			t.Fatal(err)
		}
		return k
	}
	var more []secrets.Key
	for _, o := range others {
		more = append(more, derive(o))
	}
	kr, err := secrets.NewKeyring(derive(primary), more...)
	if err != nil {
		t.Fatal(err)
	}
	return kr
}

func vault(store secrets.Store, kr *secrets.Keyring) *secrets.Vault {
	return secrets.NewVault(store, &secrets.Options{Keyring: kr, Getenv: func(string) string { return "" }})
}

// SealedHeaders returns the header of every value in store, skills and
// variables in order.
func SealedHeaders(t testing.TB, store secrets.Store) []secrets.Header {
	t.Helper()
	ctx := context.Background()
	var out []secrets.Header
	skills, err := store.Skills(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range skills {
		keys, err := store.Keys(ctx, s)
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range keys {
			sealed, err := store.Get(ctx, s, k)
			if err != nil {
				t.Fatal(err)
			}
			h, err := secrets.ReadHeader(sealed)
			if err != nil {
				t.Fatalf("%s of skill %s: %v", k, s, err)
			}
			out = append(out, h)
		}
	}
	return out
}

// keyIDs counts the values of store by the id of the key that sealed them.
func keyIDs(t testing.TB, store secrets.Store) map[uint32]int {
	count := map[uint32]int{}
	for _, h := range SealedHeaders(t, store) {
		count[h.KeyID]++
	}
	return count
}

// TestRotationResumes: a Vault.Rotate over the store that dies at its sixth
// of twelve writes (FailingStore) leaves every value readable with both
// keys, and a second Rotate by a restarted process finishes the job; a
// third has nothing to do (see [RotationResumes]).
func TestRotationResumes(t *testing.T, newStore NewStore) {
	RotationResumes(t, newStore(t), func(ctx context.Context, store secrets.Store) {
		write := "Put"
		if _, ok := store.(secrets.CompareAndSwapper); ok {
			write = "CompareAndSwap"
		}
		v := vault(FailingStore(store, Fault{Method: write, Call: 6}), Keyring(t, OldSecret))
		stats, err := v.Rotate(ctx, Keyring(t, NewSecret))
		if !errors.Is(err, ErrInjected) || stats.Resealed != 5 {
			t.Fatalf("first run: %+v, %v", stats, err)
		}
		// The vault that crashed still reads everything: it holds both keys.
		for i := range 3 {
			if _, err := v.ResolveEnv(ctx, fmt.Sprint("skill-", i), nil); err != nil {
				t.Fatalf("skill-%d after the crash: %v", i, err)
			}
		}
	})
}

// RotationResumes saves twelve values under the key of [OldSecret] in
// store, calls crash, which must rotate them to the key of [NewSecret]
// with a Vault holding the old key and die before its sixth write (a
// FailingStore, or a process killed), and checks what a crashed rotation
// must leave: five values under the new key and seven under the old, all
// readable with both keys and not with the new one alone; a second Rotate
// by a restarted process reseals the seven, a third finds nothing to do,
// and the new key alone then reads every value.
func RotationResumes(t *testing.T, store secrets.Store, crash func(ctx context.Context, store secrets.Store)) {
	t.Helper()
	ctx := t.Context()
	oldRing, next := Keyring(t, OldSecret), Keyring(t, NewSecret)
	oldID, newID := oldRing.Primary().ID(), next.Primary().ID()
	want := map[string]map[string]string{}
	for i := range 3 {
		s := fmt.Sprintf("skill-%d", i)
		want[s] = map[string]string{}
		for j := range 4 {
			want[s][fmt.Sprintf("KEY_%d", j)] = fmt.Sprintf("value %d/%d", i, j)
		}
		if err := vault(store, oldRing).Save(ctx, s, want[s]); err != nil {
			t.Fatal(err)
		}
	}
	crash(ctx, store)
	if ids := keyIDs(t, store); ids[newID] != 5 || ids[oldID] != 7 {
		t.Fatalf("after the crash: %v", ids)
	}
	both := vault(store, Keyring(t, NewSecret, OldSecret))
	for s, vals := range want {
		if got, err := both.ResolveEnv(ctx, s, nil); err != nil || !maps.Equal(got, vals) {
			t.Fatalf("%s with both keys after the crash: %v", s, err)
		}
	}
	// A restarted process with only the new key cannot read them all...
	if _, err := vault(store, next).ResolveEnv(ctx, "skill-2", nil); !errors.Is(err, secrets.ErrCannotOpen) {
		t.Fatalf("new key alone before the resume: %v", err)
	}
	// ...one with the old key from its environment runs the rotation again.
	restarted := vault(store, Keyring(t, OldSecret))
	stats, err := restarted.Rotate(ctx, next)
	if err != nil || stats != (secrets.RotateStats{Resealed: 7, Unchanged: 5}) {
		t.Fatalf("second run: %+v, %v", stats, err)
	}
	if ids := keyIDs(t, store); ids[newID] != 12 || len(ids) != 1 {
		t.Fatalf("after the second run: %v", ids)
	}
	if stats, err := restarted.Rotate(ctx, next); err != nil || stats != (secrets.RotateStats{Unchanged: 12}) {
		t.Fatalf("third run: %+v, %v", stats, err)
	}
	after := vault(store, next)
	for s, vals := range want {
		if got, err := after.ResolveEnv(ctx, s, nil); err != nil || !maps.Equal(got, vals) {
			t.Fatalf("%s with the new key only: %v %v", s, got, err)
		}
	}
}

// RotationVariables are the variables of skill "pdf" that
// [RotateWhileSaving] and [SaveNewValues] write.
func RotationVariables() []string {
	keys := make([]string, 150)
	for i := range keys {
		keys[i] = fmt.Sprintf("K_%03d", i)
	}
	return keys
}

// SaveNewValues is the other writer of [RotateWhileSaving]: it saves "new
// K" for every variable K of [RotationVariables], one by one, sealed with
// the old key, as a replica that has not been given the new key yet does.
// Run it on a store that shares its values with the rotating one: the same
// store, another client of the same database, in this process or another.
func SaveNewValues(ctx context.Context, store secrets.Store) error {
	kr, err := secrets.DeriveKey([]byte(OldSecret))
	if err != nil {
		return err
	}
	ring, err := secrets.NewKeyring(kr)
	if err != nil {
		return err
	}
	v := vault(store, ring)
	for _, k := range RotationVariables() {
		if err := v.Save(ctx, "pdf", map[string]string{k: "new " + k}); err != nil {
			return err
		}
	}
	return nil
}

// RotateWhileSaving checks that Vault.Rotate never overwrites a value saved
// while it runs. It saves "old K" for every variable of
// [RotationVariables] under the old key, runs save (which must do what
// [SaveNewValues] does) while it rotates store to the new key again and
// again, then rotates once more and checks, with the new key alone, that
// every variable holds "new K". A store without
// [secrets.CompareAndSwapper] is expected to fail it.
func RotateWhileSaving(t *testing.T, store secrets.Store, save func() error) {
	t.Helper()
	ctx := t.Context()
	before := map[string]string{}
	for _, k := range RotationVariables() {
		before[k] = "old " + k
	}
	if err := vault(store, Keyring(t, OldSecret)).Save(ctx, "pdf", before); err != nil {
		t.Fatal(err)
	}
	// The rotating vault keeps the old key, as SKILL_SECRET_KEY_PREVIOUS
	// does, since the other writer goes on sealing with it.
	next := Keyring(t, NewSecret, OldSecret)
	rotator := vault(store, Keyring(t, OldSecret))
	var done atomic.Bool
	var wg sync.WaitGroup
	wg.Go(func() {
		defer done.Store(true)
		if err := save(); err != nil {
			t.Error(err)
		}
	})
	rounds := 0
	for !done.Load() || rounds == 0 {
		if _, err := rotator.Rotate(ctx, next); err != nil {
			t.Fatal(err)
		}
		rounds++
	}
	wg.Wait()
	if _, err := rotator.Rotate(ctx, next); err != nil {
		t.Fatal(err)
	}
	env, err := vault(store, Keyring(t, NewSecret)).ResolveEnv(ctx, "pdf", nil)
	if err != nil {
		t.Fatalf("with the new key only, after %d rotations: %v", rounds, err)
	}
	var lost []string
	for _, k := range RotationVariables() {
		if env[k] != "new "+k {
			lost = append(lost, k)
		}
	}
	if len(lost) > 0 {
		t.Fatalf("%d of %d saves were overwritten by a rotation (%d rounds): %v", len(lost), len(before), rounds, lost)
	}
}

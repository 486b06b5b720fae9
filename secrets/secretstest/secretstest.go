package secretstest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"testing"

	"github.com/skillkit-go/skillkit/secrets"
	"github.com/skillkit-go/skillkit/skill"
)

// NewStore returns a new, empty store for one case.
type NewStore func(t *testing.T) secrets.Store

// TestStore runs every case of the conformance suite, each as a subtest
// named after its function without "Test".
func TestStore(t *testing.T, newStore NewStore) {
	for _, tc := range []struct {
		name string
		run  func(*testing.T, NewStore)
	}{
		{"GetMissing", TestGetMissing},
		{"PutGetReplace", TestPutGetReplace},
		{"KeysAndSkillsSorted", TestKeysAndSkillsSorted},
		{"Delete", TestDelete},
		{"NamesTheLoaderAccepts", TestNamesTheLoaderAccepts},
		{"InvalidNames", TestInvalidNames},
		{"CanceledContext", TestCanceledContext},
		{"Concurrent", TestConcurrent},
		{"CompareAndSwap", TestCompareAndSwap},
		{"CompareAndDelete", TestCompareAndDelete},
		{"CompareAndSwapConcurrent", TestCompareAndSwapConcurrent},
		{"RotationResumes", TestRotationResumes},
	} {
		t.Run(tc.name, func(t *testing.T) { tc.run(t, newStore) })
	}
}

// TestGetMissing: Get of a value never put wraps ErrNotFound, also for a skill
// that holds other values.
func TestGetMissing(t *testing.T, newStore NewStore) {
	s := newStore(t)
	ctx := t.Context()
	if _, err := s.Get(ctx, "pdf", "API_KEY"); !errors.Is(err, secrets.ErrNotFound) {
		t.Fatalf("Get of a missing value: %v, want ErrNotFound", err)
	}
	mustPut(t, s, "pdf", "OTHER", []byte("x"))
	if _, err := s.Get(ctx, "pdf", "API_KEY"); !errors.Is(err, secrets.ErrNotFound) {
		t.Fatalf("Get of a missing value of a known skill: %v, want ErrNotFound", err)
	}
}

// TestPutGetReplace: Get returns what Put stored, byte for byte, up to
// MaxSealedLen bytes; the store copies what it gets and what it returns; a
// second Put replaces the value.
func TestPutGetReplace(t *testing.T, newStore NewStore) {
	s := newStore(t)
	in := []byte{1, 0, 2, 255, 'a'}
	mustPut(t, s, "pdf", "API_KEY", in)
	in[0] = 9
	got := mustGet(t, s, "pdf", "API_KEY")
	if !bytes.Equal(got, []byte{1, 0, 2, 255, 'a'}) {
		t.Fatalf("Get = %v: the store must copy what Put gets", got)
	}
	got[1] = 7
	if again := mustGet(t, s, "pdf", "API_KEY"); again[1] != 0 {
		t.Fatalf("changing the slice Get returned changed the store")
	}
	mustPut(t, s, "pdf", "API_KEY", []byte("second"))
	if got := mustGet(t, s, "pdf", "API_KEY"); string(got) != "second" {
		t.Fatalf("after a second Put, Get = %q", got)
	}
	big := bytes.Repeat([]byte{0xab}, secrets.MaxSealedLen)
	mustPut(t, s, "pdf", "BIG", big)
	if got := mustGet(t, s, "pdf", "BIG"); !bytes.Equal(got, big) {
		t.Fatalf("a value of MaxSealedLen bytes did not come back whole (%d bytes)", len(got))
	}
}

// TestKeysAndSkillsSorted: Keys and Skills list names in byte order, empty
// for an empty store.
func TestKeysAndSkillsSorted(t *testing.T, newStore NewStore) {
	s := newStore(t)
	ctx := t.Context()
	if keys, err := s.Keys(ctx, "pdf"); err != nil || len(keys) != 0 {
		t.Fatalf("Keys of an empty store = %v, %v", keys, err)
	}
	if skills, err := s.Skills(ctx); err != nil || len(skills) != 0 {
		t.Fatalf("Skills of an empty store = %v, %v", skills, err)
	}
	for _, p := range [][2]string{{"zeta", "B"}, {"alpha", "Z_KEY"}, {"alpha", "b_low"}, {"alpha", "A_KEY"}, {"alpha", "_X"}, {"mid", "a"}, {"Mid", "a"}} {
		mustPut(t, s, p[0], p[1], []byte("v"))
	}
	keys, err := s.Keys(ctx, "alpha")
	if err != nil || !slices.Equal(keys, []string{"A_KEY", "Z_KEY", "_X", "b_low"}) {
		t.Fatalf("Keys(alpha) = %v, %v; want byte order", keys, err)
	}
	skills, err := s.Skills(ctx)
	if err != nil || !slices.Equal(skills, []string{"Mid", "alpha", "mid", "zeta"}) {
		t.Fatalf("Skills = %v, %v; want byte order", skills, err)
	}
}

// TestDelete: Delete removes one value, a second Delete wraps ErrNotFound,
// and a skill whose last value is deleted is no longer listed.
func TestDelete(t *testing.T, newStore NewStore) {
	s := newStore(t)
	ctx := t.Context()
	mustPut(t, s, "pdf", "A", []byte("1"))
	mustPut(t, s, "pdf", "B", []byte("2"))
	mustPut(t, s, "ocr", "A", []byte("3"))
	if err := s.Delete(ctx, "pdf", "A"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Get(ctx, "pdf", "A"); !errors.Is(err, secrets.ErrNotFound) {
		t.Fatalf("Get after Delete: %v", err)
	}
	if err := s.Delete(ctx, "pdf", "A"); !errors.Is(err, secrets.ErrNotFound) {
		t.Fatalf("second Delete: %v, want ErrNotFound", err)
	}
	if got := mustGet(t, s, "ocr", "A"); string(got) != "3" {
		t.Fatalf("Delete of pdf/A touched ocr/A: %q", got)
	}
	if err := s.Delete(ctx, "pdf", "B"); err != nil {
		t.Fatal(err)
	}
	if skills, err := s.Skills(ctx); err != nil || !slices.Equal(skills, []string{"ocr"}) {
		t.Fatalf("a skill without values is still listed: %v, %v", skills, err)
	}
	mustPut(t, s, "pdf", "C", []byte("4"))
	if keys, err := s.Keys(ctx, "pdf"); err != nil || !slices.Equal(keys, []string{"C"}) {
		t.Fatalf("Put after the last Delete: Keys = %v, %v", keys, err)
	}
}

// TestNamesTheLoaderAccepts: every name skill.ValidateKey accepts can hold
// secrets, also those the specification's naming rule refuses (hand-placed
// skills).
func TestNamesTheLoaderAccepts(t *testing.T, newStore NewStore) {
	// Hand-placed skills may break the specification's naming rule;
	// every name skill.ValidateKey accepts can hold secrets.
	s := newStore(t)
	for _, name := range []string{"My_Tool", "pdf tools", "技能"} {
		mustPut(t, s, name, "KEY", []byte("v"))
		if got, err := s.Get(t.Context(), name, "KEY"); err != nil || string(got) != "v" {
			t.Fatalf("Get %q: %q, %v", name, got, err)
		}
	}
}

// TestInvalidNames: bad skill names wrap skill.ErrInvalidName and bad
// variable names skill.ErrInvalidEnvName, and nothing is stored.
func TestInvalidNames(t *testing.T, newStore NewStore) {
	s := newStore(t)
	ctx := t.Context()
	for _, name := range []string{"", ".", "..", "../x", "a/b", `a\b`, ".hidden", "a\x00b", "a\u202eb", "CON", " pad"} {
		if err := s.Put(ctx, name, "KEY", []byte("v")); !errors.Is(err, skill.ErrInvalidName) {
			t.Errorf("Put with skill %q: %v, want skill.ErrInvalidName", name, err)
		}
		if _, err := s.Get(ctx, name, "KEY"); !errors.Is(err, skill.ErrInvalidName) {
			t.Errorf("Get with skill %q: %v, want skill.ErrInvalidName", name, err)
		}
		if _, err := s.Keys(ctx, name); !errors.Is(err, skill.ErrInvalidName) {
			t.Errorf("Keys with skill %q: %v, want skill.ErrInvalidName", name, err)
		}
	}
	for _, key := range []string{"", "..", "../KEY", "A/B", "1A", "A.sealed", "LD_PRELOAD", "NODE_OPTIONS"} {
		if err := s.Put(ctx, "pdf", key, []byte("v")); !errors.Is(err, skill.ErrInvalidEnvName) {
			t.Errorf("Put with key %q: %v, want skill.ErrInvalidEnvName", key, err)
		}
		if err := s.Delete(ctx, "pdf", key); !errors.Is(err, skill.ErrInvalidEnvName) {
			t.Errorf("Delete with key %q: %v, want skill.ErrInvalidEnvName", key, err)
		}
	}
	if skills, err := s.Skills(ctx); err != nil || len(skills) != 0 {
		t.Fatalf("invalid names left values behind: %v, %v", skills, err)
	}
}

// TestCanceledContext: every method returns the context's error when it is
// done before the call starts, and changes nothing.
func TestCanceledContext(t *testing.T, newStore NewStore) {
	s := newStore(t)
	mustPut(t, s, "pdf", "A", []byte("1"))
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if err := s.Put(ctx, "pdf", "B", []byte("2")); !errors.Is(err, context.Canceled) {
		t.Errorf("Put: %v, want context.Canceled", err)
	}
	if _, err := s.Get(ctx, "pdf", "A"); !errors.Is(err, context.Canceled) {
		t.Errorf("Get: %v, want context.Canceled", err)
	}
	if err := s.Delete(ctx, "pdf", "A"); !errors.Is(err, context.Canceled) {
		t.Errorf("Delete: %v, want context.Canceled", err)
	}
	if _, err := s.Keys(ctx, "pdf"); !errors.Is(err, context.Canceled) {
		t.Errorf("Keys: %v, want context.Canceled", err)
	}
	if _, err := s.Skills(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("Skills: %v, want context.Canceled", err)
	}
	if cas, ok := s.(secrets.CompareAndSwapper); ok {
		if err := cas.CompareAndSwap(ctx, "pdf", "A", []byte("1"), []byte("2")); !errors.Is(err, context.Canceled) {
			t.Errorf("CompareAndSwap: %v, want context.Canceled", err)
		}
		if err := cas.CompareAndDelete(ctx, "pdf", "A", []byte("1")); !errors.Is(err, context.Canceled) {
			t.Errorf("CompareAndDelete: %v, want context.Canceled", err)
		}
	}
	if got := mustGet(t, s, "pdf", "A"); string(got) != "1" {
		t.Errorf("a canceled Delete removed the value")
	}
}

// TestConcurrent: concurrent Puts, Deletes and Keys lose no value and tear
// none.
func TestConcurrent(t *testing.T, newStore NewStore) {
	s := newStore(t)
	ctx := t.Context()
	const workers, each = 8, 10
	var wg sync.WaitGroup
	errs := make(chan error, workers*each*3)
	for w := range workers {
		wg.Go(func() {
			for i := range each {
				skillName := fmt.Sprintf("skill-%d", i%3)
				key := fmt.Sprintf("K_%d_%d", w, i)
				if err := s.Put(ctx, skillName, key, []byte(key)); err != nil {
					errs <- err
				}
				// Everyone also writes and deletes one shared value.
				if err := s.Put(ctx, "shared", "SAME", []byte(key)); err != nil {
					errs <- err
				}
				if _, err := s.Keys(ctx, skillName); err != nil {
					errs <- err
				}
				if err := s.Delete(ctx, "churn", "GONE"); err != nil && !errors.Is(err, secrets.ErrNotFound) {
					errs <- err
				}
				if err := s.Put(ctx, "churn", "GONE", []byte("x")); err != nil {
					errs <- err
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	total := 0
	for i := range 3 {
		skillName := fmt.Sprintf("skill-%d", i)
		keys, err := s.Keys(ctx, skillName)
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range keys {
			if got := mustGet(t, s, skillName, k); string(got) != k {
				t.Errorf("%s/%s = %q", skillName, k, got)
			}
		}
		total += len(keys)
	}
	if total != workers*each {
		t.Errorf("%d values after concurrent Puts, want %d", total, workers*each)
	}
	if got := mustGet(t, s, "shared", "SAME"); !bytes.HasPrefix(got, []byte("K_")) {
		t.Errorf("the value written by everyone is torn: %q", got)
	}
}

// swapper returns the store's compare-and-swap capability, or skips.
func swapper(t *testing.T, s secrets.Store) secrets.CompareAndSwapper {
	t.Helper()
	cas, ok := s.(secrets.CompareAndSwapper)
	if !ok {
		t.Skipf("%T does not implement secrets.CompareAndSwapper", s)
	}
	return cas
}

// TestCompareAndSwap: a conditional Put succeeds only over the value the
// caller read, or over none when old is empty; otherwise it wraps
// ErrConflict and stores nothing.
func TestCompareAndSwap(t *testing.T, newStore NewStore) {
	s := newStore(t)
	cas := swapper(t, s)
	ctx := t.Context()
	if err := cas.CompareAndSwap(ctx, "pdf", "A", nil, []byte("first")); err != nil {
		t.Fatalf("creating with old empty: %v", err)
	}
	if err := cas.CompareAndSwap(ctx, "pdf", "A", nil, []byte("again")); !errors.Is(err, secrets.ErrConflict) {
		t.Fatalf("creating over an existing value: %v, want ErrConflict", err)
	}
	read := mustGet(t, s, "pdf", "A")
	if err := cas.CompareAndSwap(ctx, "pdf", "A", read, []byte("second")); err != nil {
		t.Fatalf("swapping the value just read: %v", err)
	}
	if err := cas.CompareAndSwap(ctx, "pdf", "A", read, []byte("stale")); !errors.Is(err, secrets.ErrConflict) {
		t.Fatalf("swapping a stale value: %v, want ErrConflict", err)
	}
	if err := cas.CompareAndSwap(ctx, "pdf", "A", []byte("secon"), []byte("prefix")); !errors.Is(err, secrets.ErrConflict) {
		t.Fatalf("swapping with a prefix of the value: %v, want ErrConflict", err)
	}
	if got := mustGet(t, s, "pdf", "A"); string(got) != "second" {
		t.Fatalf("after conflicting swaps the value is %q", got)
	}
	if err := cas.CompareAndSwap(ctx, "pdf", "MISSING", []byte("x"), []byte("y")); !errors.Is(err, secrets.ErrConflict) {
		t.Fatalf("swapping a value that is not there: %v, want ErrConflict", err)
	}
	if _, err := s.Get(ctx, "pdf", "MISSING"); !errors.Is(err, secrets.ErrNotFound) {
		t.Fatalf("a conflicting swap created a value: %v", err)
	}
	big := bytes.Repeat([]byte{0xcd}, secrets.MaxSealedLen)
	if err := cas.CompareAndSwap(ctx, "pdf", "A", []byte("second"), big); err != nil {
		t.Fatal(err)
	}
	if err := cas.CompareAndSwap(ctx, "pdf", "A", big, []byte("small")); err != nil {
		t.Fatalf("swapping a value of MaxSealedLen bytes: %v", err)
	}
	if err := cas.CompareAndSwap(ctx, "../x", "A", nil, []byte("v")); !errors.Is(err, skill.ErrInvalidName) {
		t.Errorf("CompareAndSwap with skill ../x: %v, want skill.ErrInvalidName", err)
	}
	if err := cas.CompareAndSwap(ctx, "pdf", "LD_PRELOAD", nil, []byte("v")); !errors.Is(err, skill.ErrInvalidEnvName) {
		t.Errorf("CompareAndSwap with LD_PRELOAD: %v, want skill.ErrInvalidEnvName", err)
	}
}

// TestCompareAndDelete: a conditional Delete removes only the value the
// caller read.
func TestCompareAndDelete(t *testing.T, newStore NewStore) {
	s := newStore(t)
	cas := swapper(t, s)
	ctx := t.Context()
	if err := cas.CompareAndDelete(ctx, "pdf", "A", []byte("x")); !errors.Is(err, secrets.ErrNotFound) {
		t.Fatalf("deleting a missing value: %v, want ErrNotFound", err)
	}
	mustPut(t, s, "pdf", "A", []byte("first"))
	read := mustGet(t, s, "pdf", "A")
	mustPut(t, s, "pdf", "A", []byte("second"))
	if err := cas.CompareAndDelete(ctx, "pdf", "A", read); !errors.Is(err, secrets.ErrConflict) {
		t.Fatalf("deleting a stale value: %v, want ErrConflict", err)
	}
	if got := mustGet(t, s, "pdf", "A"); string(got) != "second" {
		t.Fatalf("a conflicting delete changed the value to %q", got)
	}
	if err := cas.CompareAndDelete(ctx, "pdf", "A", []byte("second")); err != nil {
		t.Fatalf("deleting the value just read: %v", err)
	}
	if skills, err := s.Skills(ctx); err != nil || len(skills) != 0 {
		t.Fatalf("after the last value went: Skills = %v, %v", skills, err)
	}
}

// TestCompareAndSwapConcurrent: writers that each read, change and write one
// value at the same time lose no change.
func TestCompareAndSwapConcurrent(t *testing.T, newStore NewStore) {
	s := newStore(t)
	swapper(t, s)
	ConcurrentSwaps(t, []secrets.Store{s}, 8, 5)
}

// ConcurrentSwaps runs writers goroutines that each add one, each times, to
// a counter kept as the decimal text of one value, spread round robin over
// stores (which must share their values, as two clients of one database
// do): read, add, CompareAndSwap, read again on ErrConflict. It fails the
// test unless the counter ends at writers*each: a lost update shows as a
// smaller count.
func ConcurrentSwaps(t *testing.T, stores []secrets.Store, writers, each int) {
	t.Helper()
	ctx := t.Context()
	var wg sync.WaitGroup
	for w := range writers {
		s := stores[w%len(stores)]
		cas := s.(secrets.CompareAndSwapper)
		wg.Go(func() {
			for range each {
				for {
					old, err := s.Get(ctx, "counter", "N")
					if err != nil && !errors.Is(err, secrets.ErrNotFound) {
						t.Error(err)
						return
					}
					n := 0
					if len(old) > 0 {
						if n, err = strconv.Atoi(string(old)); err != nil {
							t.Error(err)
							return
						}
					}
					err = cas.CompareAndSwap(ctx, "counter", "N", old, []byte(strconv.Itoa(n+1)))
					if err == nil {
						break
					}
					if !errors.Is(err, secrets.ErrConflict) {
						t.Error(err)
						return
					}
				}
			}
		})
	}
	wg.Wait()
	if got := mustGet(t, stores[0], "counter", "N"); string(got) != strconv.Itoa(writers*each) {
		t.Errorf("counter = %s after %d updates: updates were lost", got, writers*each)
	}
}

func mustPut(t *testing.T, s secrets.Store, skillName, key string, v []byte) {
	t.Helper()
	if err := s.Put(t.Context(), skillName, key, v); err != nil {
		t.Fatalf("Put(%s, %s): %v", skillName, key, err)
	}
}

func mustGet(t *testing.T, s secrets.Store, skillName, key string) []byte {
	t.Helper()
	got, err := s.Get(t.Context(), skillName, key)
	if err != nil {
		t.Fatalf("Get(%s, %s): %v", skillName, key, err)
	}
	return got
}

package secretstest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/skillkit-go/skillkit/secrets"
	"github.com/skillkit-go/skillkit/skill"
)

// TestStore runs the conformance suite against stores made by newStore,
// which is called once per subtest and must return an empty store.
func TestStore(t *testing.T, newStore func(t *testing.T) secrets.Store) {
	t.Run("GetMissing", func(t *testing.T) {
		s := newStore(t)
		ctx := t.Context()
		if _, err := s.Get(ctx, "pdf", "API_KEY"); !errors.Is(err, secrets.ErrNotFound) {
			t.Fatalf("Get of a missing value: %v, want ErrNotFound", err)
		}
		mustPut(t, s, "pdf", "OTHER", []byte("x"))
		if _, err := s.Get(ctx, "pdf", "API_KEY"); !errors.Is(err, secrets.ErrNotFound) {
			t.Fatalf("Get of a missing value of a known skill: %v, want ErrNotFound", err)
		}
	})

	t.Run("PutGetReplace", func(t *testing.T) {
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
	})

	t.Run("KeysAndSkillsSorted", func(t *testing.T) {
		s := newStore(t)
		ctx := t.Context()
		if keys, err := s.Keys(ctx, "pdf"); err != nil || len(keys) != 0 {
			t.Fatalf("Keys of an empty store = %v, %v", keys, err)
		}
		if skills, err := s.Skills(ctx); err != nil || len(skills) != 0 {
			t.Fatalf("Skills of an empty store = %v, %v", skills, err)
		}
		for _, p := range [][2]string{{"zeta", "B"}, {"alpha", "Z_KEY"}, {"alpha", "A_KEY"}, {"alpha", "_X"}, {"mid", "a"}} {
			mustPut(t, s, p[0], p[1], []byte("v"))
		}
		keys, err := s.Keys(ctx, "alpha")
		if err != nil || !slices.Equal(keys, []string{"A_KEY", "Z_KEY", "_X"}) {
			t.Fatalf("Keys(alpha) = %v, %v", keys, err)
		}
		skills, err := s.Skills(ctx)
		if err != nil || !slices.Equal(skills, []string{"alpha", "mid", "zeta"}) {
			t.Fatalf("Skills = %v, %v", skills, err)
		}
	})

	t.Run("Delete", func(t *testing.T) {
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
	})

	t.Run("NamesTheLoaderAccepts", func(t *testing.T) {
		// Hand-placed skills may break the specification's naming rule;
		// every name skill.ValidateKey accepts can hold secrets.
		s := newStore(t)
		for _, name := range []string{"My_Tool", "pdf tools", "技能"} {
			mustPut(t, s, name, "KEY", []byte("v"))
			if got, err := s.Get(t.Context(), name, "KEY"); err != nil || string(got) != "v" {
				t.Fatalf("Get %q: %q, %v", name, got, err)
			}
		}
	})

	t.Run("InvalidNames", func(t *testing.T) {
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
	})

	t.Run("CanceledContext", func(t *testing.T) {
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
		if got := mustGet(t, s, "pdf", "A"); string(got) != "1" {
			t.Errorf("a canceled Delete removed the value")
		}
	})

	t.Run("Concurrent", func(t *testing.T) {
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
	})
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

package secretstest_test

import (
	"errors"
	"testing"

	"github.com/skillkit-go/skillkit/secrets"
	"github.com/skillkit-go/skillkit/secrets/secretstest"
)

// A failing store passes the conformance suite when it fails nothing.
func TestFailingStoreWithoutFaults(t *testing.T) {
	secretstest.TestStore(t, func(*testing.T) secrets.Store {
		return secretstest.FailingStore(&secrets.MemStore{})
	})
}

func TestFailingStore(t *testing.T) {
	ctx := t.Context()
	inner := &secrets.MemStore{}
	s := secretstest.FailingStore(inner,
		secretstest.Fault{Method: "Put", Call: 1},
		secretstest.Fault{Method: "CompareAndSwap", AfterWrite: true},
		secretstest.Fault{Method: "Keys", Call: 2},
	)
	if err := s.Put(ctx, "pdf", "A", []byte("1")); !errors.Is(err, secretstest.ErrInjected) {
		t.Fatalf("first Put: %v", err)
	}
	if _, err := inner.Get(ctx, "pdf", "A"); !errors.Is(err, secrets.ErrNotFound) {
		t.Fatalf("a Put failing before its write wrote: %v", err)
	}
	if err := s.Put(ctx, "pdf", "A", []byte("1")); err != nil {
		t.Fatalf("second Put: %v", err)
	}
	cas := s.(secrets.CompareAndSwapper)
	if err := cas.CompareAndSwap(ctx, "pdf", "A", []byte("1"), []byte("2")); !errors.Is(err, secretstest.ErrInjected) {
		t.Fatalf("CompareAndSwap: %v", err)
	}
	if got, _ := inner.Get(ctx, "pdf", "A"); string(got) != "2" {
		t.Fatalf("a swap failing after its write did not write: %q", got)
	}
	if _, err := s.Keys(ctx, "pdf"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Keys(ctx, "pdf"); !errors.Is(err, secretstest.ErrInjected) {
		t.Fatalf("second Keys: %v", err)
	}
	type noSwap struct{ secrets.Store }
	if _, ok := secretstest.FailingStore(noSwap{inner}).(secrets.CompareAndSwapper); ok {
		t.Error("a failing store has CompareAndSwap although the store it wraps has not")
	}
}

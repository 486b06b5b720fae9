package registrytest_test

import (
	"errors"
	"testing"

	"github.com/skillkit-go/skillkit/registry"
	"github.com/skillkit-go/skillkit/registry/registrytest"
)

// A failing store passes the conformance suite when it fails nothing.
func TestFailingStoreWithoutFaults(t *testing.T) {
	registrytest.TestStore(t, func(*testing.T) registry.Store {
		return registrytest.FailingStore(&registry.MemStore{})
	})
}

func TestFailingStore(t *testing.T) {
	ctx := t.Context()
	boom := errors.New("boom")
	inner := &registry.MemStore{}
	s := registrytest.FailingStore(inner,
		registrytest.Fault{Method: "Put", Call: 2},
		registrytest.Fault{Method: "Put", Call: 3, Err: boom, AfterWrite: true},
		registrytest.Fault{Method: "Get", Call: 1},
	)
	if _, ok := s.(registry.CompareAndSwapper); !ok {
		t.Fatal("a failing MemStore lost CompareAndSwap")
	}
	for i, name := range []string{"one", "two", "three", "four"} {
		err := s.Put(ctx, registry.Record{Name: name})
		want := map[int]error{1: registrytest.ErrInjected, 2: boom}[i]
		if !errors.Is(err, want) || (want == nil && err != nil) {
			t.Errorf("Put %d: %v, want %v", i+1, err, want)
		}
	}
	recs, _ := inner.List(ctx)
	var names []string
	for _, r := range recs {
		names = append(names, r.Name)
	}
	if len(names) != 3 || names[0] != "four" || names[1] != "one" || names[2] != "three" {
		t.Errorf("stored %v: the second Put must not write, the third must", names)
	}
	if _, err := s.Get(ctx, "one"); !errors.Is(err, registrytest.ErrInjected) {
		t.Errorf("first Get: %v", err)
	}
	if _, err := s.Get(ctx, "one"); err != nil {
		t.Errorf("second Get: %v", err)
	}
	type noSwap struct{ registry.Store }
	if _, ok := registrytest.FailingStore(noSwap{inner}).(registry.CompareAndSwapper); ok {
		t.Error("a failing store has CompareAndSwap although the store it wraps has not")
	}
}

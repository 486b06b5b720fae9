package registrytest

import (
	"context"

	"github.com/skillkit-go/skillkit/internal/faults"
	"github.com/skillkit-go/skillkit/registry"
)

// A Fault makes calls of one method of a store fail: the Method's Call-th
// call (every call when Call is 0) returns Err (ErrInjected when nil); with
// AfterWrite a write method stores first and then fails.
type Fault = faults.Fault

// ErrInjected is returned by a failing call whose Fault names no error.
var ErrInjected = faults.ErrInjected

// FailingStore returns a store that passes every call to s except those
// faults name, which fail. The methods are "Get", "Put", "Delete", "List",
// "CompareAndSwap" and "CompareAndDelete". The result implements
// [registry.CompareAndSwapper] exactly when s does.
func FailingStore(s registry.Store, faultList ...Fault) registry.Store {
	f := &failing{store: s, in: faults.New(faultList)}
	if cas, ok := s.(registry.CompareAndSwapper); ok {
		return &failingSwapper{failing: f, cas: cas}
	}
	return f
}

type failing struct {
	store registry.Store
	in    *faults.Injector
}

func (f *failing) Get(ctx context.Context, name string) (registry.Record, error) {
	if err, _ := f.in.Call("Get"); err != nil {
		return registry.Record{}, err
	}
	return f.store.Get(ctx, name)
}

func (f *failing) Put(ctx context.Context, rec registry.Record) error {
	return f.in.Write("Put", func() error { return f.store.Put(ctx, rec) })
}

func (f *failing) Delete(ctx context.Context, name string) error {
	return f.in.Write("Delete", func() error { return f.store.Delete(ctx, name) })
}

func (f *failing) List(ctx context.Context) ([]registry.Record, error) {
	if err, _ := f.in.Call("List"); err != nil {
		return nil, err
	}
	return f.store.List(ctx)
}

type failingSwapper struct {
	*failing
	cas registry.CompareAndSwapper
}

func (f *failingSwapper) CompareAndSwap(ctx context.Context, old *registry.Record, rec registry.Record) error {
	return f.in.Write("CompareAndSwap", func() error { return f.cas.CompareAndSwap(ctx, old, rec) })
}

func (f *failingSwapper) CompareAndDelete(ctx context.Context, old registry.Record) error {
	return f.in.Write("CompareAndDelete", func() error { return f.cas.CompareAndDelete(ctx, old) })
}

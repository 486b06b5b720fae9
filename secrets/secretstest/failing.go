package secretstest

import (
	"context"

	"github.com/skillkit-go/skillkit/internal/faults"
	"github.com/skillkit-go/skillkit/secrets"
)

// A Fault makes calls of one method of a store fail: the Method's Call-th
// call (every call when Call is 0) returns Err (ErrInjected when nil); with
// AfterWrite a write method stores first and then fails.
type Fault = faults.Fault

// ErrInjected is returned by a failing call whose Fault names no error.
var ErrInjected = faults.ErrInjected

// FailingStore returns a store that passes every call to s except those
// faults name, which fail. The methods are "Get", "Put", "Delete", "Keys",
// "Skills", "CompareAndSwap" and "CompareAndDelete". The result implements
// [secrets.CompareAndSwapper] exactly when s does.
func FailingStore(s secrets.Store, faultList ...Fault) secrets.Store {
	f := &failing{store: s, in: faults.New(faultList)}
	if cas, ok := s.(secrets.CompareAndSwapper); ok {
		return &failingSwapper{failing: f, cas: cas}
	}
	return f
}

type failing struct {
	store secrets.Store
	in    *faults.Injector
}

func (f *failing) Get(ctx context.Context, skill, key string) ([]byte, error) {
	if err, _ := f.in.Call("Get"); err != nil {
		return nil, err
	}
	return f.store.Get(ctx, skill, key)
}

func (f *failing) Put(ctx context.Context, skill, key string, sealed []byte) error {
	return f.in.Write("Put", func() error { return f.store.Put(ctx, skill, key, sealed) })
}

func (f *failing) Delete(ctx context.Context, skill, key string) error {
	return f.in.Write("Delete", func() error { return f.store.Delete(ctx, skill, key) })
}

func (f *failing) Keys(ctx context.Context, skill string) ([]string, error) {
	if err, _ := f.in.Call("Keys"); err != nil {
		return nil, err
	}
	return f.store.Keys(ctx, skill)
}

func (f *failing) Skills(ctx context.Context) ([]string, error) {
	if err, _ := f.in.Call("Skills"); err != nil {
		return nil, err
	}
	return f.store.Skills(ctx)
}

type failingSwapper struct {
	*failing
	cas secrets.CompareAndSwapper
}

func (f *failingSwapper) CompareAndSwap(ctx context.Context, skill, key string, old, sealed []byte) error {
	return f.in.Write("CompareAndSwap", func() error { return f.cas.CompareAndSwap(ctx, skill, key, old, sealed) })
}

func (f *failingSwapper) CompareAndDelete(ctx context.Context, skill, key string, old []byte) error {
	return f.in.Write("CompareAndDelete", func() error { return f.cas.CompareAndDelete(ctx, skill, key, old) })
}

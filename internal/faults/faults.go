// Package faults decides which calls of a store fail on purpose, for the
// failing stores of registrytest and secretstest.
package faults

import (
	"errors"
	"sync"
)

// ErrInjected is the error a [Fault] returns when it names none.
var ErrInjected = errors.New("injected failure")

// A Fault makes calls of one method of a store fail.
type Fault struct {
	// Method is the name of the method, as in the store's interface
	// ("Put", "Get", "CompareAndSwap", ...).
	Method string
	// Call is which call of Method fails, counting from 1; 0 fails every
	// call.
	Call int
	// Err is returned by the failing call; nil means ErrInjected.
	Err error
	// AfterWrite makes a failing call of a write method do its write first
	// and then return Err, as when a write took effect but its
	// acknowledgement was lost. Reads fail before reading either way.
	AfterWrite bool
}

// Injector counts the calls of each method and matches them with faults. Its
// zero value fails nothing.
type Injector struct {
	mu     sync.Mutex
	faults []Fault
	calls  map[string]int
}

// New returns an injector for faults.
func New(faults []Fault) *Injector {
	return &Injector{faults: faults, calls: map[string]int{}}
}

// Call counts a call of method and says how it must fail: err is nil when it
// must not; afterWrite says whether the write goes ahead before err is
// returned.
func (in *Injector) Call(method string) (err error, afterWrite bool) {
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.calls == nil {
		in.calls = map[string]int{}
	}
	in.calls[method]++
	n := in.calls[method]
	for _, f := range in.faults {
		if f.Method == method && (f.Call == 0 || f.Call == n) {
			err := f.Err
			if err == nil {
				err = ErrInjected
			}
			return err, f.AfterWrite
		}
	}
	return nil, false
}

// Calls returns how often method was called.
func (in *Injector) Calls(method string) int {
	in.mu.Lock()
	defer in.mu.Unlock()
	return in.calls[method]
}

// Write runs a write method under the injector: it fails before write, or
// after it with AfterWrite; an error from write itself wins.
func (in *Injector) Write(method string, write func() error) error {
	err, after := in.Call(method)
	if err != nil && !after {
		return err
	}
	if werr := write(); werr != nil {
		return werr
	}
	return err
}

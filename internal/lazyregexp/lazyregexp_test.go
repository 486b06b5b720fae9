package lazyregexp

import (
	"sync"
	"testing"
)

func TestNew(t *testing.T) {
	re := New(`^a+$`)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			if !re().MatchString("aaa") || re().MatchString("ab") {
				t.Error("wrong matches")
			}
		})
	}
	wg.Wait()
	if first, again := re(), re(); first != again {
		t.Error("compiled more than once")
	}
}

func TestNewPanicsOnFirstUseOnly(t *testing.T) {
	bad := New(`(`) // no panic here: nothing is compiled yet
	defer func() {
		if recover() == nil {
			t.Error("an invalid expression did not panic on first use")
		}
	}()
	bad()
}

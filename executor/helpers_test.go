package executor_test

import (
	"context"
	"strings"
	"testing"
	"time"
)

func containsAll(s string, parts ...string) bool {
	for _, p := range parts {
		if !strings.Contains(s, p) {
			return false
		}
	}
	return true
}

// processDeadline bounds every test that waits on a process: a broken kill
// fails the test within it, instead of hanging for the 300 s sleeps the
// test skills start.
const processDeadline = 30 * time.Second

// deadline is t.Context() with processDeadline.
func deadline(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(t.Context(), processDeadline)
	t.Cleanup(cancel)
	return ctx
}

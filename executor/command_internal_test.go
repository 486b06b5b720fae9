package executor

import (
	"testing"
	"time"
)

// TestCommandDefaults: zero limits become the documented defaults, never
// "unlimited"; the timeout cannot be checked by running a program for 30 s,
// so it is checked here, where every runner gets it.
func TestCommandDefaults(t *testing.T) {
	got := Command{}.withDefaults()
	if got.Timeout != 30*time.Second || got.MaxStdout != 1<<20 || got.MaxStderr != 64<<10 {
		t.Errorf("zero limits became timeout %v, stdout %d, stderr %d; want 30s, 1048576, 65536", got.Timeout, got.MaxStdout, got.MaxStderr)
	}
	set := Command{Timeout: time.Second, MaxStdout: 5, MaxStderr: 7}
	if got := set.withDefaults(); got.Timeout != set.Timeout || got.MaxStdout != 5 || got.MaxStderr != 7 {
		t.Errorf("limits that were set changed: %+v", got)
	}
}

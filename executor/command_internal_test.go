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

// TestExecutorDefaults: a nil *Options gives the documented limits: 5 min
// cap on a skill's timeout, 1 MiB of input and of output, 8 executions at
// once and 4 per skill, a LocalRunner with the default isolation. Literal
// values, so that a raised default fails here; the behaviour behind each is
// tested with explicit Options elsewhere.
func TestExecutorDefaults(t *testing.T) {
	e := New(nil, nil, nil)
	if e.maxTimeout != 5*time.Minute || e.maxInput != 1<<20 || e.maxOutput != 1<<20 {
		t.Errorf("max timeout %v, input %d, output %d; want 5m0s, 1048576, 1048576", e.maxTimeout, e.maxInput, e.maxOutput)
	}
	if e.limits.perSkill != 4 {
		t.Errorf("%d executions per skill, want 4", e.limits.perSkill)
	}
	if !e.limits.all.TryAcquire(8) || e.limits.all.TryAcquire(1) {
		t.Error("the overall bound is not 8 executions")
	}
	if r, ok := e.runner.(*LocalRunner); !ok || r.Isolation != IsolateAuto {
		t.Errorf("runner %#v, want a LocalRunner with IsolateAuto", e.runner)
	}
}

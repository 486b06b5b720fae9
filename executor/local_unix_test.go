//go:build unix

package executor_test

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/skillkit-go/skillkit/executor"
)

func bashCommand(t *testing.T, script string) executor.Command {
	t.Helper()
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("needs bash:", err)
	}
	return executor.Command{Path: bash, Args: []string{"-c", script}, Env: map[string]string{"PATH": "/usr/bin:/bin"}}
}

func TestLocalRunnerTimeoutKillsGrandchild(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pid")
	cmd := bashCommand(t, fmt.Sprintf(`sleep 300 & echo $! > %q; wait`, pidFile))
	cmd.Timeout = 300 * time.Millisecond
	res, err := (&executor.LocalRunner{}).Run(t.Context(), cmd)
	if err != nil || !res.TimedOut {
		t.Fatalf("got %+v, %v; want a timeout", res, err)
	}
	waitGone(t, pidFile)
}

func TestLocalRunnerKillsWhatTheProgramLeftBehind(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pid")
	// The grandchild holds stdout: without the kill after Wait, Run would
	// wait WaitDelay (an hour here) for the pipe to close.
	cmd := bashCommand(t, fmt.Sprintf(`sleep 300 & echo $! > %q; echo '{"ok":true}'`, pidFile))
	start := time.Now()
	res, err := (&executor.LocalRunner{WaitDelay: time.Hour}).Run(t.Context(), cmd)
	if err != nil || res.ExitCode != 0 || string(res.Stdout) != "{\"ok\":true}\n" {
		t.Fatalf("got %+v, %v", res, err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("Run took %v", d)
	}
	waitGone(t, pidFile)
}

func TestLocalRunnerWaitDelayBoundsEscapedGrandchild(t *testing.T) {
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("needs setsid:", err)
	}
	// setsid leaves the process group, so the group kill misses it and it
	// keeps stdout open: WaitDelay must end the wait.
	cmd := bashCommand(t, `setsid sleep 3 & sleep 0.5; echo out`)
	start := time.Now()
	res, err := (&executor.LocalRunner{WaitDelay: 300 * time.Millisecond}).Run(t.Context(), cmd)
	if err != nil || string(res.Stdout) != "out\n" {
		t.Fatalf("got %+v, %v", res, err)
	}
	if d := time.Since(start); d < 800*time.Millisecond || d > 2800*time.Millisecond {
		t.Errorf("Run took %v, want about 500ms plus the WaitDelay of 300ms", d)
	}
}

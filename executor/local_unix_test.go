//go:build unix

package executor_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
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

// sleeper is a shell command that writes its own pid, as the host's /proc
// numbers it, to file and becomes "sleep 300" (in a PID namespace, $! would
// be the namespace's number).
func sleeper(file string) string {
	return fmt.Sprintf(`sh -c 'read -r pid rest < /proc/self/stat; m=300.$(date +%%N); echo "$pid $m" > "$1.tmp"; mv "$1.tmp" "$1"; exec sleep "$m"' _ %q`, file)
}

func TestLocalRunnerTimeoutKillsGrandchild(t *testing.T) {
	for _, iso := range isolations {
		t.Run(iso.String(), func(t *testing.T) {
			pidFile := filepath.Join(t.TempDir(), "pid")
			cmd := bashCommand(t, fmt.Sprintf(`%s & while [ ! -s %q ]; do sleep 0.01; done; echo started; wait`, sleeper(pidFile), pidFile))
			cmd.Confine = &executor.Confinement{Work: []string{filepath.Dir(pidFile)}}
			cmd.Timeout = 2 * time.Second
			res, err := (&executor.LocalRunner{Isolation: iso}).Run(deadline(t), cmd)
			if err != nil || !res.TimedOut || string(res.Stdout) != "started\n" {
				t.Fatalf("got %+v, %v; want a timeout after the grandchild started", res, err)
			}
			waitGone(t, pidFile)
		})
	}
}

func TestLocalRunnerKillsWhatTheProgramLeftBehind(t *testing.T) {
	for _, iso := range isolations {
		t.Run(iso.String(), func(t *testing.T) {
			pidFile := filepath.Join(t.TempDir(), "pid")
			// The grandchild holds stdout: without the kill after Wait, Run
			// would wait WaitDelay (an hour here) for the pipe to close.
			cmd := bashCommand(t, fmt.Sprintf(`%s & while [ ! -s %q ]; do sleep 0.01; done; echo '{"ok":true}'`, sleeper(pidFile), pidFile))
			cmd.Confine = &executor.Confinement{Work: []string{filepath.Dir(pidFile)}}
			killPidIn(t, pidFile)
			start := time.Now()
			res, err := runWithin(t, &executor.LocalRunner{WaitDelay: time.Hour, Isolation: iso}, deadline(t), cmd)
			if err != nil || res.ExitCode != 0 || string(res.Stdout) != "{\"ok\":true}\n" {
				t.Fatalf("got %+v, %v", res, err)
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("Run took %v", d)
			}
			waitGone(t, pidFile)
		})
	}
}

func TestLocalRunnerWaitDelayBoundsEscapedGrandchild(t *testing.T) {
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("needs setsid:", err)
	}
	// Without namespaces, setsid leaves the process group, so the group
	// kill misses it and it keeps stdout open: WaitDelay must end the wait.
	cmd := bashCommand(t, `setsid sleep 3 & sleep 0.5; echo out`)
	start := time.Now()
	res, err := (&executor.LocalRunner{WaitDelay: 300 * time.Millisecond, Isolation: executor.IsolateOff}).Run(deadline(t), cmd)
	if err != nil || string(res.Stdout) != "out\n" {
		t.Fatalf("got %+v, %v", res, err)
	}
	if d := time.Since(start); d < 800*time.Millisecond || d > 2800*time.Millisecond {
		t.Errorf("Run took %v, want about 500ms plus the WaitDelay of 300ms", d)
	}
}

// runWithin runs cmd and fails the test if Run does not return within
// processDeadline, even when Run ignores its context: a test of a wait that
// must end does not hang with the bug it looks for.
func runWithin(t *testing.T, r executor.Runner, ctx context.Context, cmd executor.Command) (executor.Result, error) {
	t.Helper()
	type outcome struct {
		res executor.Result
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		res, err := r.Run(ctx, cmd)
		done <- outcome{res, err}
	}()
	select {
	case o := <-done:
		return o.res, o.err
	case <-time.After(processDeadline):
		t.Fatalf("Run did not return within %v", processDeadline)
		return executor.Result{}, nil
	}
}

// killPidIn kills, when the test ends, the process whose pid a command
// wrote to file, if it did.
func killPidIn(t *testing.T, file string) {
	t.Cleanup(func() {
		data, err := os.ReadFile(file)
		if err != nil {
			return
		}
		fields := strings.Fields(string(data))
		if len(fields) > 1 && runtime.GOOS == "linux" {
			for _, pid := range processesWithArg(t, fields[1]) {
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
		} else if pid, err := strconv.Atoi(fields[0]); err == nil && pid > 1 {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	})
}

// Without namespaces, a process that left the group and holds stdout can
// keep Run waiting up to WaitDelay; the caller's context ends the wait
// sooner.
func TestLocalRunnerContextEndsTheWaitForPipes(t *testing.T) {
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("needs setsid:", err)
	}
	pidFile := filepath.Join(t.TempDir(), "pid")
	killPidIn(t, pidFile)
	cmd := bashCommand(t, fmt.Sprintf(`setsid %s & while [ ! -s %q ]; do sleep 0.01; done; echo out`, sleeper(pidFile), pidFile))
	ctx, cancel := context.WithTimeout(deadline(t), 2*time.Second)
	defer cancel()
	start := time.Now()
	res, err := runWithin(t, &executor.LocalRunner{WaitDelay: time.Hour, Isolation: executor.IsolateOff}, ctx, cmd)
	if err != nil || res.ExitCode != 0 || string(res.Stdout) != "out\n" {
		t.Fatalf("got %+v, %v", res, err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("Run took %v; the context ended after 2s", d)
	}
}

//go:build unix

package executor_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/skillkit-go/skillkit/executor"
)

// processGone reports whether pid no longer runs: it does not exist, or it
// is a zombie waiting for a parent (pid 1 in a container may never reap it).
func processGone(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return true
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return os.IsNotExist(err)
	}
	// The state follows the command name in parentheses.
	i := bytes.LastIndexByte(stat, ')')
	return i > 0 && i+2 < len(stat) && stat[i+2] == 'Z'
}

// readPid reads the pid a test skill wrote to file; the skill has returned,
// so the file is complete or was never written.
func readPid(t *testing.T, file string) int {
	t.Helper()
	pid, _ := readSleeper(t, file)
	return pid
}

// readSleeper reads what a sleeper wrote: its pid as the /proc it sees
// numbers it, and the unique argument of its sleep, if it wrote one.
func readSleeper(t *testing.T, file string) (int, string) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("the skill wrote no pid: %v", err)
	}
	fields := strings.Fields(string(data))
	if len(fields) == 0 {
		t.Fatalf("no pid in %s", file)
	}
	marker := ""
	if len(fields) > 1 {
		marker = fields[1]
	}
	pid, err := strconv.Atoi(fields[0])
	if err != nil || pid <= 1 {
		t.Fatalf("no pid in %s: %q", file, data)
	}
	return pid, marker
}

// waitGone fails the test unless the process whose pid is in file ends
// within two seconds. A SIGKILL, once sent, takes effect at once: the wait
// is only for the kernel to finish tearing the process down. Whatever
// survives is killed when the test ends.
func waitGone(t *testing.T, file string) {
	t.Helper()
	pid, marker := readSleeper(t, file)
	gone := func() bool { return processGone(pid) }
	if marker != "" && runtime.GOOS == "linux" {
		// A confined program's /proc numbers its own PID namespace: the
		// host finds it by its sleep's argument.
		gone = func() bool { return len(processesWithArg(t, marker)) == 0 }
	} else {
		t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGKILL) })
	}
	for deadline := time.Now().Add(2 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if gone() {
			return
		}
	}
	t.Errorf("process %d (%s) is still running", pid, marker)
}

// processesWithArg returns the pids of the processes on the host whose
// command line holds arg as one of its arguments.
func processesWithArg(t *testing.T, arg string) []int {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatal(err)
	}
	var pids []int
	for _, e := range entries {
		var pid int
		if _, err := fmt.Sscan(e.Name(), &pid); err != nil {
			continue
		}
		cmdline, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err == nil && slices.Contains(strings.Split(string(cmdline), "\x00"), arg) && !processGone(pid) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// workIn lends dir to every command r runs, as a staging folder is lent:
// confined commands write nowhere else.
func workIn(r executor.Runner, dir string) executor.Runner {
	return executor.Chain(r, func(next executor.Runner) executor.Runner {
		return executor.RunnerFunc(func(ctx context.Context, c executor.Command) (executor.Result, error) {
			var grant executor.Confinement
			if c.Confine != nil {
				grant = *c.Confine
			}
			grant.Work = append(slices.Clone(grant.Work), dir)
			c.Confine = &grant
			return next.Run(ctx, c)
		})
	})
}

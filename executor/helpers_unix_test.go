//go:build unix

package executor_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
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
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("the skill wrote no pid: %v", err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil || pid <= 1 {
		t.Fatalf("no pid in %s: %q", file, data)
	}
	return pid
}

// waitGone fails the test unless the process whose pid is in file ends
// within two seconds. A SIGKILL, once sent, takes effect at once: the wait
// is only for the kernel to finish tearing the process down. Whatever
// survives is killed when the test ends.
func waitGone(t *testing.T, file string) {
	t.Helper()
	pid := readPid(t, file)
	t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGKILL) })
	for deadline := time.Now().Add(2 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if processGone(pid) {
			return
		}
	}
	t.Errorf("process %d is still running", pid)
}

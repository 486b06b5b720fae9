package executor_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/skillkit-go/skillkit/executor"
	"github.com/skillkit-go/skillkit/executor/executortest"
)

// newSandbox builds a sandbox runner, or skips the test where bubblewrap
// cannot work. Under CI (CI set), which installs bubblewrap, it fails
// instead, so the sandbox tests can never be skipped silently there.
func newSandbox(t testing.TB, opts *executor.SandboxOptions) *executor.SandboxRunner {
	t.Helper()
	r, err := executor.NewSandboxRunner(deadline(t), opts)
	if err != nil {
		if runtime.GOOS == "linux" && os.Getenv("CI") != "" {
			t.Fatalf("CI installs bubblewrap, yet: %v", err)
		}
		t.Skipf("no sandbox on this machine: %v", err)
	}
	return r
}

func TestSandboxRunnerConformance(t *testing.T) {
	newSandbox(t, nil)
	executortest.TestRunner(t, func(t *testing.T, scratch string) executor.Runner {
		return newSandbox(t, &executor.SandboxOptions{Writable: []string{scratch}})
	})
}

func TestSandboxWithoutBwrap(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	_, err := executor.NewSandboxRunner(deadline(t), nil)
	if !errors.Is(err, executor.ErrNoSandbox) {
		t.Fatalf("err = %v, want ErrNoSandbox", err)
	}
	if runtime.GOOS == "linux" && !containsAll(err.Error(), "bwrap not found", "bubblewrap") {
		t.Errorf("the error %q does not say that bwrap is missing", err)
	}
	_, err = executor.NewSandboxRunner(deadline(t), &executor.SandboxOptions{Bwrap: "/no/such/bwrap"})
	if !errors.Is(err, executor.ErrNoSandbox) {
		t.Fatalf("err = %v, want ErrNoSandbox", err)
	}
}

func TestSandboxWritesOnlyTmp(t *testing.T) {
	r := newSandbox(t, nil)
	skillDir, outside := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(skillDir, "data.txt"), []byte("skill data"), 0o644); err != nil {
		t.Fatal(err)
	}
	script := fmt.Sprintf(`
try() { if (echo x > "$1") 2>/dev/null; then echo "wrote $1"; fi; }
try %[1]q/new.txt
try %[1]q/data.txt
try %[2]q/escaped.txt
try /usr/evil
try /etc/evil
try "$HOME/evil"
echo tmp > /tmp/ok && cat /tmp/ok
cat data.txt; echo
test -e /etc/shadow && echo "sees /etc/shadow"
test -e %[2]q && echo "sees the host folder"
exit 0`, skillDir, outside)
	res, err := r.Run(deadline(t), executor.Command{
		Path: "bash", Args: []string{"-c", script}, Dir: skillDir,
		Env: map[string]string{"PATH": "/usr/bin:/bin", "HOME": os.Getenv("HOME")},
	})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(res.Stdout), "tmp\nskill data\n"; got != want {
		t.Errorf("sandbox output %q, want %q (stderr %q)", got, want, res.Stderr)
	}
	for _, p := range []string{filepath.Join(skillDir, "new.txt"), filepath.Join(outside, "escaped.txt")} {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("the sandbox wrote %s on the host", p)
		}
	}
	if data, _ := os.ReadFile(filepath.Join(skillDir, "data.txt")); string(data) != "skill data" {
		t.Errorf("the sandbox changed the skill's file: %q", data)
	}
}

func TestSandboxNetwork(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var connections atomic.Int32
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			connections.Add(1)
			c.Close()
		}
	}()
	port := ln.Addr().(*net.TCPAddr).Port
	connect := executor.Command{
		Path: "bash", Args: []string{"-c", fmt.Sprintf("echo hi 2>/dev/null > /dev/tcp/127.0.0.1/%d && echo connected", port)},
		Env: map[string]string{"PATH": "/usr/bin:/bin"}, Timeout: 10 * time.Second,
	}

	res, err := newSandbox(t, nil).Run(deadline(t), connect)
	if err != nil {
		t.Fatal(err)
	}
	if string(res.Stdout) == "connected\n" || connections.Load() != 0 {
		t.Errorf("the sandbox reached a listener on the host's loopback (stdout %q)", res.Stdout)
	}

	// The same command with Network set does connect: the test can tell.
	res, err = newSandbox(t, &executor.SandboxOptions{Network: true}).Run(deadline(t), connect)
	if err != nil {
		t.Fatal(err)
	}
	if string(res.Stdout) != "connected\n" {
		t.Errorf("with Network the sandbox could not connect: stdout %q stderr %q", res.Stdout, res.Stderr)
	}
}

func TestSandboxEnvironmentIsOnlyWhatWasGiven(t *testing.T) {
	t.Setenv("SECRET_X", "host-secret")
	r := newSandbox(t, nil)
	res, err := r.Run(deadline(t), executor.Command{Path: "/usr/bin/env", Env: map[string]string{"FOO": "bar", "PWD": "/given"}})
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Fields(string(res.Stdout))
	slices.Sort(got)
	if want := []string{"FOO=bar", "PWD=/given"}; !slices.Equal(got, want) {
		t.Errorf("the sandboxed program saw %q, want exactly %q", got, want)
	}
}

func TestExecuteInSandbox(t *testing.T) {
	needPrograms(t, "bash", "node")
	t.Setenv("SECRET_X", "host-secret-value")
	scratch := t.TempDir()
	r := newSandbox(t, &executor.SandboxOptions{Writable: []string{scratch}})
	e, _ := newExecutor(t, &executor.Options{Runner: r})

	out, err := e.Execute(deadline(t), "bash-modes", json.RawMessage(`{"mode":"env"}`))
	if want := `{"ok":true,"secret_x":"unset","token":"` + skillToken + `","extra":"unset"}`; err != nil || string(out.Output) != want {
		t.Errorf("env: %s, %v; want %s", out.Output, err, want)
	}
	out, err = e.Execute(deadline(t), "node-sum", json.RawMessage(`{"numbers":[2,3]}`))
	if err != nil || string(out.Output) != `{"label":"sum","value":5}` {
		t.Errorf("node-sum: %s, %v", out.Output, err)
	}
	start := time.Now()
	_, err = e.Execute(deadline(t), "bash-slow", json.RawMessage(fmt.Sprintf(`{"pid_file":%q}`, filepath.Join(scratch, "pid"))))
	if !errors.Is(err, executor.ErrTimeout) || time.Since(start) > 10*time.Second {
		t.Errorf("bash-slow: %v after %v, want ErrTimeout after 2s", err, time.Since(start))
	}
}

// The sandbox honours a command's own grants: a write grant is writable,
// a read grant readable, and a list of hosts gets no network (the sandbox
// cannot filter hosts).
func TestSandboxRunnerConfinement(t *testing.T) {
	needPrograms(t, "bash")
	r := newSandbox(t, nil)
	out, data := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(data, "in"), []byte("in"), 0o644); err != nil {
		t.Fatal(err)
	}
	script := fmt.Sprintf("cat %s/in && echo x > %s/new", data, out)
	cmd := bashCommand(t, script)
	if res, err := r.Run(deadline(t), cmd); err != nil || res.ExitCode == 0 {
		t.Fatalf("without grants: %+v %v", res, err)
	}
	cmd.Confine = &executor.Confinement{Read: []string{data}, Write: []string{out}}
	if res, err := r.Run(deadline(t), cmd); err != nil || res.ExitCode != 0 {
		t.Fatalf("with grants: %+v %v", res, err)
	}
	if _, err := os.Stat(filepath.Join(out, "new")); err != nil {
		t.Fatal("the write grant was not writable")
	}
}

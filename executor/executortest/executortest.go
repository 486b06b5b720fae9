package executortest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/skillkit-go/skillkit/executor"
)

// NewRunner returns the Runner under test. scratch is a folder on the host
// that commands must be able to write to at the same path (a sandboxing
// Runner makes it writable inside its sandbox); the suite reads it from the
// host to see what the commands did.
type NewRunner func(t *testing.T, scratch string) executor.Runner

// slack bounds how long a run that must end promptly may take: generous, so
// a loaded machine does not fail the suite, and far below the 30 s sleeps
// the tests start.
const slack = 10 * time.Second

// TestRunner runs the conformance suite against the Runner newRunner makes.
func TestRunner(t *testing.T, newRunner NewRunner) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("the Runner conformance suite needs bash:", err)
	}
	envProg, err := exec.LookPath("env")
	if err != nil {
		t.Skip("the Runner conformance suite needs env:", err)
	}
	// PATH for the programs the scripts call, from the host.
	hostPath := os.Getenv("PATH")
	s := &suite{bash: bash, env: envProg, hostPath: hostPath, newRunner: newRunner}
	for _, tc := range []struct {
		name string
		run  func(t *testing.T, s *suite)
	}{
		{"StdinToStdout", testStdinToStdout},
		{"NoStdin", testNoStdin},
		{"ExitCode", testExitCode},
		{"Stderr", testStderr},
		{"EnvIsExactlyGiven", testEnvExact},
		{"NilEnvIsEmpty", testNilEnv},
		{"Dir", testDir},
		{"StdoutCapped", testStdoutCapped},
		{"ZeroLimitsAreTheDefaults", testZeroLimits},
		{"StderrKeepsTail", testStderrTail},
		{"Timeout", testTimeout},
		{"TimeoutKillsGrandchild", testTimeoutKillsGrandchild},
		{"GrandchildHoldingStdout", testGrandchildHoldsStdout},
		{"Cancel", testCancel},
		{"ContextDoneBeforeStart", testContextDone},
		{"InvalidCommand", testInvalidCommand},
		{"ProgramNotFound", testNotFound},
		{"UnreadStdin", testUnreadStdin},
		{"Concurrent", testConcurrent},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tc.run(t, s)
		})
	}
}

type suite struct {
	bash, env, hostPath string
	newRunner           NewRunner
}

// runner makes a runner with a fresh scratch folder.
func (s *suite) runner(t *testing.T) (executor.Runner, string) {
	scratch := t.TempDir()
	if resolved, err := filepath.EvalSymlinks(scratch); err == nil {
		scratch = resolved
	}
	return s.newRunner(t, scratch), scratch
}

// script is a bash command line with the host's PATH.
func (s *suite) script(line string) executor.Command {
	return executor.Command{Path: s.bash, Args: []string{"-c", line}, Env: map[string]string{"PATH": s.hostPath}}
}

// deadline bounds every test that waits on a process, so that a runner
// whose kill is broken fails the suite within it instead of hanging for the
// 30 s sleeps the tests start.
func deadline(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(t.Context(), 2*slack)
	t.Cleanup(cancel)
	return ctx
}

func run(t *testing.T, r executor.Runner, cmd executor.Command) executor.Result {
	t.Helper()
	res, err := r.Run(deadline(t), cmd)
	if err != nil {
		t.Fatalf("Run(%s %q): %v", cmd.Path, cmd.Args, err)
	}
	return res
}

func testStdinToStdout(t *testing.T, s *suite) {
	r, _ := s.runner(t)
	cmd := s.script("cat")
	cmd.Stdin = []byte(`{"text":"héllo"}`)
	res := run(t, r, cmd)
	if string(res.Stdout) != `{"text":"héllo"}` || res.ExitCode != 0 || res.TimedOut || res.Truncated() {
		t.Errorf("got %+v, want the input echoed with exit code 0", res)
	}
	if res.Duration <= 0 {
		t.Errorf("Duration = %v, want > 0", res.Duration)
	}
}

func testExitCode(t *testing.T, s *suite) {
	r, _ := s.runner(t)
	res := run(t, r, s.script("echo partial; exit 7"))
	if res.ExitCode != 7 || string(res.Stdout) != "partial\n" || res.TimedOut {
		t.Errorf("got exit code %d, stdout %q; want 7 and %q", res.ExitCode, res.Stdout, "partial\n")
	}
}

func testStderr(t *testing.T, s *suite) {
	r, _ := s.runner(t)
	res := run(t, r, s.script("echo out; echo oops >&2; exit 1"))
	if string(res.Stderr) != "oops\n" || string(res.Stdout) != "out\n" || res.ExitCode != 1 {
		t.Errorf("got stdout %q, stderr %q, exit %d", res.Stdout, res.Stderr, res.ExitCode)
	}
}

func testEnvExact(t *testing.T, s *suite) {
	r, _ := s.runner(t)
	env := map[string]string{"A": "1", "SKILL_KEY": "two words = three", "EMPTY": ""}
	res := run(t, r, executor.Command{Path: s.env, Env: env})
	got := strings.Split(strings.TrimSuffix(string(res.Stdout), "\n"), "\n")
	want := []string{"A=1", "EMPTY=", "SKILL_KEY=two words = three"}
	slices.Sort(got)
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("the program saw the environment %q, want exactly %q", got, want)
	}
}

func testNilEnv(t *testing.T, s *suite) {
	r, _ := s.runner(t)
	res := run(t, r, executor.Command{Path: s.env})
	if len(res.Stdout) != 0 || res.ExitCode != 0 {
		t.Errorf("with a nil Env the program saw %q (exit %d), want an empty environment", res.Stdout, res.ExitCode)
	}
}

func testDir(t *testing.T, s *suite) {
	r, scratch := s.runner(t)
	cmd := s.script("pwd -P")
	cmd.Dir = scratch
	res := run(t, r, cmd)
	if got := strings.TrimSpace(string(res.Stdout)); got != scratch {
		t.Errorf("working directory %q, want %q", got, scratch)
	}
}

func testStdoutCapped(t *testing.T, s *suite) {
	r, _ := s.runner(t)
	cmd := s.script("head -c 3000000 /dev/zero; echo done >&2")
	cmd.MaxStdout = 1000
	res := run(t, r, cmd)
	if len(res.Stdout) != 1000 || !res.StdoutTruncated || res.StderrTruncated || res.ExitCode != 0 {
		t.Errorf("got %d bytes, truncated=%v, stderr truncated=%v, exit %d; want 1000, true, false, 0",
			len(res.Stdout), res.StdoutTruncated, res.StderrTruncated, res.ExitCode)
	}
	if string(res.Stderr) != "done\n" {
		t.Errorf("stderr %q, want %q: the program must run to its end", res.Stderr, "done\n")
	}
}

// testZeroLimits: a Command that leaves its output limits at zero keeps
// DefaultMaxStdout bytes of standard output and DefaultMaxStderr of
// standard error, never everything. The sizes are literal, so that a raised
// default fails here.
func testZeroLimits(t *testing.T, s *suite) {
	r, _ := s.runner(t)
	res := run(t, r, s.script("head -c 1048586 /dev/zero; head -c 65546 /dev/zero >&2"))
	if len(res.Stdout) != 1<<20 || !res.StdoutTruncated || len(res.Stderr) != 64<<10 || !res.StderrTruncated {
		t.Errorf("kept %d bytes of stdout (truncated=%v) and %d of stderr (truncated=%v); want 1048576 and 65536, both truncated",
			len(res.Stdout), res.StdoutTruncated, len(res.Stderr), res.StderrTruncated)
	}
}

func testStderrTail(t *testing.T, s *suite) {
	r, _ := s.runner(t)
	cmd := s.script(`for i in $(seq 1 2000); do echo "line $i" >&2; done`)
	cmd.MaxStderr = 100
	res := run(t, r, cmd)
	if len(res.Stderr) > 100 || !res.StderrTruncated || !bytes.HasSuffix(res.Stderr, []byte("line 2000\n")) {
		t.Errorf("stderr %q (%d bytes, truncated=%v), want the last 100 bytes ending in line 2000",
			res.Stderr, len(res.Stderr), res.StderrTruncated)
	}
}

func testTimeout(t *testing.T, s *suite) {
	r, _ := s.runner(t)
	cmd := s.script("echo started; sleep 30")
	// The timeout runs from the start: long enough for a confined start on
	// a loaded machine to reach the echo.
	cmd.Timeout = 2 * time.Second
	start := time.Now()
	res := run(t, r, cmd)
	if !res.TimedOut || res.ExitCode != -1 {
		t.Errorf("TimedOut=%v ExitCode=%d, want true and -1", res.TimedOut, res.ExitCode)
	}
	if string(res.Stdout) != "started\n" {
		t.Errorf("stdout %q, want what was written before the timeout", res.Stdout)
	}
	if d := time.Since(start); d > slack {
		t.Errorf("Run took %v after a 2s timeout", d)
	}
}

func testTimeoutKillsGrandchild(t *testing.T, s *suite) {
	r, scratch := s.runner(t)
	marker := filepath.Join(scratch, "alive")
	// The grandchild writes the marker one second after the kill, unless
	// it was killed too. It does not hold the output pipes.
	cmd := s.script(fmt.Sprintf(`(sleep 1.3; echo alive > %q) >/dev/null 2>&1 </dev/null & sleep 30`, marker))
	cmd.Timeout = 300 * time.Millisecond
	res := run(t, r, cmd)
	if !res.TimedOut {
		t.Fatalf("TimedOut=false, want true")
	}
	time.Sleep(2 * time.Second)
	if _, err := os.Stat(marker); err == nil {
		t.Errorf("the grandchild survived the timeout and wrote %s", marker)
	}
}

func testGrandchildHoldsStdout(t *testing.T, s *suite) {
	r, _ := s.runner(t)
	start := time.Now()
	res := run(t, r, s.script(`sleep 30 & echo '{"ok":true}'`))
	if string(res.Stdout) != "{\"ok\":true}\n" || res.ExitCode != 0 || res.TimedOut {
		t.Errorf("got stdout %q exit %d timedOut %v", res.Stdout, res.ExitCode, res.TimedOut)
	}
	if d := time.Since(start); d > slack {
		t.Errorf("Run took %v: a grandchild holding stdout made it wait", d)
	}
}

func testCancel(t *testing.T, s *suite) {
	r, _ := s.runner(t)
	ctx, cancel := context.WithCancel(deadline(t))
	time.AfterFunc(300*time.Millisecond, cancel)
	start := time.Now()
	_, err := r.Run(ctx, s.script("sleep 30"))
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want it to wrap context.Canceled", err)
	}
	if d := time.Since(start); d > slack {
		t.Errorf("Run took %v after the context was cancelled", d)
	}
}

func testContextDone(t *testing.T, s *suite) {
	r, scratch := s.runner(t)
	ctx, cancel := context.WithCancel(deadline(t))
	cancel()
	marker := filepath.Join(scratch, "ran")
	_, err := r.Run(ctx, s.script(fmt.Sprintf("echo > %q", marker)))
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want it to wrap context.Canceled", err)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Errorf("the command ran although the context was done")
	}
}

func testInvalidCommand(t *testing.T, s *suite) {
	r, _ := s.runner(t)
	for _, cmd := range []executor.Command{
		{},
		{Path: s.bash, Env: map[string]string{"A=B": "1"}},
		{Path: s.bash, Env: map[string]string{"": "1"}},
		{Path: s.bash, Env: map[string]string{"K": "a\x00b"}},
		{Path: s.bash, Args: []string{"a\x00b"}},
		{Path: s.bash, Timeout: -time.Second},
		{Path: s.bash, MaxStdout: -1},
	} {
		if _, err := r.Run(deadline(t), cmd); !errors.Is(err, executor.ErrInvalidCommand) {
			t.Errorf("Run(%+v) = %v, want ErrInvalidCommand", cmd, err)
		}
	}
}

func testNotFound(t *testing.T, s *suite) {
	r, scratch := s.runner(t)
	_, err := r.Run(deadline(t), executor.Command{Path: "no-such-program-skillkit", Env: map[string]string{"PATH": scratch}})
	if err == nil {
		t.Errorf("running a program that does not exist succeeded")
	}
}

func testUnreadStdin(t *testing.T, s *suite) {
	r, _ := s.runner(t)
	cmd := s.script("echo ignored")
	cmd.Stdin = bytes.Repeat([]byte("x"), 4<<20) // far more than a pipe buffer
	start := time.Now()
	res := run(t, r, cmd)
	if res.ExitCode != 0 || string(res.Stdout) != "ignored\n" {
		t.Errorf("got exit %d stdout %q", res.ExitCode, res.Stdout)
	}
	if d := time.Since(start); d > slack {
		t.Errorf("Run took %v: unread input made it wait", d)
	}
}

func testConcurrent(t *testing.T, s *suite) {
	r, _ := s.runner(t)
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Go(func() {
			cmd := s.script("cat; echo \" $MARK\"")
			cmd.Stdin = fmt.Appendf(nil, "input-%d", i)
			cmd.Env["MARK"] = fmt.Sprint(i)
			res, err := r.Run(deadline(t), cmd)
			if want := fmt.Sprintf("input-%d %d\n", i, i); err != nil || string(res.Stdout) != want {
				t.Errorf("run %d: got %q, %v; want %q", i, res.Stdout, err, want)
			}
		})
	}
	wg.Wait()
}

func testNoStdin(t *testing.T, s *suite) {
	r, _ := s.runner(t)
	res := run(t, r, s.script(`cat; echo "read: $?"`))
	if string(res.Stdout) != "read: 0\n" || len(res.Stderr) != 0 {
		t.Errorf("with nil Stdin: stdout %q stderr %q, want an empty, readable input", res.Stdout, res.Stderr)
	}
}

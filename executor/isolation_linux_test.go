package executor_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/skillkit-go/skillkit/executor"
	"github.com/skillkit-go/skillkit/skill"
)

// TestNothingOutlivesRun runs a skill that starts a sleep in a new session
// and a double-forked one, and checks that neither runs once Execute
// returned: by pid, and by a marker on their command lines (pids in the
// sandbox are its own). Without namespaces (IsolateOff) the one in a new
// session survives, which shows that the test can tell; the double-forked
// one stays in the process group there, whose kill takes effect moments
// after Run returns, so the control does not look at it.
func TestNothingOutlivesRun(t *testing.T) {
	needPrograms(t, "bash", "setsid")
	for _, tc := range []struct {
		name     string
		runner   func(t *testing.T, scratch string) executor.Runner
		hostPids bool // the skill sees the host's pids
		control  bool // the setsid'd sleep must survive
	}{
		{"default", func(_ *testing.T, scratch string) executor.Runner {
			return workIn(&executor.LocalRunner{}, scratch)
		}, false, false},
		{"sandbox", func(t *testing.T, scratch string) executor.Runner {
			return newSandbox(t, &executor.SandboxOptions{Writable: []string{scratch}})
		}, false, false},
		{"control: no namespaces", func(*testing.T, string) executor.Runner {
			return &executor.LocalRunner{Isolation: executor.IsolateOff}
		}, true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			scratch := t.TempDir()
			e, _ := newExecutor(t, &executor.Options{Runner: tc.runner(t, scratch)})
			marker := "299." + strings.TrimLeft(fmt.Sprint(time.Now().UnixNano()), "0")
			t.Cleanup(func() {
				for _, pid := range processesWithArg(t, marker) {
					_ = syscall.Kill(pid, syscall.SIGKILL)
				}
			})
			out, err := execute(t, e, "bash-escape", fmt.Sprintf(`{"marker":%q,"pid_dir":%q}`, marker, scratch))
			if err != nil || string(out.Output) != `{"ok":true}` {
				t.Fatalf("bash-escape: %+v, %v", out, err)
			}
			// Both started before the skill returned, and are checked at once.
			setsid, forked := readPid(t, filepath.Join(scratch, "setsid")), readPid(t, filepath.Join(scratch, "forked"))
			left := processesWithArg(t, marker)
			switch {
			case tc.control:
				if processGone(setsid) || !slices.Contains(left, setsid) {
					t.Errorf("without namespaces the setsid'd sleep (pid %d) should survive; running: %v", setsid, left)
				}
			case len(left) > 0:
				t.Errorf("processes running \"sleep %s\" after the run: %v", marker, left)
			case tc.hostPids && (!processGone(setsid) || !processGone(forked)):
				t.Errorf("after the run: the setsid'd sleep (pid %d) gone: %v; the double-forked one (pid %d): %v",
					setsid, processGone(setsid), forked, processGone(forked))
			}
		})
	}
}

// snoopHostEnv, set in the environment of the test binary, makes it a host
// that runs the py-snoop skill instead of the tests (see TestMain).
const snoopHostEnv = "SKILLKIT_TEST_SNOOP_HOST"

// The variables a snooping skill looks for in the host.
const (
	sentinelVar = "SKILLKIT_TEST_SENTINEL"
	keyVar      = "SKILL_SECRET_KEY"
)

func TestMain(m *testing.M) {
	if mode := os.Getenv(snoopHostEnv); mode != "" {
		os.Exit(snoopHost(mode))
	}
	os.Exit(m.Run())
}

// snoopHost is a host with a secret key and a sentinel in its environment
// from its start (os.Setenv would not reach /proc/PID/environ, which shows
// the environment a process started with): it runs the py-snoop skill
// through Executor.Execute with the runner mode names and prints the
// outcome as JSON.
func snoopHost(mode string) int {
	ctx, cancel := context.WithTimeout(context.Background(), processDeadline)
	defer cancel()
	fail := func(err error) int {
		fmt.Fprintln(os.Stderr, "snoop host:", err)
		return 2
	}
	var opts *executor.Options // "default": what a host gets without options
	switch mode {
	case "default":
	case "non-dumpable":
		if err := executor.ProtectHost(); err != nil {
			return fail(err)
		}
		opts = &executor.Options{Runner: &executor.LocalRunner{Isolation: executor.IsolateOff}}
	case "no isolation":
		opts = &executor.Options{Runner: &executor.LocalRunner{Isolation: executor.IsolateOff}}
	case "sandbox":
		r, err := executor.NewSandboxRunner(ctx, nil)
		if err != nil {
			return fail(err)
		}
		opts = &executor.Options{Runner: r}
	default:
		return fail(fmt.Errorf("unknown mode %q", mode))
	}
	root, err := filepath.Abs("testdata/skills")
	if err != nil {
		return fail(err)
	}
	s, diags := skill.Load(os.DirFS(root), "py-snoop", &skill.LoadOptions{DiskRoot: root})
	if s == nil {
		return fail(fmt.Errorf("py-snoop does not load: %v", diags))
	}
	input, _ := json.Marshal(map[string]any{"host_pid": os.Getpid(), "names": []string{sentinelVar, keyVar}})
	out, err := executor.New(skillMap{s.Name: s}, nil, opts).Execute(ctx, s.Name, input)
	if err != nil {
		return fail(err)
	}
	_, err = os.Stdout.Write(out.Output)
	if err != nil {
		return fail(err)
	}
	return 0
}

// snoopResult is what the py-snoop skill read in a snoop host, and the
// secrets that host held.
type snoopResult struct {
	raw           []byte         // the skill's output
	reads         map[string]any // what it tried, and what it got
	sentinel, key string
}

// leaked reports whether the skill's output holds either secret.
func (r snoopResult) leaked() bool {
	return bytes.Contains(r.raw, []byte(r.sentinel)) || bytes.Contains(r.raw, []byte(r.key))
}

// snoop runs the test binary as a snoop host in mode, with a random key
// and sentinel in its environment, as the user uid (-1: this one).
func snoop(t *testing.T, mode string, uid int) snoopResult {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	r := snoopResult{sentinel: "sentinel-" + rand.Text(), key: rand.Text()}
	cmd := exec.CommandContext(deadline(t), exe)
	cmd.Env = []string{snoopHostEnv + "=" + mode, sentinelVar + "=" + r.sentinel, keyVar + "=" + r.key, "PATH=/usr/bin:/bin"}
	if uid >= 0 {
		// Another user must be able to run the binary: a copy in a folder
		// everyone may enter.
		dir := t.TempDir()
		for _, d := range []string{dir, filepath.Dir(dir)} {
			if err := os.Chmod(d, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		cmd.Path = filepath.Join(dir, "snoop-host")
		copyFile(t, exe, cmd.Path)
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(uid), Gid: uint32(uid)}}
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if r.raw, err = cmd.Output(); err != nil {
		t.Fatalf("snoop host (%s): %v\n%s", mode, err, stderr.Bytes())
	}
	var out struct{ Reads map[string]any }
	if err := json.Unmarshal(r.raw, &out); err != nil || len(out.Reads) == 0 {
		t.Fatalf("the skill's output %q: %v", r.raw, err)
	}
	r.reads = out.Reads
	return r
}

// TestSkillCannotReadHost runs, through Executor.Execute, a skill that reads
// /proc/PID/environ, cmdline and mem of its parent and of the host, and
// the environ of every process it can see, in a host whose environment holds
// a secret key and a sentinel from its start. Under default settings, in the
// sandbox, and without namespaces but with the host non-dumpable, the skill
// gets neither. Without any of these it gets both, which shows that the test
// can tell.
func TestSkillCannotReadHost(t *testing.T) {
	needPrograms(t, "python3")
	// A non-dumpable host is protected from processes of its user without
	// CAP_SYS_PTRACE: as root, the host runs as nobody.
	dumpableUID := -1
	if os.Geteuid() == 0 {
		dumpableUID = 65534
	}
	for _, tc := range []struct {
		mode string
		uid  int
		leak bool
	}{
		{"default", -1, false},
		{"sandbox", -1, false},
		{"non-dumpable", dumpableUID, false},
		{"no isolation", -1, true},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			if tc.mode == "sandbox" {
				newSandbox(t, nil)
			}
			r := snoop(t, tc.mode, tc.uid)
			if r.leaked() != tc.leak {
				t.Errorf("the skill read a secret of the host: %v, want %v; it read:\n%s", r.leaked(), tc.leak, r.raw)
			}
			if tc.leak && !strings.Contains(fmt.Sprint(r.reads["host environ"]), r.sentinel) {
				t.Errorf("without isolation the skill should read the host's environment, got %v", r.reads["host environ"])
			}
			if !tc.leak {
				t.Logf("%s: host environ: %.80v; host mem: %.80v", tc.mode, r.reads["host environ"], r.reads["host mem"])
			}
		})
	}
}
func copyFile(t *testing.T, src, dst string) {
	t.Helper()
	in, err := os.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_EXCL, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}

// Where the kernel refuses the namespaces, IsolateAuto runs the command
// without them and warns once; IsolateRequired runs nothing; a program that
// cannot start at all reports its own error, without a warning.
func TestLocalRunnerWithoutNamespaces(t *testing.T) {
	needPrograms(t, "bash")
	var log bytes.Buffer
	r := &executor.LocalRunner{Logger: slog.New(slog.NewTextHandler(&log, nil))}
	executor.RefuseNamespaces(r)
	for range 2 {
		res, err := r.Run(deadline(t), bashCommand(t, "echo ran"))
		if err != nil || string(res.Stdout) != "ran\n" {
			t.Fatalf("got %+v, %v; want the command run without namespaces", res, err)
		}
	}
	if n := strings.Count(log.String(), "less confinement than asked"); n != 1 || !strings.Contains(log.String(), "level=WARN") {
		t.Errorf("want one warning, got %d:\n%s", n, log.String())
	}

	marker := filepath.Join(t.TempDir(), "ran")
	required := &executor.LocalRunner{Isolation: executor.IsolateRequired}
	executor.RefuseNamespaces(required)
	_, err := required.Run(deadline(t), bashCommand(t, "touch "+marker))
	if !errors.Is(err, executor.ErrNoIsolation) || !errors.Is(err, syscall.EINVAL) {
		t.Errorf("IsolateRequired: err = %v, want ErrNoIsolation wrapping the kernel's EINVAL", err)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("IsolateRequired ran the command without its namespaces")
	}

	log.Reset()
	quiet := &executor.LocalRunner{Logger: slog.New(slog.NewTextHandler(&log, nil))}
	notExecutable := filepath.Join(t.TempDir(), "script")
	if err := os.WriteFile(notExecutable, []byte("#!/bin/sh\necho no\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := quiet.Run(deadline(t), executor.Command{Path: notExecutable}); !errors.Is(err, os.ErrPermission) {
		t.Errorf("a program that cannot start: err = %v, want permission denied", err)
	}
	if log.Len() > 0 {
		t.Errorf("a program that cannot start made the runner warn about namespaces:\n%s", log.String())
	}
}

// Without namespaces no PID namespace ends what the program leaves
// behind: the process group the program leads must, after the program
// ends and at the timeout.
func TestLocalRunnerWithoutNamespacesKillsGrandchild(t *testing.T) {
	needPrograms(t, "bash")
	r := &executor.LocalRunner{WaitDelay: time.Hour}
	executor.RefuseNamespaces(r)
	// Without a view of its own, nobody (on a root host) must be able to
	// walk to the work folders.
	newWork := func() string {
		dir := t.TempDir()
		os.Chmod(filepath.Dir(dir), 0o755)
		return filepath.Join(dir, "pid")
	}
	pidFile := newWork()
	cmd := bashCommand(t, fmt.Sprintf(`%s & while [ ! -s %q ]; do sleep 0.01; done; echo '{"ok":true}'`, sleeper(pidFile), pidFile))
	cmd.Confine = &executor.Confinement{Work: []string{filepath.Dir(pidFile)}}
	killPidIn(t, pidFile)
	res, err := runWithin(t, r, deadline(t), cmd)
	if err != nil || res.ExitCode != 0 {
		t.Fatalf("got %+v, %v", res, err)
	}
	waitGone(t, pidFile)

	pidFile = newWork()
	cmd = bashCommand(t, fmt.Sprintf(`%s & while [ ! -s %q ]; do sleep 0.01; done; echo started; wait`, sleeper(pidFile), pidFile))
	cmd.Confine = &executor.Confinement{Work: []string{filepath.Dir(pidFile)}}
	cmd.Timeout = 2 * time.Second
	killPidIn(t, pidFile)
	res, err = runWithin(t, r, deadline(t), cmd)
	if err != nil || !res.TimedOut {
		t.Fatalf("got %+v, %v; want a timeout", res, err)
	}
	waitGone(t, pidFile)
}

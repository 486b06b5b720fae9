package confine

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/skillkit-go/skillkit/internal/asuser"
	"golang.org/x/sys/unix"
)

// withoutNamespaces makes run take the path of a kernel without namespaces.
var withoutNamespaces bool

// run starts spec's program confined and returns its combined output and
// exit code.
func run(t *testing.T, spec Spec) (string, int) {
	t.Helper()
	if spec.System == nil {
		spec.System = DefaultSystemPaths()
	}
	spec.Env = append(spec.Env, "PATH=/usr/bin:/bin", "HOME="+ScratchHome, "TMPDIR="+ScratchDir)
	c, err := Prepare(context.Background(), spec)
	if err != nil {
		t.Fatal(err)
	}
	if withoutNamespaces {
		RefuseNamespaces(c)
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	c.Stdout, c.Stderr = w, w
	if err := c.Start(); err != nil {
		t.Fatalf("start: %v", err)
	}
	w.Close()
	var out bytes.Buffer
	copied := make(chan struct{})
	go func() { out.ReadFrom(r); close(copied) }()
	err = c.Wait()
	if c.Wait() == nil {
		t.Error("a second Wait did not fail")
	}
	<-copied
	r.Close()
	c.Close()
	if len(c.Reduced) > 0 && !withoutNamespaces {
		t.Errorf("confinement reduced on this kernel: %v", c.Reduced)
	}
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), code
}

// probe runs each check (a bash command) and returns which succeeded.
func probe(t *testing.T, spec Spec, checks map[string]string) map[string]bool {
	t.Helper()
	var script strings.Builder
	for name, cmd := range checks {
		fmt.Fprintf(&script, "if ( %s ) >/dev/null 2>&1; then echo 'OK %s'; else echo 'NO %s'; fi\n", cmd, name, name)
	}
	spec.Path, spec.Args = "/bin/bash", []string{"-c", script.String()}
	out, code := run(t, spec)
	if code != 0 {
		t.Fatalf("probe exited %d:\n%s", code, out)
	}
	got := map[string]bool{}
	for line := range strings.Lines(out) {
		if v, name, ok := strings.Cut(strings.TrimSpace(line), " "); ok && (v == "OK" || v == "NO") {
			got[name] = v == "OK"
		}
	}
	if len(got) != len(checks) {
		t.Fatalf("probe printed %d results for %d checks:\n%s", len(got), len(checks), out)
	}
	return got
}

func expect(t *testing.T, got map[string]bool, want bool, names ...string) {
	t.Helper()
	for _, n := range names {
		if got[n] != want {
			t.Errorf("%s: allowed=%v, want %v", n, got[n], want)
		}
	}
}

func writeFile(t *testing.T, path, content string, mode os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
}

// TestFiles: the program reads the system, its folder and its grants,
// writes its scratch space and its write grants, and nothing else: not the
// user's home, not a sibling skill, not a file outside every hidden place.
func TestFiles(t *testing.T) {
	asuser.Again(t)
	root := t.TempDir()
	home := filepath.Join(root, "home")
	t.Setenv("HOME", home)
	writeFile(t, filepath.Join(home, ".ssh/id_ed25519"), "KEY", 0o600)
	skills := filepath.Join(root, "skills")
	own := filepath.Join(skills, "probe")
	writeFile(t, filepath.Join(own, "SKILL.md"), "own", 0o644)
	writeFile(t, filepath.Join(own, "locked"), "locked", 0o000)
	writeFile(t, filepath.Join(skills, "other/scripts/run.sh"), "echo other", 0o755)
	data := filepath.Join(root, "data")
	writeFile(t, filepath.Join(data, "in.txt"), "in", 0o644)
	out := filepath.Join(root, "out")
	if err := os.MkdirAll(out, 0o777); err != nil {
		t.Fatal(err)
	}
	os.Chmod(out, 0o777)
	// A session's socket (an SSH agent's, say): connecting to it is no file
	// access, so Landlock alone would not stop it.
	agent, err := net.Listen("unix", filepath.Join(home, "agent.sock"))
	if err != nil {
		t.Fatal(err)
	}
	defer agent.Close()
	os.Chmod(filepath.Join(home, "agent.sock"), 0o777)
	checks := map[string]string{
		"agent-socket":    "python3 -c 'import socket,sys; s=socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])' " + filepath.Join(home, "agent.sock"),
		"read-own":        "cat SKILL.md",
		"read-system":     "cat /etc/passwd",
		"read-grant":      "cat " + data + "/in.txt",
		"write-scratch":   "echo x > /tmp/x && cat /tmp/x",
		"write-home":      "echo x > ~/x && cat ~/x",
		"write-grant":     "echo x > " + out + "/new",
		"read-ssh":        "cat " + home + "/.ssh/id_ed25519",
		"list-home":       "ls " + home + "/.ssh",
		"read-sibling":    "cat " + skills + "/other/scripts/run.sh",
		"write-sibling":   "echo evil > " + skills + "/other/scripts/run.sh",
		"write-own":       "echo x > SKILL.md",
		"create-own":      "echo x > new",
		"read-locked":     "cat locked",
		"write-bin":       "echo x > /usr/bin/skillkit-probe",
		"write-proc-sys":  "echo 10 > /proc/sys/kernel/printk_ratelimit",
		"read-proc-host":  "test $(ls -d /proc/[0-9]* | wc -l) -gt 5",
		"read-shadow":     "cat /etc/shadow",
		"root-capability": "grep -q 'CapEff:.*[1-9a-f]' /proc/self/status",
		"helper-files":    "test $(ls /proc/self/fd | wc -l) -gt 4",
	}
	// A place outside every hidden folder, guarded by Landlock alone: the
	// package's folder, where the root run can write.
	if outside, err := os.MkdirTemp(".", ".probe-"); err == nil {
		t.Cleanup(func() { os.RemoveAll(outside) })
		outside, _ = filepath.Abs(outside)
		os.Chmod(outside, 0o755)
		writeFile(t, filepath.Join(outside, "secret"), "secret", 0o644)
		checks["read-outside"] = "cat " + outside + "/secret"
		checks["write-outside"] = "echo x > " + outside + "/secret"
	} else if !asuser.Unprivileged() {
		t.Fatalf("no folder outside the hidden ones: %v", err)
	}
	got := probe(t, Spec{Dir: own, Read: []string{data}, Write: []string{out}}, checks)
	if _, ok := checks["read-outside"]; ok {
		expect(t, got, false, "read-outside", "write-outside")
	}
	expect(t, got, true, "read-own", "read-system", "read-grant", "write-scratch", "write-home", "write-grant")
	expect(t, got, false, "agent-socket", "read-ssh", "list-home", "read-sibling", "write-sibling", "write-own", "create-own",
		"read-locked", "write-bin", "write-proc-sys", "read-proc-host",
		"read-shadow", "root-capability", "helper-files")
	if b, _ := os.ReadFile(filepath.Join(skills, "other/scripts/run.sh")); string(b) != "echo other" {
		t.Errorf("the sibling skill was changed: %q", b)
	}
}

// TestNetwork: no network by default, not even the host's loopback; all
// of it with Network.All.
func TestNetwork(t *testing.T) {
	asuser.Again(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	port := ln.Addr().(*net.TCPAddr).Port
	checks := map[string]string{
		"host-loopback": fmt.Sprintf("exec 3<>/dev/tcp/127.0.0.1/%d", port),
		"own-loopback":  "python3 -c 'import socket; s=socket.socket(); s.bind((\"127.0.0.1\",0)); s.listen(); c=socket.create_connection(s.getsockname())'",
	}
	got := probe(t, Spec{Dir: t.TempDir()}, checks)
	expect(t, got, false, "host-loopback")
	expect(t, got, true, "own-loopback")
	got = probe(t, Spec{Dir: t.TempDir(), Network: Network{All: true}}, checks)
	expect(t, got, true, "host-loopback")
}

// TestNetworkHosts: with a list, the program reaches the listed hosts
// through the proxy and nothing else, neither another name nor the host's
// loopback directly.
func TestNetworkHosts(t *testing.T) {
	asuser.Again(t)
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "hello from %s", r.Host)
	})}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	defer srv.Close()
	port := ln.Addr().(*net.TCPAddr).Port
	allow := func(host string, p int) bool { return host == "api.localhost" && p == port }
	p := strconv.Itoa(port)
	got := probe(t, Spec{Dir: t.TempDir(), Network: Network{Allow: allow}}, map[string]string{
		"allowed":    "curl -sf http://api.localhost:" + p + "/ | grep -q 'hello from api.localhost'",
		"other-name": "curl -sf http://other.localhost:" + p + "/",
		"direct":     "curl -sf --noproxy '*' http://127.0.0.1:" + p + "/",
		"raw":        "exec 3<>/dev/tcp/127.0.0.1/" + p,
	})
	expect(t, got, true, "allowed")
	expect(t, got, false, "other-name", "direct", "raw")
}

// TestSyscalls: the seccomp filter refuses what no skill needs.
func TestSyscalls(t *testing.T) {
	asuser.Again(t)
	got := probe(t, Spec{Dir: t.TempDir()}, map[string]string{
		"unshare": "unshare -U true",
		"mount":   "unshare -m true",
		"ptrace":  "python3 -c 'import ctypes,sys; sys.exit(0 if ctypes.CDLL(None).ptrace(0,0,0,0)==0 else 1)'",
		"plain":   "true",
	})
	expect(t, got, false, "unshare", "mount", "ptrace")
	expect(t, got, true, "plain")
}

// TestLimits: processes, file size and scratch space are bounded.
func TestLimits(t *testing.T) {
	asuser.Again(t)
	got := probe(t, Spec{Dir: t.TempDir(), Limits: Limits{Processes: 32, FileSize: 1 << 20, Scratch: 4 << 20}}, map[string]string{
		"600-processes": forks(600),
		"10-processes":  forks(10),
		"2MB-file":      "head -c 2000000 /dev/zero > /tmp/big; r=$?; rm -f /tmp/big; exit $r",
		"small-file":    "head -c 500000 /dev/zero > /tmp/small; r=$?; rm -f /tmp/small; exit $r",
		"8MB-scratch":   "for i in 1 2 3 4 5 6 7 8 9; do head -c 900000 /dev/zero > /tmp/f$i || break; done; r=$?; ls /tmp/f9; r=$?; rm -f /tmp/f*; exit $r",
	})
	expect(t, got, false, "600-processes", "2MB-file", "8MB-scratch")
	expect(t, got, true, "10-processes", "small-file")
}

// forks is a check that keeps n processes alive at once, without the
// retries a shell makes when fork fails.
func forks(n int) string {
	return fmt.Sprintf(`python3 -c '
import os, sys, time
pids = []
for i in range(%d):
    try:
        pid = os.fork()
    except OSError:
        break
    if pid == 0:
        time.sleep(5)
        os._exit(0)
    pids.append(pid)
for pid in pids:
    os.kill(pid, 9)
    os.waitpid(pid, 0)
sys.exit(0 if len(pids) == %d else 1)'`, n, n)
}

// TestWithoutNamespaces: where the kernel refuses namespaces, Landlock,
// seccomp and the limits still keep the program to its grants and off the
// network.
func TestWithoutNamespaces(t *testing.T) {
	asuser.Again(t)
	withoutNamespaces = true
	defer func() { withoutNamespaces = false }()
	root := t.TempDir()
	// Without a view of its own, nobody (on a root host) must be able to
	// walk to the skill.
	os.Chmod(filepath.Dir(root), 0o755)
	os.Chmod(root, 0o755)
	own := filepath.Join(root, "skills/probe")
	writeFile(t, filepath.Join(own, "SKILL.md"), "own", 0o644)
	writeFile(t, filepath.Join(root, "skills/other/run.sh"), "echo other", 0o755)
	writeFile(t, filepath.Join(root, "home/.ssh/id"), "KEY", 0o644)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	// Without a user namespace of its own, the program shares its user's
	// process count with every process of that user on the machine (other
	// tests' too): the limit is what they hold and a margin.
	uid := os.Geteuid()
	if uid == 0 {
		uid = unprivilegedID
	}
	got := probe(t, Spec{Dir: own, Limits: Limits{Processes: tasksOf(uid) + 40}}, map[string]string{
		"read-own":      "cat SKILL.md",
		"read-ssh":      "cat " + root + "/home/.ssh/id",
		"write-sibling": "echo x > " + root + "/skills/other/run.sh",
		"loopback":      fmt.Sprintf("exec 3<>/dev/tcp/127.0.0.1/%d", ln.Addr().(*net.TCPAddr).Port),
		"udp":           "python3 -c 'import socket; socket.socket(socket.AF_INET, socket.SOCK_DGRAM)'",
		"600-processes": forks(600),
	})
	expect(t, got, true, "read-own")
	expect(t, got, false, "read-ssh", "write-sibling", "loopback", "udp", "600-processes")
}

// tasksOf counts the processes and threads whose real user is uid, as
// RLIMIT_NPROC does.
func tasksOf(uid int) int {
	entries, _ := os.ReadDir("/proc")
	n := 0
	for _, e := range entries {
		status, err := os.ReadFile(filepath.Join("/proc", e.Name(), "status"))
		if err != nil {
			continue
		}
		var real, threads int
		for line := range strings.Lines(string(status)) {
			fmt.Sscanf(line, "Uid:\t%d", &real)
			fmt.Sscanf(line, "Threads:\t%d", &threads)
		}
		if real == uid {
			n += threads
		}
	}
	return n
}

// TestStartError: a program that cannot start makes Start fail with the
// kernel's reason, as os/exec does.
func TestStartError(t *testing.T) {
	dir := t.TempDir()
	os.Chmod(dir, 0o755)
	script := filepath.Join(dir, "script")
	writeFile(t, script, "#!/bin/sh\necho no\n", 0o644)
	c, err := Prepare(context.Background(), Spec{Path: script, Dir: dir, System: DefaultSystemPaths()})
	if err != nil {
		t.Fatal(err)
	}
	err = c.Start()
	if !errors.Is(err, os.ErrPermission) {
		t.Fatalf("Start = %v, want permission denied", err)
	}
}

// TestWork: a work folder is the program's to change for the run, on a
// root host too, and what it made there belongs to the folder's owner
// after it.
func TestWork(t *testing.T) {
	asuser.Again(t)
	work := filepath.Join(t.TempDir(), "staging")
	writeFile(t, filepath.Join(work, "old/file"), "old", 0o644)
	got := probe(t, Spec{Dir: work, Work: []string{work}}, map[string]string{
		"create": "mkdir new && echo x > new/file",
		"change": "echo y >> old/file",
	})
	expect(t, got, true, "create", "change")
	filepath.WalkDir(work, func(p string, _ os.DirEntry, err error) error {
		var st unix.Stat_t
		if err := unix.Lstat(p, &st); err != nil {
			t.Fatal(err)
		}
		if int(st.Uid) != os.Geteuid() {
			t.Errorf("%s belongs to %d after the run, want %d", p, st.Uid, os.Geteuid())
		}
		return nil
	})
}

// TestLimitsPerProgram: each program counts its own processes. A program
// holding many does not keep another from starting its few, on a root host
// too, where every program runs as nobody.
func TestLimitsPerProgram(t *testing.T) {
	asuser.Again(t)
	dir := t.TempDir()
	os.Chmod(dir, 0o755)
	busy, err := Prepare(context.Background(), Spec{Path: "/usr/bin/python3", Dir: dir, System: DefaultSystemPaths(),
		Args: []string{"-c", `
import os, sys, time
for i in range(40):
    if os.fork() == 0:
        time.sleep(30)
        os._exit(0)
print("ready", flush=True)
time.sleep(30)`}, Limits: Limits{Processes: 64}})
	if err != nil {
		t.Fatal(err)
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	busy.Stdout = w
	if err := busy.Start(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	defer func() {
		syscall.Kill(-busy.Process.Pid, syscall.SIGKILL)
		busy.Wait()
		busy.Close()
	}()
	line := make([]byte, 6)
	if _, err := io.ReadFull(r, line); err != nil || string(line) != "ready\n" {
		t.Fatalf("the busy program did not start its processes: %q, %v", line, err)
	}
	got := probe(t, Spec{Dir: dir, Limits: Limits{Processes: 16}}, map[string]string{"8-processes": forks(8)})
	expect(t, got, true, "8-processes")
}

// TestZygoteNotDumpable: the zygote, through which every program's
// environment passes, is not open to other processes of the host's user,
// from its start and after a program started.
func TestZygoteNotDumpable(t *testing.T) {
	asuser.Again(t)
	// A new zygote, asked something it refuses: no program has started.
	zygote.Lock()
	if zygote.conn != nil {
		zygote.conn.Close()
		zygote.conn = nil
	}
	zygote.Unlock()
	if resp, err := askZygote(request{}, nil); err != nil || resp.Failed == "" {
		t.Fatalf("a request without files: %+v, %v", resp, err)
	}
	checkZygote(t)
	if out, code := run(t, Spec{Path: "/bin/true", Dir: "/"}); code != 0 {
		t.Fatalf("start: %d %s", code, out)
	}
	checkZygote(t)
}

func checkZygote(t *testing.T) {
	t.Helper()
	entries, _ := os.ReadDir("/proc")
	found := false
	for _, e := range entries {
		cmdline, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		status, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "status"))
		if !strings.HasPrefix(string(cmdline), "skillkit-confine-zygote\x00") ||
			!strings.Contains(string(status), fmt.Sprintf("\nPPid:\t%d\n", os.Getpid())) ||
			strings.Contains(string(status), "\nState:\tZ") {
			continue
		}
		found = true
		var st unix.Stat_t
		if err := unix.Stat(filepath.Join("/proc", e.Name(), "environ"), &st); err != nil {
			t.Fatal(err)
		}
		if st.Uid != 0 {
			t.Errorf("the zygote's environ belongs to %d: the zygote is dumpable", st.Uid)
		}
	}
	if !found {
		t.Fatal("no zygote among this process's children")
	}
}

// TestFailedChildLeavesZygoteNotDumpable: a child that fails while the
// memory it shares with the zygote is dumpable (writing its ID maps) leaves
// it not dumpable.
func TestFailedChildLeavesZygoteNotDumpable(t *testing.T) {
	if err := unix.Prctl(unix.PR_SET_DUMPABLE, 1, 0, 0, 0); err != nil {
		t.Fatal(err)
	}
	defer unix.Prctl(unix.PR_SET_DUMPABLE, 1, 0, 0, 0)
	null, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	// A map of a user that is not this process's: the kernel refuses it.
	raw, _ := json.Marshal(request{Spec: Spec{Path: "/bin/true", Dir: "/", Namespaces: true, UID: os.Geteuid() + 4242, GID: os.Getegid() + 4242}})
	fd := int(null.Fd())
	resp := launch(raw, []int{fd, fd, fd})
	if !strings.HasPrefix(resp.Failed, "user namespace") {
		t.Fatalf("launch = %+v, want the ID maps refused", resp)
	}
	if v, _ := unix.PrctlRetInt(unix.PR_GET_DUMPABLE, 0, 0, 0, 0); v != 0 {
		t.Error("the failed child left the zygote dumpable")
	}
}

// TestEachProgramItsOwnNetwork: two programs without a network do not
// share one: what one listens on, the other cannot reach, and each has
// its own loopback. Several rounds, one after the other.
func TestEachProgramItsOwnNetwork(t *testing.T) {
	asuser.Again(t)
	dir := t.TempDir()
	os.Chmod(dir, 0o755)
	for round := range 4 {
		listener, err := Prepare(context.Background(), Spec{Path: "/usr/bin/python3", Dir: dir, System: DefaultSystemPaths(),
			Args: []string{"-c", `
import socket, sys, time
s = socket.socket(); s.bind(("127.0.0.1", 4444)); s.listen(1)
print("listening", flush=True)
time.sleep(20)`}})
		if err != nil {
			t.Fatal(err)
		}
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		listener.Stdout = w
		if err := listener.Start(); err != nil {
			t.Fatal(err)
		}
		w.Close()
		line := make([]byte, 10)
		if _, err := io.ReadFull(r, line); err != nil || string(line) != "listening\n" {
			t.Fatalf("round %d: the listener did not start: %q %v", round, line, err)
		}
		got := probe(t, Spec{Dir: dir}, map[string]string{
			"other-program": "exec 3<>/dev/tcp/127.0.0.1/4444",
			"own-loopback":  "python3 -c 'import socket; s=socket.socket(); s.bind((\"127.0.0.1\", 4444)); s.listen(1); c=socket.create_connection((\"127.0.0.1\", 4444))'",
		})
		expect(t, got, false, "other-program")
		expect(t, got, true, "own-loopback")
		syscall.Kill(-listener.Process.Pid, syscall.SIGKILL)
		listener.Wait()
		listener.Close()
		r.Close()
	}
}

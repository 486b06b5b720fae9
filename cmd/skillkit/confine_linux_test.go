package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/skillkit-go/skillkit/internal/asuser"
)

// probeSkill writes a compute skill that runs each check (a bash command)
// and prints which succeeded, as one JSON object.
func probeSkill(t *testing.T, dir, permissions string, checks map[string]string) {
	t.Helper()
	names := make([]string, 0, len(checks))
	for n := range checks {
		names = append(names, n)
	}
	sort.Strings(names)
	var script strings.Builder
	script.WriteString("cat >/dev/null\nsep=''\nprintf '{'\n")
	for _, n := range names {
		fmt.Fprintf(&script, "if ( %s ) >/dev/null 2>&1; then r=true; else r=false; fi\nprintf '%%s\"%s\":%%s' \"$sep\" $r; sep=,\n", checks[n], n)
	}
	script.WriteString("printf '}\\n'\n")
	files := map[string]string{
		"SKILL.md":          "---\nname: probe\ndescription: Probes what it can reach. Use in tests.\n---\nRun it.\n",
		"skill.config.yaml": "runtime: bash\nentrypoint: run.sh\n" + permissions,
		"run.sh":            script.String(),
	}
	for name, content := range files {
		if err := os.MkdirAll(filepath.Join(dir, "probe"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "probe", name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// runProbe runs "skillkit run probe" as a separate process, with no option
// set, and returns what each check did.
func runProbe(t *testing.T, dir, home string, flags ...string) map[string]bool {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, exe, append([]string{"--dir", dir, "run", "probe"}, flags...)...)
	cmd.Env = []string{runMainEnv + "=1", "PATH=" + os.Getenv("PATH"), "HOME=" + home, "SKILL_SECRET_KEY=" + strings.Repeat("k", 43)}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("skillkit run probe: %v\n%s", err, stderr.String())
	}
	var got map[string]bool
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("the probe's output %q: %v\n%s", out, err, stderr.String())
	}
	return got
}

func want(t *testing.T, got map[string]bool, allowed bool, names ...string) {
	t.Helper()
	for _, n := range names {
		if v, ok := got[n]; !ok || v != allowed {
			t.Errorf("%s: allowed=%v (reported %v), want %v", n, v, ok, allowed)
		}
	}
}

// TestRunConfinesASkill: a skill placed by hand and run by "skillkit run"
// with no option reads and writes nothing of the user's, of other skills
// or of skillkit's, reaches no network, holds no privilege and cannot keep
// 600 processes alive.
func TestRunConfinesASkill(t *testing.T) {
	asuser.Again(t)
	root := t.TempDir()
	home := filepath.Join(root, "home")
	project := filepath.Join(root, "project")
	dir := filepath.Join(project, "skills")
	for p, content := range map[string]string{
		filepath.Join(home, ".ssh/id_ed25519"):        "PRIVATE KEY",
		filepath.Join(home, ".aws/credentials"):       "[default]\naws_secret_access_key=x",
		filepath.Join(home, ".bashrc"):                "# rc",
		filepath.Join(project, ".env"):                "TOKEN=x",
		filepath.Join(dir, "other/SKILL.md"):          "---\nname: other\ndescription: Another skill. Use in tests.\n---\nx\n",
		filepath.Join(dir, "other/scripts/run.sh"):    "echo other",
		filepath.Join(dir, ".skillhub/secrets/x.enc"): "sealed",
	} {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
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
	probeSkill(t, dir, "", map[string]string{
		"read-ssh":      "cat " + home + "/.ssh/id_ed25519",
		"read-aws":      "cat " + home + "/.aws/credentials",
		"read-env":      "cat " + project + "/.env",
		"read-other":    "cat " + dir + "/other/scripts/run.sh",
		"read-registry": "ls " + dir + "/.skillhub",
		"write-other":   "echo evil >> " + dir + "/other/scripts/run.sh",
		"write-bashrc":  "echo evil >> " + home + "/.bashrc",
		"write-own":     "echo x > run.sh.new",
		"write-scratch": "echo x > /tmp/x && echo x > \"$HOME/x\"",
		"loopback":      "exec 3<>/dev/tcp/127.0.0.1/" + strconv.Itoa(port),
		"locked":        "cat locked",
		"proc-sys":      "echo 10 > /proc/sys/kernel/printk_ratelimit",
		"600-processes": "for i in $(seq 600); do sleep 5 & done 2>/dev/null; test $(jobs -p | wc -l) -ge 600",
		"read-own":      "cat SKILL.md",
	})
	locked := filepath.Join(dir, "probe/locked")
	if err := os.WriteFile(locked, []byte("locked"), 0o000); err != nil {
		t.Fatal(err)
	}
	got := runProbe(t, dir, home)
	want(t, got, true, "read-own", "write-scratch")
	want(t, got, false, "read-ssh", "read-aws", "read-env", "read-other", "read-registry", "write-other",
		"write-bashrc", "write-own", "loopback", "locked", "proc-sys", "600-processes")
	if b, _ := os.ReadFile(filepath.Join(dir, "other/scripts/run.sh")); string(b) != "echo other" {
		t.Errorf("another skill's script was changed: %q", b)
	}
}

// TestRunNetworkPermissions: "network: true" reaches the host's loopback;
// a list reaches its hosts through the proxy and no other, tried against
// two local names.
func TestRunNetworkPermissions(t *testing.T) {
	asuser.Again(t)
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "hello %s", r.Host)
	})}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	defer srv.Close()
	port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	checks := map[string]string{
		"api":    "curl -sf http://api.localhost:" + port + "/ | grep -q 'hello api.localhost'",
		"other":  "curl -sf http://other.localhost:" + port + "/",
		"direct": "exec 3<>/dev/tcp/127.0.0.1/" + port,
	}
	for _, tc := range []struct {
		permissions string
		allowed     []string
		refused     []string
	}{
		{"permissions:\n  network: true\n", []string{"direct"}, nil},
		{"permissions:\n  network: [\"api.localhost:" + port + "\"]\n", []string{"api"}, []string{"other", "direct"}},
	} {
		dir := filepath.Join(t.TempDir(), "skills")
		probeSkill(t, dir, tc.permissions, checks)
		got := runProbe(t, dir, t.TempDir())
		want(t, got, true, tc.allowed...)
		want(t, got, false, tc.refused...)
	}
}

// TestRunSandbox: --sandbox runs the skill in bubblewrap, which keeps the
// same boundary: its folder readable, the user's files and the network not.
func TestRunSandbox(t *testing.T) {
	if _, err := exec.LookPath("bwrap"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("CI installs bubblewrap")
		}
		t.Skip("needs bwrap")
	}
	root := t.TempDir()
	home := filepath.Join(root, "home")
	if err := os.MkdirAll(filepath.Join(home, ".ssh"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".ssh/id"), []byte("KEY"), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(root, "skills")
	probeSkill(t, dir, "", map[string]string{
		"read-own": "cat SKILL.md",
		"read-ssh": "cat " + home + "/.ssh/id",
		"pid-1":    "test \"$(cat /proc/1/comm)\" != systemd -a ! -e /proc/" + strconv.Itoa(os.Getpid()),
	})
	got := runProbe(t, dir, home, "--sandbox")
	want(t, got, true, "read-own", "pid-1")
	want(t, got, false, "read-ssh")
}

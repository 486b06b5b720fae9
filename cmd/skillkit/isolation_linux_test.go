package main

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// runMainEnv makes the test binary act as the skillkit command, so a test
// can run it as a separate process, the host a newcomer starts.
const runMainEnv = "SKILLKIT_TEST_RUN_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(runMainEnv) == "1" {
		main()
	}
	if len(os.Args) > 1 && os.Args[1] == testMCPArg {
		serveTestMCP(os.Args[2:])
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestRunKeepsTheHostsSecrets runs "skillkit run" as a newcomer would, with
// no option set, on a skill that reads /proc/PID/environ, cmdline and mem of
// its parent and of the skillkit process, and the environ of every process
// it can see. The host's environment holds the vault key and a sentinel;
// the skill's output holds neither.
func TestRunKeepsTheHostsSecrets(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("python3 is not installed")
		}
		t.Skip("needs python3")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.CopyFS(filepath.Join(dir, "py-snoop"), os.DirFS("../../executor/testdata/skills/py-snoop")); err != nil {
		t.Fatal(err)
	}
	key, sentinel := rand.Text(), "sentinel-"+rand.Text()
	// exec keeps the shell's pid, so $$ is the pid of the skillkit process.
	script := `exec "$0" --dir "$1" run py-snoop --input "{\"host_pid\": $$, \"names\": [\"SKILLKIT_SENTINEL\", \"SKILL_SECRET_KEY\"]}"`
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "sh", "-c", script, exe, dir)
	cmd.Env = []string{runMainEnv + "=1", "SKILL_SECRET_KEY=" + key, "SKILLKIT_SENTINEL=" + sentinel,
		"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir()}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("skillkit run: %v\n%s", err, stderr.String())
	}
	if strings.Contains(string(out), sentinel) || strings.Contains(string(out), key) {
		t.Fatalf("the skill read a secret of the host:\n%s", out)
	}
	var got struct{ Reads map[string]any }
	if err := json.Unmarshal(out, &got); err != nil || len(got.Reads) != 7 {
		t.Fatalf("want the skill's seven reads, got %v:\n%s", err, out)
	}
	t.Logf("host environ: %.100v", got.Reads["host environ"])
}

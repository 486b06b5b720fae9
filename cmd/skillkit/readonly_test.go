package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillkit-go/skillkit/internal/asuser"
	"github.com/skillkit-go/skillkit/internal/fixture"
)

// readOnlyArgsEnv holds, in the helper process, the command line it runs,
// its arguments separated by newlines.
const readOnlyArgsEnv = "SKILLKIT_TEST_READONLY_ARGS"

// TestReadOnlyCLIHelper runs one command line in a process that may not
// write the skills folder, and fails when it does not exit 0.
func TestReadOnlyCLIHelper(t *testing.T) {
	args := os.Getenv(readOnlyArgsEnv)
	if args == "" {
		t.Skip("helper process only")
	}
	var stdout, stderr bytes.Buffer
	c := &cli{stdout: &stdout, stderr: &stderr, stdin: strings.NewReader(""), getenv: func(string) string { return "" }}
	if code := run(context.Background(), strings.Split(args, "\n"), c); code != exitOK {
		t.Fatalf("exit %d\n%s%s", code, stdout.String(), stderr.String())
	}
	t.Logf("stdout:\n%s", stdout.String())
}

// list, prompt, read and doctor work on a read-only copy of a skills
// folder that had installs: reading takes no lock and writes nothing.
func TestReadCommandsOnAReadOnlyFolder(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "skills")
	src := filepath.Join(t.TempDir(), "notes")
	writeSkillFile(t, filepath.Dir(src), "notes", "")
	for range 2 {
		if code, _, errOut := runCLI(t, "install", "--dir", dir, "--force", src); code != exitOK {
			t.Fatalf("install: %s", errOut)
		}
	}
	ro := filepath.Join(t.TempDir(), "copy")
	if err := os.CopyFS(ro, os.DirFS(dir)); err != nil {
		t.Fatal(err)
	}
	fixture.ReadOnly(t, ro)
	for _, args := range [][]string{{"list"}, {"prompt"}, {"read", "notes"}, {"doctor"}} {
		t.Run(args[0], func(t *testing.T) {
			cmd := asuser.Command(t, "-test.run=^TestReadOnlyCLIHelper$", "-test.v")
			cmd.Env = []string{readOnlyArgsEnv + "=" + strings.Join(append(args, "--dir", ro), "\n"), "PATH=" + os.Getenv("PATH"), "HOME=" + os.TempDir()}
			if out, err := cmd.CombinedOutput(); err != nil || !strings.Contains(string(out), "--- PASS: TestReadOnlyCLIHelper") {
				t.Fatalf("%v\n%s", err, out)
			}
		})
	}
}

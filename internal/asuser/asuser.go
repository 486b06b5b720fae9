package asuser

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
)

// Nobody is the user ID the second run takes.
const Nobody = 65534

const marker = "_SKILLKIT_TEST_AS_NOBODY"

// Unprivileged reports whether this is the second, unprivileged run.
func Unprivileged() bool { return os.Getenv(marker) != "" }

// Again, called first in a test, runs the same test again in a copy of the
// test binary as nobody when this run is root, and fails t when that run
// fails; the root run then goes on. It does nothing when not root, or in
// the second run itself.
func Again(t *testing.T) {
	t.Helper()
	if os.Geteuid() != 0 || Unprivileged() {
		return
	}
	cmd := Command(t, "-test.run", "^"+t.Name()+"$", "-test.v")
	cmd.Env = append(os.Environ(), marker+"=1", "HOME="+cmd.Dir, "TMPDIR=")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		t.Fatalf("as nobody: %v\n%s", err, out.String())
	}
	if !bytes.Contains(out.Bytes(), []byte("--- PASS: "+t.Name())) {
		t.Fatalf("as nobody, the test did not pass:\n%s", out.String())
	}
	t.Logf("passed as nobody too")
}

// Command returns a command that runs the test binary with args as a user
// who may not write what root made: as root, a copy of the binary in a
// folder everyone may enter (its Dir), run as nobody; otherwise the binary
// itself, as this user. The caller sets Env.
func Command(t testing.TB, args ...string) *exec.Cmd {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	if os.Geteuid() != 0 {
		return exec.Command(self, args...)
	}
	dir, err := os.MkdirTemp("", "asuser-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "test.bin")
	if err := copyFile(self, bin); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: Nobody, Gid: Nobody, NoSetGroups: true}}
	return cmd
}

func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o755)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

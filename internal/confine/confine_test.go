package confine

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"testing"
)

// run starts spec's program confined and returns its combined output and
// exit code.
func run(t *testing.T, spec Spec) (string, int, []string) {
	t.Helper()
	if spec.System == nil {
		spec.System = DefaultSystemPaths()
	}
	c, err := Prepare(context.Background(), spec)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	c.Cmd.Stdout, c.Cmd.Stderr = &out, &out
	if err := c.Start(); err != nil {
		t.Fatalf("start: %v", err)
	}
	err = c.Cmd.Wait()
	c.Close()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), code, c.Reduced
}

func sh(dir, script string) Spec {
	return Spec{Path: "/bin/sh", Args: []string{"-c", script}, Dir: dir, Env: []string{"PATH=/usr/bin:/bin", "HOME=" + ScratchHome, "TMPDIR=" + ScratchDir}}
}

func TestSmoke(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(dir+"/mine", []byte("mine"), 0o644)
	out, code, red := run(t, sh(dir, "id; cat mine; ls /tmp; ls ~; cat /proc/self/status | grep -i cap; echo x > /tmp/a && cat /tmp/a; cat /etc/hostname; ls /root; echo > mine; ls /proc | head -3"))
	t.Logf("code %d reduced %v\n%s", code, red, out)
}

package installer

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/skillkit-go/skillkit/internal/fixture"
)

// Two installs of one name never swap at the same time; installs of
// different names do.
func TestInstallsOfOneNameAreSerialized(t *testing.T) {
	for _, sameName := range []bool{true, false} {
		t.Run(fmt.Sprintf("same=%v", sameName), func(t *testing.T) {
			in, dir := newTestInstaller(t, nil)
			var inSwap, most atomic.Int32
			bothIn := make(chan struct{})
			var once sync.Once
			in.dir.Fault = func(p string) error {
				switch p {
				case "journal":
					n := inSwap.Add(1)
					for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
					}
					if n == 2 {
						once.Do(func() { close(bothIn) })
					}
					// Stay in the swap until the other arrives, or long
					// enough to show it cannot.
					select {
					case <-bothIn:
					case <-time.After(300 * time.Millisecond):
					}
				case "recorded":
					inSwap.Add(-1)
				}
				return nil
			}
			names := []string{"twin", "twin"}
			if !sameName {
				names = []string{"left", "right"}
			}
			var wg sync.WaitGroup
			errs := make([]error, 2)
			for i, n := range names {
				src := skillFolder(t, n, fmt.Sprint("copy ", i), nil)
				wg.Add(1)
				go func() {
					defer wg.Done()
					_, errs[i] = in.Install(context.Background(), Source{Dir: src}, &InstallOptions{Force: true})
				}()
			}
			wg.Wait()
			if err := errors.Join(errs...); err != nil {
				t.Fatal(err)
			}
			if want := map[bool]int32{true: 1, false: 2}[sameName]; most.Load() != want {
				t.Errorf("at most %d installs were in the swap at once, want %d", most.Load(), want)
			}
			for _, n := range names {
				if got := fixture.StateOf(t, dir, n); got.Files == "" || got.Files != got.Record {
					t.Errorf("%s: %+v", n, got)
				}
			}
			assertNoLeftovers(t, dir)
		})
	}
}

// lockHelperEnv makes TestLockHelper hold an install of "shared" in its
// swap until its standard input closes.
const lockHelperEnv = "SKILLKIT_INSTALLER_LOCK_HELPER"

// TestLockHelper is not a test: run by TestInstallsSerializeAcrossProcesses.
func TestLockHelper(t *testing.T) {
	if os.Getenv(lockHelperEnv) == "" {
		t.Skip("helper process only")
	}
	in, err := openFolder(os.Getenv("SKILLKIT_DIR"))
	if err != nil {
		t.Fatal(err)
	}
	in.dir.Fault = func(p string) error {
		if p == "journal" {
			fmt.Println("in-swap")
			bufio.NewReader(os.Stdin).ReadString('\n') // until the parent closes stdin
		}
		return nil
	}
	if _, err := in.Install(context.Background(), Source{Dir: os.Getenv("SKILLKIT_SRC")}, &InstallOptions{Force: true}); err != nil {
		t.Fatal(err)
	}
}

func TestInstallsSerializeAcrossProcesses(t *testing.T) {
	in, dir := newTestInstaller(t, nil)
	cmd := exec.Command(os.Args[0], "-test.run=^TestLockHelper$")
	cmd.Env = append(os.Environ(), lockHelperEnv+"=1", "SKILLKIT_DIR="+dir, "SKILLKIT_SRC="+skillFolder(t, "shared", "from the child", nil))
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil || line != "in-swap\n" {
		t.Fatalf("child: %q, %v", line, err)
	}
	src := Source{Dir: skillFolder(t, "shared", "from the parent", nil)}
	ctx, cancel := context.WithTimeout(t.Context(), 300*time.Millisecond)
	_, err = in.Install(ctx, src, &InstallOptions{Force: true})
	cancel()
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("an install of a name another process is swapping: %v, want it to wait", err)
	}
	// A different name is not held up.
	if _, err := in.Install(t.Context(), Source{Dir: skillFolder(t, "other", "x", nil)}, nil); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := in.Install(t.Context(), src, &InstallOptions{Force: true})
		done <- err
	}()
	select {
	case err := <-done:
		t.Fatalf("finished while the child held the name: %v", err)
	case <-time.After(100 * time.Millisecond):
	}
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("child: %v", err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, filepath.Join(dir, "shared", "SKILL.md")); !strings.Contains(got, "from the parent") {
		t.Errorf("SKILL.md = %q", got)
	}
	assertNoLeftovers(t, dir)
}

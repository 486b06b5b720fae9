//go:build unix || windows

package filelock_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/skillkit-go/skillkit/internal/filelock"
)

func TestExclusiveExcludesEveryone(t *testing.T) {
	p := filepath.Join(t.TempDir(), "lock")
	h, err := filelock.Lock(t.Context(), p)
	if err != nil {
		t.Fatal(err)
	}
	for _, take := range []func(context.Context, string) (*filelock.Handle, error){filelock.Lock, filelock.RLock} {
		ctx, cancel := context.WithTimeout(t.Context(), 30*time.Millisecond)
		if _, err := take(ctx, p); !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("second lock while held: %v, want deadline exceeded", err)
		}
		cancel()
	}
	if err := h.Unlock(); err != nil {
		t.Fatal(err)
	}
	if err := h.Unlock(); err == nil {
		t.Error("second Unlock succeeded")
	}
	h2, err := filelock.Lock(t.Context(), p)
	if err != nil {
		t.Fatal(err)
	}
	h2.Unlock()
}

func TestSharedLocksCoexist(t *testing.T) {
	p := filepath.Join(t.TempDir(), "lock")
	a, err := filelock.RLock(t.Context(), p)
	if err != nil {
		t.Fatal(err)
	}
	b, err := filelock.RLock(t.Context(), p)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Millisecond)
	defer cancel()
	if _, err := filelock.Lock(ctx, p); err == nil {
		t.Error("exclusive lock granted beside shared ones")
	}
	a.Unlock()
	b.Unlock()
}

// A counter in a file, incremented read-modify-write under the lock by many
// goroutines, loses no increment.
func TestLockSerializesReadModifyWrite(t *testing.T) {
	dir := t.TempDir()
	lockPath, counter := filepath.Join(dir, "lock"), filepath.Join(dir, "n")
	os.WriteFile(counter, []byte{0}, 0o600)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 10 {
				h, err := filelock.Lock(t.Context(), lockPath)
				if err != nil {
					t.Error(err)
					return
				}
				b, _ := os.ReadFile(counter)
				os.WriteFile(counter, []byte{b[0] + 1}, 0o600)
				h.Unlock()
			}
		})
	}
	wg.Wait()
	if b, _ := os.ReadFile(counter); b[0] != 80 {
		t.Errorf("counter %d, want 80", b[0])
	}
}

// Another process holding the lock keeps this one out until it exits.
func TestLockAcrossProcesses(t *testing.T) {
	if os.Getenv("FILELOCK_HOLD") != "" {
		h, err := filelock.Lock(context.Background(), os.Getenv("FILELOCK_HOLD"))
		if err != nil {
			os.Exit(3)
		}
		os.Stdout.WriteString("held\n")
		time.Sleep(300 * time.Millisecond)
		h.Unlock()
		os.Exit(0)
	}
	p := filepath.Join(t.TempDir(), "lock")
	cmd := exec.Command(os.Args[0], "-test.run=^TestLockAcrossProcesses$")
	cmd.Env = append(os.Environ(), "FILELOCK_HOLD="+p)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 5)
	if _, err := out.Read(buf); err != nil || string(buf) != "held\n" {
		t.Fatalf("child: %q %v", buf, err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	if _, err := filelock.Lock(ctx, p); err == nil {
		t.Error("lock granted while another process holds it")
	}
	cancel()
	start := time.Now()
	h, err := filelock.Lock(t.Context(), p)
	if err != nil {
		t.Fatal(err)
	}
	h.Unlock()
	cmd.Wait()
	if time.Since(start) < 100*time.Millisecond {
		t.Errorf("lock granted after %v, before the child released it", time.Since(start))
	}
}

func TestTryLockDoesNotWait(t *testing.T) {
	p := filepath.Join(t.TempDir(), "lock")
	h, err := filelock.TryLock(p)
	if err != nil || h == nil {
		t.Fatalf("TryLock of a free lock: %v, %v", h, err)
	}
	start := time.Now()
	h2, err := filelock.TryLock(p)
	if err != nil || h2 != nil {
		t.Fatalf("TryLock of a held lock: %v, %v; want nil, nil", h2, err)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("TryLock waited %v", d)
	}
	if err := h.Unlock(); err != nil {
		t.Fatal(err)
	}
	h3, err := filelock.TryLock(p)
	if err != nil || h3 == nil {
		t.Fatalf("TryLock after Unlock: %v, %v", h3, err)
	}
	h3.Unlock()
}

package filelock

import (
	"context"
	"fmt"
	"os"
	"time"
)

// A Handle is a held lock. Unlock releases it; calling Unlock twice is an
// error.
type Handle struct {
	f *os.File
}

// Lock takes an exclusive lock on the file at path, creating it (mode 0600)
// when missing, and waits until it has it or ctx is done.
func Lock(ctx context.Context, path string) (*Handle, error) {
	return lock(ctx, path, true)
}

// RLock takes a shared lock: any number of shared holders, no exclusive one.
func RLock(ctx context.Context, path string) (*Handle, error) {
	return lock(ctx, path, false)
}

// TryLock takes an exclusive lock on the file at path, creating it when
// missing, without waiting: it returns nil and no error when another holder
// has the lock.
func TryLock(path string) (*Handle, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("filelock: %w", err)
	}
	ok, err := tryLock(f, true)
	if err != nil || !ok {
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("filelock: locking %s: %w", path, err)
		}
		return nil, nil
	}
	return &Handle{f: f}, nil
}

func lock(ctx context.Context, path string, exclusive bool) (*Handle, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("filelock: %w", err)
	}
	wait := time.Millisecond
	for {
		ok, err := tryLock(f, exclusive)
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("filelock: locking %s: %w", path, err)
		}
		if ok {
			return &Handle{f: f}, nil
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			f.Close()
			return nil, fmt.Errorf("filelock: waiting for %s: %w", path, context.Cause(ctx))
		case <-t.C:
		}
		wait = min(wait*2, 50*time.Millisecond)
	}
}

// Unlock releases the lock.
func (h *Handle) Unlock() error {
	if h == nil || h.f == nil {
		return fmt.Errorf("filelock: unlock of a lock not held")
	}
	err := unlock(h.f)
	if cerr := h.f.Close(); err == nil {
		err = cerr
	}
	h.f = nil
	return err
}

// Package filelock serializes processes (and goroutines) around a shared
// file: [Lock] takes an exclusive lock, [RLock] a shared one, on a lock file
// that is created when missing and never removed (removing it would let two
// holders lock two different files).
//
// On unix it is flock(2); on Windows LockFileEx on the first byte. Both are
// advisory: they bind only the programs that take them, and a lock is
// released when its holder closes it or exits. Waiting polls with a short
// back-off, so it ends when ctx is done. On other systems (js, wasip1,
// plan9) locking is a no-op: the lock still serializes nothing across
// processes there, which the callers document.
//
// Locks taken through separate Lock calls conflict even within one process,
// so goroutines can use the same lock file.
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

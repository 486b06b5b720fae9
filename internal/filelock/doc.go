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

//go:build !linux

package loader

// notifies reports whether Watch uses change notifications for a source
// folder: only on Linux, where inotify costs a watch per folder; the
// notifications of other kernels cost a descriptor per file, and Watch
// polls there.
func notifies(string) bool { return false }

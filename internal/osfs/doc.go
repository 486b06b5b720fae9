// Package osfs gives [os.DirFS] and [os.Root.FS] with a cheaper Open for
// the trees skillkit reads whole: skill folders scanned, fingerprinted and
// loaded, at install and at every scan.
//
// os.Open tries to register every file it opens with the runtime's poller:
// on Linux that is four fcntl calls and one epoll_ctl, which fails for a
// regular file, on top of the open itself. Opening with O_NONBLOCK tells
// the os package the descriptor is already non-blocking, which skips the
// fcntl calls; reads from regular files and folders ignore the flag, and a
// named pipe no longer blocks the open. With system calls near 1.4 µs on a
// virtual machine, open, read and close of a small file went from 13.7 µs
// to 8.1 µs (docs/decisions.md, "Files opened without the poller").
//
// Everything but Open and ReadFile is the os package's own: the same name
// checks, the same links followed (Dir) or refused outside the root (Root).
// On systems other than Unix the os package's FS is returned unchanged.
package osfs

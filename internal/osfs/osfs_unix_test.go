//go:build unix

package osfs_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/skillkit-go/skillkit/internal/osfs"
)

// The point of the package: a file opened through it carries O_NONBLOCK, so
// the os package made no fcntl calls to switch it (os.Open leaves a regular
// file blocking after trying).
func TestOpensNonBlocking(t *testing.T) {
	dir := tree(t)
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	for label, fsys := range map[string]fs.FS{"Dir": osfs.Dir(dir), "Root": osfs.Root(root)} {
		f, err := fsys.Open("SKILL.md")
		if err != nil {
			t.Fatal(err)
		}
		conn, err := f.(syscall.Conn).SyscallConn()
		if err != nil {
			t.Fatal(err)
		}
		var flags int
		var ferr error
		conn.Control(func(fd uintptr) { flags, ferr = unix.FcntlInt(fd, unix.F_GETFL, 0) })
		f.Close()
		if ferr != nil || flags&unix.O_NONBLOCK == 0 {
			t.Errorf("%s: flags %#x, %v: the file was opened without O_NONBLOCK", label, flags, ferr)
		}
	}
}

// A named pipe with no writer does not hang the open, as it would with
// os.DirFS.
func TestPipeDoesNotBlock(t *testing.T) {
	dir := tree(t)
	if err := unix.Mkfifo(filepath.Join(dir, "pipe"), 0o644); err != nil {
		t.Skip("no named pipes here:", err)
	}
	done := make(chan error, 1)
	go func() {
		f, err := osfs.Dir(dir).Open("pipe")
		if err == nil {
			f.Close()
		}
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("opening a named pipe blocked")
	}
}

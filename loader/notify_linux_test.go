package loader

import (
	"testing"
	"testing/fstest"

	"golang.org/x/sys/unix"
)

// Network and FUSE file systems are polled; local ones are notified.
func TestNotifiedTypes(t *testing.T) {
	for _, typ := range []uint32{unix.NFS_SUPER_MAGIC, unix.CIFS_SUPER_MAGIC, unix.SMB2_SUPER_MAGIC, unix.FUSE_SUPER_MAGIC, unix.V9FS_MAGIC, unix.CEPH_SUPER_MAGIC} {
		if notifiedType(typ) {
			t.Errorf("file system type %#x is notified; its changes from other machines are not", typ)
		}
	}
	for _, typ := range []uint32{unix.EXT4_SUPER_MAGIC, unix.TMPFS_MAGIC, unix.XFS_SUPER_MAGIC, unix.BTRFS_SUPER_MAGIC, unix.OVERLAYFS_SUPER_MAGIC} {
		if !notifiedType(typ) {
			t.Errorf("local file system type %#x is polled", typ)
		}
	}
	if !notifies(t.TempDir()) {
		t.Error("the test's temporary folder is not notified")
	}
}

// A loader with no source on disk gets no notifier: Watch polls.
func TestNoNotifierWithoutDisk(t *testing.T) {
	l, err := New(t.Context(), []Source{{Name: "m", FS: fstest.MapFS{}}}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if n := l.newNotifier(t.Context(), DefaultWatchInterval); n != nil {
		n.close()
		t.Error("a notifier for a source that is not on disk")
	}
}

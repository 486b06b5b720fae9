package loader

import "golang.org/x/sys/unix"

// notifies reports whether Watch uses change notifications for a source
// folder: whether changes to the file system holding dir reach this
// kernel's notifications. A root that cannot be asked (it does not exist
// yet) is watched once a round finds it.
func notifies(dir string) bool {
	var st unix.Statfs_t
	if err := unix.Statfs(dir, &st); err != nil {
		return true
	}
	return notifiedType(uint32(st.Type))
}

// notifiedType reports whether changes to a file system of this statfs
// type reach the kernel's notifications: not so for network file systems
// written by other machines, nor for FUSE, whose daemon decides.
func notifiedType(fsType uint32) bool {
	switch fsType {
	case unix.NFS_SUPER_MAGIC, unix.SMB_SUPER_MAGIC, unix.SMB2_SUPER_MAGIC, unix.CIFS_SUPER_MAGIC,
		unix.FUSE_SUPER_MAGIC, unix.V9FS_MAGIC, unix.CEPH_SUPER_MAGIC, unix.AFS_SUPER_MAGIC,
		unix.AFS_FS_MAGIC, unix.CODA_SUPER_MAGIC, unix.NCP_SUPER_MAGIC:
		return false
	}
	return true
}

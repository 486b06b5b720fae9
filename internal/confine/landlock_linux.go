package confine

import (
	"fmt"
	"path/filepath"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Landlock's access rights, by the ABI version that added them.
const (
	llRead  = unix.LANDLOCK_ACCESS_FS_EXECUTE | unix.LANDLOCK_ACCESS_FS_READ_FILE | unix.LANDLOCK_ACCESS_FS_READ_DIR
	llFile  = unix.LANDLOCK_ACCESS_FS_EXECUTE | unix.LANDLOCK_ACCESS_FS_WRITE_FILE | unix.LANDLOCK_ACCESS_FS_READ_FILE | unix.LANDLOCK_ACCESS_FS_TRUNCATE | unix.LANDLOCK_ACCESS_FS_IOCTL_DEV
	llABI1  = (1 << 13) - 1 // EXECUTE .. MAKE_SYM
	llRefer = unix.LANDLOCK_ACCESS_FS_REFER

	llRuleNetPort = 2
)

// landlockABI is the kernel's Landlock ABI version, 0 when it has none.
func landlockABI() int {
	v, _, errno := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, 0, 0, unix.LANDLOCK_CREATE_RULESET_VERSION)
	if errno != 0 {
		return 0
	}
	return int(v)
}

func fsRights(abi int) uint64 {
	r := uint64(llABI1)
	if abi >= 2 {
		r |= llRefer
	}
	if abi >= 3 {
		r |= unix.LANDLOCK_ACCESS_FS_TRUNCATE
	}
	if abi >= 5 {
		r |= unix.LANDLOCK_ACCESS_FS_IOCTL_DEV
	}
	return r
}

type netPortAttr struct {
	allowed uint64
	port    uint64
}

// landlock restricts the exec'ing thread to the grants: read-only system
// folders and grants, the writable scratch and write grants, and, where the
// kernel's ABI has them, TCP connections only to the proxy's port (when
// there is no network namespace) and no
// signals or abstract sockets outside the program's own domain.
func (h *helper) landlock(proxyPort int) error {
	s := &h.spec
	abi := landlockABI()
	if abi == 0 {
		return h.reduce("Landlock", errNoLandlock)
	}
	all := fsRights(abi)
	attr := unix.LandlockRulesetAttr{Access_fs: all}
	size := unsafe.Sizeof(uint64(0)) // ABI 1: file system rights only
	// In its own network namespace the program reaches nothing but its
	// loopback (and the proxy's listener there); without one, Landlock is
	// what keeps TCP to the proxy's port.
	if abi >= 4 && !s.Network.All && !s.Namespaces {
		attr.Access_net = unix.LANDLOCK_ACCESS_NET_CONNECT_TCP
		size = 2 * unsafe.Sizeof(uint64(0))
	}
	if abi >= 6 {
		attr.Scoped = unix.LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET | unix.LANDLOCK_SCOPE_SIGNAL
		size = unsafe.Sizeof(attr)
	}
	rfd, _, errno := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, uintptr(unsafe.Pointer(&attr)), size, 0)
	if errno != 0 {
		return h.reduce("Landlock", errno)
	}
	ruleset := int(rfd)
	defer unix.Close(ruleset)

	allow := func(p string, rights uint64) error {
		fd, err := unix.Open(p, unix.O_PATH|unix.O_CLOEXEC, 0)
		if err != nil {
			return nil // nothing there to grant
		}
		defer unix.Close(fd)
		var st unix.Stat_t
		if err := unix.Fstat(fd, &st); err != nil {
			return err
		}
		rights &= all
		if st.Mode&unix.S_IFMT != unix.S_IFDIR {
			rights &= llFile
		}
		rule := unix.LandlockPathBeneathAttr{Allowed_access: rights, Parent_fd: int32(fd)}
		if _, _, errno := unix.Syscall6(unix.SYS_LANDLOCK_ADD_RULE, uintptr(ruleset), unix.LANDLOCK_RULE_PATH_BENEATH,
			uintptr(unsafe.Pointer(&rule)), 0, 0, 0); errno != 0 {
			return fmt.Errorf("landlock rule for %s: %w", p, errno)
		}
		return nil
	}
	for _, p := range s.System {
		if err := allow(p, llRead); err != nil {
			return err
		}
	}
	for _, p := range []string{"/proc", "/sys", "/dev", s.Dir} {
		if err := allow(p, llRead); err != nil {
			return err
		}
	}
	for _, p := range s.Read {
		if err := allow(p, llRead); err != nil {
			return err
		}
	}
	for _, dev := range []string{"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom", "/dev/tty"} {
		if err := allow(dev, all); err != nil {
			return err
		}
	}
	writable := append(append([]string{}, s.Write...), s.Work...)
	if s.Namespaces {
		writable = append(writable, ScratchDir, "/var/tmp", "/dev/shm")
	}
	for _, p := range writable {
		if err := allow(filepath.Clean(p), all); err != nil {
			return err
		}
	}
	if attr.Access_net != 0 && proxyPort != 0 {
		rule := netPortAttr{allowed: unix.LANDLOCK_ACCESS_NET_CONNECT_TCP, port: uint64(proxyPort)}
		if _, _, errno := unix.Syscall6(unix.SYS_LANDLOCK_ADD_RULE, uintptr(ruleset), llRuleNetPort,
			uintptr(unsafe.Pointer(&rule)), 0, 0, 0); errno != 0 {
			return fmt.Errorf("landlock rule for the proxy's port: %w", errno)
		}
	}
	// no_new_privs, which restrict_self asks for, is set by the caller.
	if _, _, errno := unix.Syscall(unix.SYS_LANDLOCK_RESTRICT_SELF, uintptr(ruleset), 0, 0); errno != 0 {
		return h.reduce("Landlock", errno)
	}
	return nil
}

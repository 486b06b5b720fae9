//go:build linux && (amd64 || arm64)

package confine

import (
	"fmt"
	"os"
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

// landlock restricts the program to the grants: read-only system folders
// and grants, the writable scratch and write grants, and, where the
// kernel's ABI has them, TCP connections only to the proxy's port (when
// there is no network namespace) and no signals or abstract sockets
// outside the program's own domain. ruleset and pathFD are file numbers
// the child may use.
func (p *plan) landlock(s *Spec, ruleset, pathFD int) error {
	abi := landlockABI()
	if abi == 0 {
		if s.Strict {
			return fmt.Errorf("%w: Landlock: %v", ErrReduced, errNoLandlock)
		}
		p.reduced = append(p.reduced, "Landlock: "+errNoLandlock.Error())
		return nil
	}
	all := fsRights(abi)
	attr := &unix.LandlockRulesetAttr{Access_fs: all}
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
		size = unsafe.Sizeof(*attr)
	}
	p.keep = append(p.keep, attr)
	red := p.reduction("Landlock", s.Strict)
	first := len(p.ops)
	create := p.call("Landlock", unix.SYS_LANDLOCK_CREATE_RULESET, uintptr(unsafe.Pointer(attr)), size, 0)
	create.out, create.reduce = 1, red
	p.mechanism("Landlock", first, first)
	p.moveTo("Landlock", ruleset)

	allow := func(path string, rights uint64) {
		fi, err := os.Stat(path)
		if err != nil {
			return // nothing there to grant
		}
		rights &= all
		if !fi.IsDir() {
			rights &= llFile
		}
		what := "landlock rule for " + path
		open := p.call(what, unix.SYS_OPENAT, atFDCWD, p.cstr(path), unix.O_PATH|unix.O_CLOEXEC, 0)
		open.out, open.anyOK, open.skip = 1, true, 3
		p.moveTo(what, pathFD)
		rule := &unix.LandlockPathBeneathAttr{Allowed_access: rights, Parent_fd: int32(pathFD)}
		p.keep = append(p.keep, rule)
		p.call(what, unix.SYS_LANDLOCK_ADD_RULE, uintptr(ruleset), unix.LANDLOCK_RULE_PATH_BENEATH, uintptr(unsafe.Pointer(rule)), 0)
	}
	for _, path := range s.System {
		allow(path, llRead)
	}
	for _, path := range []string{"/proc", "/sys", "/dev", s.Dir} {
		allow(path, llRead)
	}
	for _, path := range s.Read {
		allow(path, llRead)
	}
	for _, dev := range []string{"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom", "/dev/tty"} {
		allow(dev, all)
	}
	writable := append(append([]string{}, s.Write...), s.Work...)
	if s.Namespaces {
		writable = append(writable, ScratchDir, "/var/tmp", "/dev/shm")
	}
	for _, path := range writable {
		allow(filepath.Clean(path), all)
	}
	if attr.Access_net != 0 && s.ProxyPort != 0 {
		rule := &netPortAttr{allowed: unix.LANDLOCK_ACCESS_NET_CONNECT_TCP, port: uint64(s.ProxyPort)}
		p.keep = append(p.keep, rule)
		p.call("landlock rule for the proxy's port", unix.SYS_LANDLOCK_ADD_RULE, uintptr(ruleset), llRuleNetPort, uintptr(unsafe.Pointer(rule)), 0)
	}
	// no_new_privs, which restrict_self asks for, is set before.
	restrict := p.call("Landlock", unix.SYS_LANDLOCK_RESTRICT_SELF, uintptr(ruleset), 0)
	restrict.reduce = red
	p.mechanism("Landlock", len(p.ops)-1, len(p.ops)-1)
	// A kernel that refuses the ruleset skips every rule.
	p.ops[first].skip = int32(len(p.ops) - first - 1)
	return nil
}

//go:build linux && (amd64 || arm64)

package confine

import "golang.org/x/sys/unix"

// deniedSyscalls are the calls no skill needs and that widen what a
// process can reach or attack: tracing and reading other processes, the
// kernel's keyrings, BPF, userfaultfd (a tool of kernel exploits), loading
// kernels and modules, mounts and new namespaces, and host-wide settings.
var deniedSyscalls = []uintptr{
	unix.SYS_PTRACE, unix.SYS_PROCESS_VM_READV, unix.SYS_PROCESS_VM_WRITEV,
	unix.SYS_BPF, unix.SYS_PERF_EVENT_OPEN, unix.SYS_USERFAULTFD,
	unix.SYS_KEYCTL, unix.SYS_ADD_KEY, unix.SYS_REQUEST_KEY,
	unix.SYS_KEXEC_LOAD, unix.SYS_KEXEC_FILE_LOAD,
	unix.SYS_INIT_MODULE, unix.SYS_FINIT_MODULE, unix.SYS_DELETE_MODULE,
	unix.SYS_MOUNT, unix.SYS_UMOUNT2, unix.SYS_PIVOT_ROOT, unix.SYS_MOVE_MOUNT, unix.SYS_OPEN_TREE,
	unix.SYS_FSOPEN, unix.SYS_FSMOUNT, unix.SYS_FSCONFIG, unix.SYS_FSPICK, unix.SYS_MOUNT_SETATTR,
	unix.SYS_UNSHARE, unix.SYS_SETNS,
	unix.SYS_SWAPON, unix.SYS_SWAPOFF, unix.SYS_REBOOT, unix.SYS_SYSLOG, unix.SYS_ACCT,
	unix.SYS_OPEN_BY_HANDLE_AT, unix.SYS_QUOTACTL,
}

// namespaceFlags are the clone flags that make new namespaces.
const namespaceFlags = unix.CLONE_NEWNS | unix.CLONE_NEWUTS | unix.CLONE_NEWIPC | unix.CLONE_NEWUSER |
	unix.CLONE_NEWPID | unix.CLONE_NEWNET | unix.CLONE_NEWCGROUP | unix.CLONE_NEWTIME

// Offsets in struct seccomp_data.
const (
	sdNr   = 0
	sdArch = 4
	sdArg0 = 16
	sdArg1 = 24
)

// seccompFilter is a filter that makes the
// denied calls fail with EPERM, clone3 with ENOSYS (its flags are behind a
// pointer; C libraries then use clone, whose flags the filter reads), and
// clone with namespace flags fail. denyInet also refuses IP and packet
// sockets (the program has no network namespace to lose its network in);
// streamOnly refuses IP sockets other than TCP (with a proxy and no
// namespace, Landlock guards TCP but not UDP).
func seccompFilter(denyInet, streamOnly bool) []unix.SockFilter {
	const (
		retAllow = unix.SECCOMP_RET_ALLOW
		retEPERM = unix.SECCOMP_RET_ERRNO | uint32(unix.EPERM)
		retNOSYS = unix.SECCOMP_RET_ERRNO | uint32(unix.ENOSYS)
	)
	var p []unix.SockFilter
	stmt := func(code uint16, k uint32) { p = append(p, unix.SockFilter{Code: code, K: k}) }
	jump := func(code uint16, k uint32, jt, jf uint8) {
		p = append(p, unix.SockFilter{Code: code, K: k, Jt: jt, Jf: jf})
	}
	ld := func(off uint32) { stmt(unix.BPF_LD|unix.BPF_W|unix.BPF_ABS, off) }
	ret := func(v uint32) { stmt(unix.BPF_RET|unix.BPF_K, v) }
	jeq := func(k uint32, jt, jf uint8) { jump(unix.BPF_JMP|unix.BPF_JEQ|unix.BPF_K, k, jt, jf) }

	ld(sdArch)
	jeq(auditArch, 1, 0)
	ret(retEPERM) // another ABI's calls (32-bit compat) are refused outright
	ld(sdNr)
	if x32Bit != 0 {
		jump(unix.BPF_JMP|unix.BPF_JGE|unix.BPF_K, x32Bit, 0, 1)
		ret(retEPERM)
	}
	for _, nr := range deniedSyscalls {
		jeq(uint32(nr), 0, 1)
		ret(retEPERM)
	}
	jeq(unix.SYS_CLONE3, 0, 1)
	ret(retNOSYS)
	jeq(unix.SYS_CLONE, 0, 4)
	ld(sdArg0)
	jump(unix.BPF_JMP|unix.BPF_JSET|unix.BPF_K, namespaceFlags, 0, 1)
	ret(retEPERM)
	ret(retAllow)
	switch {
	case denyInet:
		jeq(unix.SYS_SOCKET, 0, 5)
		ld(sdArg0)
		jeq(unix.AF_PACKET, 2, 0)
		jeq(unix.AF_INET, 1, 0)
		jeq(unix.AF_INET6, 0, 1)
		ret(retEPERM)
	case streamOnly:
		jeq(unix.SYS_SOCKET, 0, 8)
		ld(sdArg0)
		jeq(unix.AF_PACKET, 5, 0)
		jeq(unix.AF_INET, 1, 0)
		jeq(unix.AF_INET6, 0, 4)
		ld(sdArg1)
		stmt(unix.BPF_ALU|unix.BPF_AND|unix.BPF_K, 0xf)
		jeq(unix.SOCK_STREAM, 1, 0)
		ret(retEPERM)
	}
	ret(retAllow)
	return p
}

//go:build linux && (amd64 || arm64)

package confine

import (
	"fmt"
	"slices"

	"golang.org/x/sys/unix"
)

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
//
// The call number is found by a binary search, not a list of compares: the
// kernel runs the filter over every call number when it loads it (to cache
// the calls it always allows), and a list made that a tenth of a confined
// start.
func seccompFilter(denyInet, streamOnly bool) []unix.SockFilter {
	const (
		retAllow = unix.SECCOMP_RET_ALLOW
		retEPERM = unix.SECCOMP_RET_ERRNO | uint32(unix.EPERM)
		retNOSYS = unix.SECCOMP_RET_ERRNO | uint32(unix.ENOSYS)
	)
	var a bpfAsm
	a.ld(sdArch)
	a.jeq(auditArch, "nr", "deny") // another ABI's calls (32-bit compat) are refused outright
	a.label("nr")
	a.ld(sdNr)
	if x32Bit != 0 {
		a.jump(unix.BPF_JMP|unix.BPF_JGE|unix.BPF_K, x32Bit, "deny", "search")
	}
	a.label("search")
	special := map[uint32]string{unix.SYS_CLONE3: "nosys", unix.SYS_CLONE: "clone"}
	for _, nr := range deniedSyscalls {
		special[uint32(nr)] = "deny"
	}
	if denyInet || streamOnly {
		special[unix.SYS_SOCKET] = "socket"
	}
	nrs := make([]uint32, 0, len(special))
	for nr := range special {
		nrs = append(nrs, nr)
	}
	slices.Sort(nrs)
	a.search(nrs, special)

	a.label("clone")
	a.ld(sdArg0)
	a.jump(unix.BPF_JMP|unix.BPF_JSET|unix.BPF_K, namespaceFlags, "deny", "allow")
	if denyInet || streamOnly {
		a.label("socket")
		a.ld(sdArg0)
		a.jeq(unix.AF_PACKET, "deny", "")
		ip := "deny"
		if streamOnly {
			ip = "stream"
		}
		a.jeq(unix.AF_INET, ip, "")
		a.jeq(unix.AF_INET6, ip, "allow")
		if streamOnly {
			a.label("stream")
			a.ld(sdArg1)
			a.stmt(unix.BPF_ALU|unix.BPF_AND|unix.BPF_K, 0xf)
			a.jeq(unix.SOCK_STREAM, "allow", "deny")
		}
	}
	a.label("nosys")
	a.ret(retNOSYS)
	a.label("deny")
	a.ret(retEPERM)
	a.label("allow")
	a.ret(retAllow)
	return a.assemble()
}

// bpfAsm writes a classic BPF program with named, forward jump targets.
type bpfAsm struct {
	code   []bpfInsn
	labels map[string]int
	n      int // labels made by search
}

type bpfInsn struct {
	unix.SockFilter
	jt, jf string // targets; "" is the next instruction
	ja     string // an unconditional jump's target
}

func (a *bpfAsm) stmt(code uint16, k uint32) {
	a.code = append(a.code, bpfInsn{SockFilter: unix.SockFilter{Code: code, K: k}})
}
func (a *bpfAsm) ld(off uint32) { a.stmt(unix.BPF_LD|unix.BPF_W|unix.BPF_ABS, off) }
func (a *bpfAsm) ret(v uint32)  { a.stmt(unix.BPF_RET|unix.BPF_K, v) }
func (a *bpfAsm) jump(code uint16, k uint32, jt, jf string) {
	a.code = append(a.code, bpfInsn{SockFilter: unix.SockFilter{Code: code, K: k}, jt: jt, jf: jf})
}
func (a *bpfAsm) jeq(k uint32, jt, jf string) {
	a.jump(unix.BPF_JMP|unix.BPF_JEQ|unix.BPF_K, k, jt, jf)
}
func (a *bpfAsm) goTo(target string) {
	a.code = append(a.code, bpfInsn{SockFilter: unix.SockFilter{Code: unix.BPF_JMP | unix.BPF_JA}, ja: target})
}

func (a *bpfAsm) label(name string) {
	if a.labels == nil {
		a.labels = map[string]int{}
	}
	a.labels[name] = len(a.code)
}

// search sends the call number in the accumulator to its target in
// special, and every other number to "allow".
func (a *bpfAsm) search(nrs []uint32, special map[uint32]string) {
	if len(nrs) <= 3 {
		for _, nr := range nrs {
			a.jeq(nr, special[nr], "")
		}
		a.goTo("allow")
		return
	}
	mid := len(nrs) / 2
	a.n++
	upper := fmt.Sprintf("search-%d", a.n)
	a.jump(unix.BPF_JMP|unix.BPF_JGE|unix.BPF_K, nrs[mid], upper, "")
	a.search(nrs[:mid], special)
	a.label(upper)
	a.search(nrs[mid:], special)
}

// assemble resolves the targets into offsets. A target behind its jump,
// or one too far for a conditional jump, is a mistake of this file: it
// panics.
func (a *bpfAsm) assemble() []unix.SockFilter {
	offset := func(i int, target string) uint32 {
		if target == "" {
			return 0
		}
		to, ok := a.labels[target]
		if !ok || to <= i {
			panic("seccomp filter: bad jump target " + target)
		}
		return uint32(to - i - 1)
	}
	out := make([]unix.SockFilter, len(a.code))
	for i, in := range a.code {
		out[i] = in.SockFilter
		if in.ja != "" {
			out[i].K = offset(i, in.ja)
			continue
		}
		jt, jf := offset(i, in.jt), offset(i, in.jf)
		if jt > 255 || jf > 255 {
			panic("seccomp filter: a jump too far")
		}
		out[i].Jt, out[i].Jf = uint8(jt), uint8(jf)
	}
	return out
}

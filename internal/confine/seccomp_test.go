//go:build linux && (amd64 || arm64)

package confine

import (
	"encoding/binary"
	"slices"
	"testing"

	"golang.org/x/sys/unix"
)

// runFilter runs a classic BPF seccomp filter over one call, as the
// kernel would, for the instructions the filter uses.
func runFilter(t *testing.T, prog []unix.SockFilter, arch uint32, nr uint32, args ...uint64) uint32 {
	t.Helper()
	data := make([]byte, 64)
	binary.LittleEndian.PutUint32(data[0:], nr)
	binary.LittleEndian.PutUint32(data[4:], arch)
	for i, a := range args {
		binary.LittleEndian.PutUint64(data[16+8*i:], a)
	}
	var acc uint32
	for pc := 0; pc < len(prog); pc++ {
		in := prog[pc]
		switch in.Code {
		case unix.BPF_LD | unix.BPF_W | unix.BPF_ABS:
			acc = binary.LittleEndian.Uint32(data[in.K:])
		case unix.BPF_ALU | unix.BPF_AND | unix.BPF_K:
			acc &= in.K
		case unix.BPF_RET | unix.BPF_K:
			return in.K
		case unix.BPF_JMP | unix.BPF_JA:
			pc += int(in.K)
		case unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K, unix.BPF_JMP | unix.BPF_JGE | unix.BPF_K, unix.BPF_JMP | unix.BPF_JSET | unix.BPF_K:
			var taken bool
			switch in.Code &^ (unix.BPF_JMP | unix.BPF_K) {
			case unix.BPF_JEQ:
				taken = acc == in.K
			case unix.BPF_JGE:
				taken = acc >= in.K
			case unix.BPF_JSET:
				taken = acc&in.K != 0
			}
			if taken {
				pc += int(in.Jt)
			} else {
				pc += int(in.Jf)
			}
		default:
			t.Fatalf("instruction %d: code %#x not emulated", pc, in.Code)
		}
	}
	t.Fatal("the filter ran off its end")
	return 0
}

// TestSeccompFilter: every call number, in every mode, gets what the
// lists say: the denied calls EPERM, clone3 ENOSYS, clone with a namespace
// flag EPERM, sockets as the mode says, another ABI EPERM, the rest through.
func TestSeccompFilter(t *testing.T) {
	const (
		allow  = unix.SECCOMP_RET_ALLOW
		eperm  = unix.SECCOMP_RET_ERRNO | uint32(unix.EPERM)
		enosys = unix.SECCOMP_RET_ERRNO | uint32(unix.ENOSYS)
	)
	for _, mode := range []struct{ denyInet, streamOnly bool }{{false, false}, {true, false}, {false, true}} {
		prog := seccompFilter(mode.denyInet, mode.streamOnly)
		for nr := uint32(0); nr < 1024; nr++ {
			want := uint32(allow)
			switch {
			case slices.Contains(deniedSyscalls, uintptr(nr)):
				want = eperm
			case nr == unix.SYS_CLONE3:
				want = enosys
			}
			if got := runFilter(t, prog, auditArch, nr); got != want {
				t.Fatalf("%+v: call %d: %#x, want %#x", mode, nr, got, want)
			}
		}
		if got := runFilter(t, prog, auditArch^1, unix.SYS_READ); got != eperm {
			t.Errorf("another ABI's read: %#x", got)
		}
		if x32Bit != 0 {
			if got := runFilter(t, prog, auditArch, x32Bit|unix.SYS_READ); got != eperm {
				t.Errorf("an x32 read: %#x", got)
			}
		}
		if got := runFilter(t, prog, auditArch, unix.SYS_CLONE, unix.CLONE_NEWUSER); got != eperm {
			t.Errorf("clone with CLONE_NEWUSER: %#x", got)
		}
		if got := runFilter(t, prog, auditArch, unix.SYS_CLONE, unix.CLONE_VM|unix.CLONE_THREAD); got != allow {
			t.Errorf("clone of a thread: %#x", got)
		}
		for _, s := range []struct {
			family, typ uint64
			denyInet    bool // refused with denyInet
			streamOnly  bool // refused with streamOnly
		}{
			{unix.AF_UNIX, unix.SOCK_STREAM, false, false},
			{unix.AF_INET, unix.SOCK_STREAM | unix.SOCK_CLOEXEC, true, false},
			{unix.AF_INET6, unix.SOCK_DGRAM, true, true},
			{unix.AF_INET, unix.SOCK_RAW, true, true},
			{unix.AF_PACKET, unix.SOCK_RAW, true, true},
		} {
			want := uint32(allow)
			if mode.denyInet && s.denyInet || mode.streamOnly && s.streamOnly {
				want = eperm
			}
			if got := runFilter(t, prog, auditArch, unix.SYS_SOCKET, s.family, s.typ); got != want {
				t.Errorf("%+v: socket(%d, %d): %#x, want %#x", mode, s.family, s.typ, got, want)
			}
		}
	}
}

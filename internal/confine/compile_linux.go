//go:build linux && (amd64 || arm64)

package confine

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// proxyPortInside is where a program in its own network namespace finds
// the host's filtering proxy: the namespace is its own, so the port is free.
const proxyPortInside = 3128

// compile works out the child's setup for s: the view of the machine (with
// namespaces), the limits, Landlock, the capabilities, seccomp, the
// standard streams and the exec. stdio are the files that become the
// program's 0, 1 and 2; ctl, when not -1, is where the proxy's listener
// goes. maps, for a root host's namespaces, writes the ID maps. oldMask is
// the signal mask the program starts with.
func compile(s *Spec, stdio [3]int, ctl int, maps *idMapper, oldMask *uint64) (*plan, error) {
	p := &plan{}
	next := 10
	reserved := append(stdio[:], ctl)
	if maps != nil {
		reserved = append(reserved, maps.ready[1], maps.proceed[0])
	}
	for _, fd := range reserved {
		next = max(next, fd+1)
	}
	newFD := func() int { next++; return next - 1 }

	if maps != nil {
		// Wait for the maps the zygote writes (see idMapper).
		p.call("user namespace", unix.SYS_WRITE, uintptr(maps.ready[1]), p.bytes([]byte{1}), 1)
		p.call("user namespace", unix.SYS_READ, uintptr(maps.proceed[0]), p.bytes([]byte{0}), 1)
	} else if s.Namespaces {
		// The child may write its own ID maps only while its memory (the
		// zygote's, shared) is dumpable: for these few calls, then no more.
		p.call("user namespace", unix.SYS_PRCTL, unix.PR_SET_DUMPABLE, 1)
		p.writeFile("user namespace", "/proc/self/setgroups", "deny")
		p.writeFile("user namespace: uid map", "/proc/self/uid_map", fmt.Sprintf("%d %d 1", s.UID, s.UID))
		p.writeFile("user namespace: gid map", "/proc/self/gid_map", fmt.Sprintf("%d %d 1", s.GID, s.GID))
		p.call("user namespace", unix.SYS_PRCTL, unix.PR_SET_DUMPABLE, 0)
	}
	if s.Namespaces {
		if err := p.view(s, newFD); err != nil {
			return nil, err
		}
		if !s.Network.All {
			red := p.reduction("loopback", s.Strict)
			first := len(p.ops)
			sock := p.call("loopback", unix.SYS_SOCKET, unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
			sock.out, sock.reduce, sock.skip = 1, red, 2
			ifr, err := unix.NewIfreq("lo")
			if err != nil {
				return nil, err
			}
			ifr.SetUint16(unix.IFF_UP | unix.IFF_LOOPBACK | unix.IFF_RUNNING)
			p.keep = append(p.keep, ifr)
			up := p.call("loopback", unix.SYS_IOCTL, 0, unix.SIOCSIFFLAGS, uintptr(unsafe.Pointer(ifr)))
			up.in[0], up.reduce = 1, red
			p.call("loopback", unix.SYS_CLOSE, 0).in[0] = 1
			p.mechanism("loopback", first, first+2)
		}
		if s.Network.Proxy && ctl >= 0 {
			p.proxyListener(ctl, newFD())
		}
	}
	p.limits(s.Limits.WithDefaults())
	p.call("process group", unix.SYS_SETPGID, 0, 0)
	p.call("no_new_privs", unix.SYS_PRCTL, unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)
	if err := p.landlock(s, newFD(), newFD()); err != nil {
		return nil, err
	}
	p.dropPrivileges(s)
	filter := seccompFilter(!s.Namespaces && !s.Network.All, s.Network.Proxy)
	prog := &unix.SockFprog{Len: uint16(len(filter)), Filter: &filter[0]}
	p.keep = append(p.keep, prog, filter)
	sc := p.call("seccomp", unix.SYS_PRCTL, unix.PR_SET_SECCOMP, unix.SECCOMP_MODE_FILTER, uintptr(unsafe.Pointer(prog)), 0, 0)
	sc.reduce = p.reduction("seccomp", s.Strict)
	p.mechanism("seccomp", len(p.ops)-1, len(p.ops)-1)
	p.call("working folder", unix.SYS_CHDIR, p.cstr(s.Dir))

	// The streams move above every other file first, so that none is
	// overwritten before it is copied.
	var high [3]int
	for i := range stdio {
		high[i] = newFD()
		p.call("standard streams", unix.SYS_DUP3, uintptr(stdio[i]), uintptr(high[i]), unix.O_CLOEXEC)
	}
	for i := range stdio {
		p.call("standard streams", unix.SYS_DUP3, uintptr(high[i]), uintptr(i), 0)
	}
	p.call("close the zygote's files", unix.SYS_CLOSE_RANGE, 3, 0xffffffff, unix.CLOSE_RANGE_CLOEXEC)
	// Handlers back to the default before the signals are let through: the
	// zygote's (Go's) must not run in the child.
	dfl := make([]byte, 32)
	for sig := 1; sig <= 64; sig++ {
		if sig == int(unix.SIGKILL) || sig == int(unix.SIGSTOP) {
			continue
		}
		p.call("signals", unix.SYS_RT_SIGACTION, uintptr(sig), p.bytes(dfl), 0, 8).ok[0] = syscall.EINVAL
	}
	p.keep = append(p.keep, oldMask)
	p.call("signals", unix.SYS_RT_SIGPROCMASK, 2 /* SIG_SETMASK */, uintptr(unsafe.Pointer(oldMask)), 0, 8)
	p.exec = len(p.ops)
	p.call("exec", unix.SYS_EXECVE, p.cstr(s.Path), p.cstrs(append([]string{s.Path}, s.Args...)), p.cstrs(s.Env))
	return p, nil
}

// writeFile writes content to an existing file.
func (p *plan) writeFile(what, path, content string) {
	p.call(what, unix.SYS_OPENAT, atFDCWD, p.cstr(path), unix.O_WRONLY|unix.O_CLOEXEC, 0).out = 1
	b := []byte(content)
	p.call(what, unix.SYS_WRITE, 0, p.bytes(b), uintptr(len(b))).in[0] = 1
	p.call(what, unix.SYS_CLOSE, 0).in[0] = 1
}

// openAt opens path as the file number fd.
func (p *plan) openAt(what, path string, flags, fd int) {
	p.call(what, unix.SYS_OPENAT, atFDCWD, p.cstr(path), uintptr(flags|unix.O_CLOEXEC), 0).out = 1
	p.moveTo(what, fd)
}

// moveTo makes the file in register 1 the file number fd. The kernel may
// have given it that number already (dup3 then says EINVAL, and the file
// must stay open).
func (p *plan) moveTo(what string, fd int) {
	dup := p.call(what, unix.SYS_DUP3, 0, uintptr(fd), unix.O_CLOEXEC)
	dup.in[0], dup.ok[0], dup.skip = 1, syscall.EINVAL, 1
	p.call(what, unix.SYS_CLOSE, 0).in[0] = 1
}

// atFDCWD is AT_FDCWD as a system call argument.
const atFDCWD = ^uintptr(99) // -100

// bindBack is a granted path that lies under a hidden place, opened before
// the tmpfs hides it.
type bindBack struct {
	path string
	fd   int
	dir  bool
	rw   bool
	mask string // the hidden place it lies under
}

// view builds the program's view of the machine: a private /proc, an
// empty tmpfs over the places users keep their files and sockets, and the
// grants under them bound back at their own paths.
func (p *plan) view(s *Spec, newFD func() int) error {
	p.call("private mounts", unix.SYS_MOUNT, p.cstr(""), p.cstr("/"), 0, unix.MS_REC|unix.MS_PRIVATE, 0)
	masks := maskRoots(s.Home)
	if s.RootHost {
		masks = append(masks, closedAncestors(s, masks)...)
	}
	var binds []bindBack
	writable := append(slices.Clone(s.Write), s.Work...)
	add := func(paths []string, rw bool) {
		for _, path := range paths {
			path = filepath.Clean(path)
			i := slices.IndexFunc(masks, func(m string) bool { return under(path, m) })
			if i < 0 {
				continue
			}
			if !rw && slices.ContainsFunc(writable, func(w string) bool { return under(path, filepath.Clean(w)) }) {
				continue // a read grant inside a writable one adds nothing, and must not take writing away
			}
			fi, err := os.Stat(path)
			if err != nil {
				continue // a grant that does not exist gives nothing
			}
			binds = append(binds, bindBack{path: path, fd: newFD(), dir: fi.IsDir(), rw: rw, mask: masks[i]})
		}
	}
	add(s.System, false)
	add(append([]string{s.Dir}, s.Read...), false)
	add(s.Write, true)
	add(s.Work, true)
	// Parents first, so a grant inside another is bound over it; a path
	// granted twice keeps its widest grant.
	slices.SortStableFunc(binds, func(a, b bindBack) int {
		if len(a.path) != len(b.path) {
			return len(a.path) - len(b.path)
		}
		if a.rw != b.rw {
			if a.rw {
				return 1
			}
			return -1
		}
		return 0
	})
	for _, b := range binds {
		p.openAt("show "+b.path, b.path, unix.O_PATH, b.fd)
	}

	// The PID namespace's own /proc, /proc/sys read-only. A kernel that
	// refuses (a container whose /proc has masked entries) leaves the
	// host's, read-only through Landlock.
	proc := p.call("private /proc", unix.SYS_MOUNT, p.cstr("proc"), p.cstr("/proc"), p.cstr("proc"), unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, 0)
	proc.reduce, proc.skip = p.reduction("private /proc", s.Strict), 2
	p.mechanism("private /proc", len(p.ops)-1, len(p.ops)-1)
	p.call("/proc/sys", unix.SYS_MOUNT, p.cstr("/proc/sys"), p.cstr("/proc/sys"), 0, unix.MS_BIND|unix.MS_REC, 0)
	p.call("read-only /proc/sys", unix.SYS_MOUNT, p.cstr(""), p.cstr("/proc/sys"), 0,
		unix.MS_BIND|unix.MS_REMOUNT|unix.MS_RDONLY|unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, 0)

	lim := s.Limits.WithDefaults()
	for _, m := range masks {
		opts := "mode=0755,size=1m"
		switch m {
		case ScratchDir:
			opts = "mode=1777,size=" + strconv.FormatInt(lim.Scratch, 10)
		case "/var/tmp", "/dev/shm":
			opts = "mode=1777,size=64m"
		}
		p.call("hide "+m, unix.SYS_MOUNT, p.cstr("tmpfs"), p.cstr(m), p.cstr("tmpfs"), unix.MS_NOSUID|unix.MS_NODEV, p.cstr(opts))
	}
	for _, b := range binds {
		what := "show " + b.path
		parent := b.path
		if !b.dir {
			parent = filepath.Dir(b.path)
		}
		for _, d := range between(b.mask, parent) {
			p.call(what, unix.SYS_MKDIRAT, atFDCWD, p.cstr(d), 0o755).ok[0] = syscall.EEXIST
		}
		if !b.dir {
			p.call(what, unix.SYS_OPENAT, atFDCWD, p.cstr(b.path), unix.O_CREAT|unix.O_RDONLY|unix.O_CLOEXEC, 0o644).out = 1
			p.call(what, unix.SYS_CLOSE, 0).in[0] = 1
		}
		p.call(what, unix.SYS_MOUNT, p.cstr("/proc/self/fd/"+strconv.Itoa(b.fd)), p.cstr(b.path), 0, unix.MS_BIND|unix.MS_REC, 0)
		if !b.rw {
			flags, err := readOnlyFlags(b.path)
			if err != nil {
				return fmt.Errorf("read-only %s: %w", b.path, err)
			}
			p.call("read-only "+b.path, unix.SYS_MOUNT, p.cstr(""), p.cstr(b.path), 0, flags, 0)
		}
	}
	p.call("scratch home", unix.SYS_MKDIRAT, atFDCWD, p.cstr(ScratchHome), 0o700).ok[0] = syscall.EEXIST
	p.call("scratch home", unix.SYS_FCHOWNAT, atFDCWD, p.cstr(ScratchHome), uintptr(s.UID), uintptr(s.GID), 0)
	return nil
}

// between lists the folders from below root down to dir, dir included.
func between(root, dir string) []string {
	if !under(dir, root) || dir == root {
		return nil
	}
	var out []string
	for d := dir; d != root && d != "/" && d != "."; d = filepath.Dir(d) {
		out = append(out, d)
	}
	slices.Reverse(out)
	return out
}

// readOnlyFlags are the remount flags that make a bind of p read-only,
// keeping the flags a less privileged mount namespace may not clear.
func readOnlyFlags(p string) (uintptr, error) {
	var st unix.Statfs_t
	if err := unix.Statfs(p, &st); err != nil {
		return 0, err
	}
	flags := uintptr(unix.MS_BIND | unix.MS_REMOUNT | unix.MS_RDONLY)
	for _, f := range [][2]uintptr{
		{unix.ST_NOSUID, unix.MS_NOSUID}, {unix.ST_NODEV, unix.MS_NODEV}, {unix.ST_NOEXEC, unix.MS_NOEXEC},
		{unix.ST_NOATIME, unix.MS_NOATIME}, {unix.ST_NODIRATIME, unix.MS_NODIRATIME}, {unix.ST_RELATIME, unix.MS_RELATIME},
	} {
		if uintptr(st.Flags)&f[0] != 0 {
			flags |= f[1]
		}
	}
	return flags, nil
}

// proxyListener listens on loopback in the program's network namespace
// and hands the listening socket to the host, whose proxy serves it.
func (p *plan) proxyListener(ctl, fd int) {
	const what = "proxy listener"
	p.call(what, unix.SYS_SOCKET, unix.AF_INET, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0).out = 1
	p.moveTo(what, fd)
	sa := &unix.RawSockaddrInet4{Family: unix.AF_INET, Addr: [4]byte{127, 0, 0, 1}}
	sa.Port = uint16(proxyPortInside>>8) | uint16(proxyPortInside&0xff)<<8 // network byte order
	p.keep = append(p.keep, sa)
	p.call(what+": bind", unix.SYS_BIND, uintptr(fd), uintptr(unsafe.Pointer(sa)), unix.SizeofSockaddrInet4)
	p.call(what+": listen", unix.SYS_LISTEN, uintptr(fd), 128)
	body := []byte("listener")
	oob := unix.UnixRights(fd)
	iov := &unix.Iovec{Base: &body[0]}
	iov.SetLen(len(body))
	msg := &unix.Msghdr{Iov: iov, Iovlen: 1, Control: &oob[0]}
	msg.SetControllen(len(oob))
	p.keep = append(p.keep, msg, iov, body, oob)
	p.call(what+": send", unix.SYS_SENDMSG, uintptr(ctl), uintptr(unsafe.Pointer(msg)), 0)
}

// limits bounds the processes, file size and core files.
func (p *plan) limits(l Limits) {
	for _, r := range []struct {
		what string
		res  int
		v    uint64
	}{
		{"process limit", unix.RLIMIT_NPROC, uint64(l.Processes)},
		{"file size limit", unix.RLIMIT_FSIZE, uint64(l.FileSize)},
		{"core limit", unix.RLIMIT_CORE, 0},
	} {
		rl := &unix.Rlimit{Cur: r.v, Max: r.v}
		p.keep = append(p.keep, rl)
		p.call(r.what, unix.SYS_PRLIMIT64, 0, uintptr(r.res), uintptr(unsafe.Pointer(rl)), 0)
	}
}

// dropPrivileges leaves the program no capability: the ambient ones
// cleared, the bounding set emptied (where the child may), a root host's
// program switched to nobody, and the rest cleared.
func (p *plan) dropPrivileges(s *Spec) {
	p.call("clear ambient capabilities", unix.SYS_PRCTL, unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)
	for c := 0; c <= unix.CAP_LAST_CAP; c++ {
		// Without CAP_SETPCAP (no namespace of its own) the bounding set
		// stays; no_new_privs keeps the program from gaining any of it.
		o := p.call("drop capability "+strconv.Itoa(c), unix.SYS_PRCTL, unix.PR_CAPBSET_DROP, uintptr(c), 0, 0, 0)
		o.ok = [2]syscall.Errno{syscall.EINVAL, syscall.EPERM}
	}
	if s.RootHost {
		p.call("clear groups", unix.SYS_SETGROUPS, 0, 0)
		p.call("set group", unix.SYS_SETRESGID, uintptr(s.GID), uintptr(s.GID), uintptr(s.GID))
		p.call("set user", unix.SYS_SETRESUID, uintptr(s.UID), uintptr(s.UID), uintptr(s.UID))
	}
	hdr := &unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	data := &[2]unix.CapUserData{}
	p.keep = append(p.keep, hdr, data)
	p.call("clear capabilities", unix.SYS_CAPSET, uintptr(unsafe.Pointer(hdr)), uintptr(unsafe.Pointer(&data[0])))
}

// withProxy points the usual proxy variables at the listener.
func withProxy(env []string, port int) []string {
	url := "http://127.0.0.1:" + strconv.Itoa(port)
	names := []string{"HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy", "NO_PROXY", "no_proxy"}
	env = slices.DeleteFunc(slices.Clone(env), func(kv string) bool {
		k, _, _ := strings.Cut(kv, "=")
		return slices.Contains(names, k)
	})
	for _, n := range names[:6] {
		env = append(env, n+"="+url)
	}
	return env
}

// under reports whether p is root or below it.
func under(p, root string) bool {
	return p == root || root == "/" || strings.HasPrefix(p, root+"/")
}

var errNoLandlock = errors.New("the kernel has no Landlock")

// maskRoots are the places where users keep their files and their
// sessions' sockets (which Landlock does not guard: connecting to a unix
// socket by path is not a file access). Each becomes an empty tmpfs in the
// program's view, with its grants bound back.
func maskRoots(home string) []string {
	roots := []string{"/tmp", "/var/tmp", "/dev/shm", "/run"}
	if home != "" && home != "/" && filepath.IsAbs(home) {
		covered := false
		for _, r := range roots {
			if under(home, r) {
				covered = true
			}
		}
		for _, sys := range DefaultSystemPaths() {
			if under(sys, home) || under(home, sys) {
				covered = true // a HOME of /usr/... or / is no place to hide
			}
		}
		if !covered {
			roots = append(roots, filepath.Clean(home))
		}
	}
	return slices.DeleteFunc(roots, func(r string) bool {
		fi, err := os.Stat(r)
		return err != nil || !fi.IsDir()
	})
}

// closedAncestors are the folders above a root host's grants that others
// may not enter (/root, say, above a pyenv installation): the program,
// nobody, could not reach its grants through them, so they are hidden and
// the grants bound back like those under the other hidden places.
func closedAncestors(s *Spec, masks []string) []string {
	var out []string
	grants := append(append(append(append([]string{s.Dir}, s.System...), s.Read...), s.Write...), s.Work...)
	for _, g := range grants {
		g = filepath.Clean(g)
		if slices.ContainsFunc(append(masks, out...), func(m string) bool { return under(g, m) }) {
			continue
		}
		// The highest folder above g that others may not enter.
		prefix := ""
		for _, part := range strings.Split(strings.TrimPrefix(filepath.Dir(g), "/"), "/") {
			if part == "" {
				break
			}
			prefix += "/" + part
			if closed(prefix) {
				if !slices.Contains(out, prefix) {
					out = append(out, prefix)
				}
				break
			}
		}
	}
	return out
}

func closed(dir string) bool {
	var st unix.Stat_t
	return unix.Stat(dir, &st) == nil && st.Mode&0o001 == 0
}

package confine

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// helperEnv carries the spec to the helper; its presence makes a program
// that imports this package the helper instead of itself.
const helperEnv = "_SKILLKIT_CONFINE_SPEC"

// controlFD is the helper's end of the socket it reports on; it closes on
// the program's exec, which tells the host the program started.
const controlFD = 3

func init() {
	raw, ok := os.LookupEnv(helperEnv)
	if !ok {
		return
	}
	// The main goroutine runs on the main thread while packages initialise:
	// every per-thread setting below (Landlock, seccomp, capabilities,
	// no_new_privs) is made on the thread that calls execve.
	ctl := os.NewFile(controlFD, "control")
	var s Spec
	if err := json.Unmarshal([]byte(raw), &s); err != nil {
		fail(ctl, fmt.Errorf("read the spec: %w", err))
	}
	h := helper{spec: s, ctl: ctl}
	if err := h.run(); err != nil {
		fail(ctl, err)
	}
}

// fail reports err to the host and exits; the host turns it into the start
// error.
func fail(ctl *os.File, err error) {
	_, _ = ctl.Write([]byte("error " + err.Error()))
	os.Exit(126)
}

type helper struct {
	spec    Spec
	ctl     *os.File
	reduced []string
}

func (h *helper) reduce(what string, err error) error {
	if h.spec.Strict {
		return fmt.Errorf("%w: %s: %v", ErrReduced, what, err)
	}
	h.reduced = append(h.reduced, what+": "+err.Error())
	return nil
}

func (h *helper) run() error {
	s := &h.spec
	env := slices.Clone(s.Env)
	if s.Namespaces {
		if s.SelfMap {
			if err := mapSelf(s.UID, s.GID); err != nil {
				return err
			}
		}
		if err := h.buildView(); err != nil {
			return err
		}
		if !s.Network.All {
			if err := loopbackUp(); err != nil {
				if err := h.reduce("loopback", err); err != nil {
					return err
				}
			}
		}
	}
	proxyPort := 0
	if s.Network.Proxy {
		port, err := h.proxyListener()
		if err != nil {
			return fmt.Errorf("proxy listener: %w", err)
		}
		proxyPort = port
		env = withProxy(env, port)
	}
	if err := setLimits(s.Limits.WithDefaults()); err != nil {
		return err
	}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("no_new_privs: %w", err)
	}
	if err := h.landlock(proxyPort); err != nil {
		return err
	}
	if err := dropCapabilities(func() error {
		if s.RootHost && s.Namespaces {
			return becomeUnprivileged(s.UID, s.GID)
		}
		return nil
	}); err != nil {
		return err
	}
	denyNet := !s.Namespaces && !s.Network.All
	if err := installSeccomp(denyNet, s.Network.Proxy); err != nil {
		if err := h.reduce("seccomp", err); err != nil {
			return err
		}
	}
	if err := os.Chdir(s.Dir); err != nil {
		return fmt.Errorf("working folder: %w", err)
	}
	msg := "ok"
	if len(h.reduced) > 0 {
		msg += " " + strings.Join(h.reduced, "; ")
	}
	if _, err := h.ctl.Write([]byte(msg)); err != nil {
		return err
	}
	// Nothing of the helper's passes to the program but its three streams;
	// the control socket's closing tells the host the program started.
	if err := unix.CloseRange(3, ^uint(0), unix.CLOSE_RANGE_CLOEXEC); err != nil {
		return fmt.Errorf("close the helper's files: %w", err)
	}
	err := syscall.Exec(s.Path, append([]string{s.Path}, s.Args...), env)
	// Still here: the program did not start. The host makes this its start
	// error, as os/exec would.
	var errno syscall.Errno
	if !errors.As(err, &errno) {
		return err
	}
	_, _ = h.ctl.Write([]byte("exec " + strconv.Itoa(int(errno))))
	os.Exit(127)
	return nil
}

// mapSelf maps the host's user and group to themselves in the new user
// namespace: an unprivileged process may write that one line for itself.
func mapSelf(uid, gid int) error {
	if err := os.WriteFile("/proc/self/setgroups", []byte("deny"), 0); err != nil {
		return fmt.Errorf("user namespace: %w", err)
	}
	if err := os.WriteFile("/proc/self/uid_map", fmt.Appendf(nil, "%d %d 1", uid, uid), 0); err != nil {
		return fmt.Errorf("user namespace: uid map: %w", err)
	}
	if err := os.WriteFile("/proc/self/gid_map", fmt.Appendf(nil, "%d %d 1", gid, gid), 0); err != nil {
		return fmt.Errorf("user namespace: gid map: %w", err)
	}
	return nil
}

// withProxy points the usual proxy variables at the listener.
func withProxy(env []string, port int) []string {
	url := "http://127.0.0.1:" + strconv.Itoa(port)
	names := []string{"HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy", "NO_PROXY", "no_proxy"}
	env = slices.DeleteFunc(env, func(kv string) bool {
		k, _, _ := strings.Cut(kv, "=")
		return slices.Contains(names, k)
	})
	for _, n := range names[:6] {
		env = append(env, n+"="+url)
	}
	return env
}

// proxyListener listens on loopback in the program's network (its own
// namespace, or the host's without one) and hands the listening socket to
// the host, whose proxy serves it.
func (h *helper) proxyListener() (int, error) {
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return 0, err
	}
	defer unix.Close(fd)
	if err := unix.Bind(fd, &unix.SockaddrInet4{Addr: [4]byte{127, 0, 0, 1}}); err != nil {
		return 0, err
	}
	if err := unix.Listen(fd, 128); err != nil {
		return 0, err
	}
	sa, err := unix.Getsockname(fd)
	if err != nil {
		return 0, err
	}
	port := sa.(*unix.SockaddrInet4).Port
	if err := unix.Sendmsg(int(h.ctl.Fd()), []byte("listener"), unix.UnixRights(fd), nil, 0); err != nil {
		return 0, err
	}
	return port, nil
}

// loopbackUp brings up lo in the new network namespace, so the program can
// talk to itself (and to the proxy's listener).
func loopbackUp() error {
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	ifr, err := unix.NewIfreq("lo")
	if err != nil {
		return err
	}
	ifr.SetUint16(unix.IFF_UP | unix.IFF_LOOPBACK | unix.IFF_RUNNING)
	return unix.IoctlIfreq(fd, unix.SIOCSIFFLAGS, ifr)
}

func setLimits(l Limits) error {
	set := func(res int, v uint64) error {
		return unix.Setrlimit(res, &unix.Rlimit{Cur: v, Max: v})
	}
	if err := set(unix.RLIMIT_NPROC, uint64(l.Processes)); err != nil {
		return fmt.Errorf("process limit: %w", err)
	}
	if err := set(unix.RLIMIT_FSIZE, uint64(l.FileSize)); err != nil {
		return fmt.Errorf("file size limit: %w", err)
	}
	if err := set(unix.RLIMIT_CORE, 0); err != nil {
		return fmt.Errorf("core limit: %w", err)
	}
	return nil
}

// becomeUnprivileged switches a root host's helper to the program's user
// and group, with no supplementary group. On this thread only: it is the
// one that execs the program (the others end there), and Go's own
// setuid would stop every thread of the helper to change them all.
func becomeUnprivileged(uid, gid int) error {
	for _, c := range []struct {
		what string
		nr   uintptr
		args [3]uintptr
	}{
		{"clear groups", unix.SYS_SETGROUPS, [3]uintptr{0, 0, 0}},
		{"set group", unix.SYS_SETRESGID, [3]uintptr{uintptr(gid), uintptr(gid), uintptr(gid)}},
		{"set user", unix.SYS_SETRESUID, [3]uintptr{uintptr(uid), uintptr(uid), uintptr(uid)}},
	} {
		if _, _, errno := unix.RawSyscall(c.nr, c.args[0], c.args[1], c.args[2]); errno != 0 {
			return fmt.Errorf("%s: %w", c.what, errno)
		}
	}
	return nil
}

// dropCapabilities leaves the exec'ing thread with no capability: the
// helper's ambient ones (for the mounts and loopback) are cleared, the
// bounding set emptied, so nothing the program executes regains any;
// lastPrivileged runs in between, while the helper still holds them.
func dropCapabilities(lastPrivileged func() error) error {
	if err := unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0); err != nil {
		return fmt.Errorf("clear ambient capabilities: %w", err)
	}
	for c := 0; c <= unix.CAP_LAST_CAP; c++ {
		// Without CAP_SETPCAP (no namespace of its own) the bounding set
		// stays; no_new_privs keeps the program from gaining any of it.
		if err := unix.Prctl(unix.PR_CAPBSET_DROP, uintptr(c), 0, 0, 0); err != nil && !errors.Is(err, unix.EINVAL) && !errors.Is(err, unix.EPERM) {
			return fmt.Errorf("drop capability %d: %w", c, err)
		}
	}
	if err := lastPrivileged(); err != nil {
		return err
	}
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	if err := unix.Capset(&hdr, &data[0]); err != nil {
		return fmt.Errorf("clear capabilities: %w", err)
	}
	return nil
}

// under reports whether p is root or below it.
func under(p, root string) bool {
	return p == root || root == "/" || strings.HasPrefix(p, root+"/")
}

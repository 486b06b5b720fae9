//go:build linux && (amd64 || arm64)

package confine

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"syscall"

	"golang.org/x/sys/unix"
)

// The zygote is a small process, the host's own executable started again
// (recognised by an init function of this package, before the host's
// main), that starts every confined program for the host. Its memory is a
// few megabytes whatever the host's: the clone that starts a program with
// new namespaces copies no page table (CLONE_VM|CLONE_VFORK), and the
// program is the host's child (CLONE_PARENT), which waits for it and kills
// it as it would its own.
const (
	zygoteEnv = "_SKILLKIT_CONFINE_ZYGOTE"
	zygoteFD  = 3
	// maxMessage bounds a request (the program's arguments and environment
	// are bounded by the kernel far below it) and a response.
	maxMessage = 16 << 20
)

func init() {
	if os.Getenv(zygoteEnv) == "" {
		return
	}
	serveZygote(zygoteFD)
	os.Exit(0)
}

// request asks the zygote to start one program. Its files come with it:
// the program's standard streams, then, with Ctl, where the proxy's
// listener goes.
type request struct {
	Spec   Spec `json:"spec"`
	Refuse bool `json:"refuse,omitempty"`
	Ctl    bool `json:"ctl,omitempty"`
}

// response says how the start went.
type response struct {
	// PID is the program (the host's child), also when its setup failed:
	// the host waits for it.
	PID     int      `json:"pid,omitempty"`
	Reduced []string `json:"reduced,omitempty"`
	// Refused is the kernel's refusal of the namespaces, an errno.
	Refused int `json:"refused,omitempty"`
	// Failed is what failed, with Errno; Exec when it was the exec itself,
	// Strict when only a Strict spec made it fail.
	Failed string `json:"failed,omitempty"`
	Errno  int    `json:"errno,omitempty"`
	Exec   bool   `json:"exec,omitempty"`
	Strict bool   `json:"strict,omitempty"`
}

// serveZygote answers requests on fd until the host closes it.
func serveZygote(fd int) {
	// Others of the host's user may not read what passes through here
	// (the programs' environments); the one moment a child needs otherwise
	// is in the plan.
	_ = unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0)
	// No collection starts by itself: one must never wait for the thread
	// that sleeps in a clone while a root host's ID maps are written (see
	// idMapper). The zygote collects between requests instead.
	debug.SetGCPercent(-1)
	conn := os.NewFile(uintptr(fd), "zygote")
	for served := 1; ; served++ {
		if served%32 == 0 {
			runtime.GC()
		}
		raw, fds, err := readMessage(conn, true)
		if err != nil {
			return
		}
		resp := launch(raw, fds)
		for _, f := range fds {
			unix.Close(f)
		}
		out, _ := json.Marshal(resp) // a response always marshals
		if err := writeMessage(conn, out, nil); err != nil {
			return
		}
	}
}

// launch starts one program as the request says.
func launch(raw []byte, fds []int) response {
	var req request
	if err := json.Unmarshal(raw, &req); err != nil {
		return response{Failed: "read the request: " + err.Error()}
	}
	want := 3
	if req.Ctl {
		want = 4
	}
	if len(fds) != want {
		return response{Failed: fmt.Sprintf("the request came with %d files, not %d", len(fds), want)}
	}
	s := req.Spec
	ctl := -1
	if req.Ctl {
		ctl = fds[3]
	}
	oldMask := new(uint64)
	var sync *idMapper
	if s.Namespaces && s.RootHost {
		if err := mapper.start(); err != nil {
			return response{Failed: "user namespace: " + err.Error()}
		}
		sync = &mapper
	}
	p, err := compile(&s, [3]int{fds[0], fds[1], fds[2]}, ctl, sync, oldMask)
	if err != nil {
		return response{Failed: err.Error(), Strict: errors.Is(err, ErrReduced)}
	}
	flags := uintptr(unix.SIGCHLD | unix.CLONE_VM | unix.CLONE_VFORK | unix.CLONE_PARENT)
	if s.Namespaces {
		flags |= unix.CLONE_NEWUSER | unix.CLONE_NEWPID | unix.CLONE_NEWNS | unix.CLONE_NEWIPC | unix.CLONE_NEWUTS
		if s.RootHost {
			flags |= unix.CLONE_PARENT_SETTID
		}
		if !s.Network.All {
			flags |= unix.CLONE_NEWNET
		}
	}
	if req.Refuse {
		// As a kernel without unprivileged namespaces does: clone(2)
		// refuses CLONE_NEWNS (and CLONE_NEWUSER) with CLONE_FS.
		flags |= unix.CLONE_FS
	}
	mapper.ptid = 0
	pid, res, errno := p.run(flags, &mapper.ptid, oldMask)
	if errno != 0 || res.failed >= 0 {
		// A child that failed may have left the dumpable flag they share
		// set (one that started the program cleared it).
		_ = unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0)
	}
	if sync != nil {
		if failed := sync.failed.Swap(nil); failed != nil && errno == 0 {
			return response{PID: pid, Failed: "user namespace: " + *failed}
		}
	}
	if errno != 0 {
		if s.Namespaces && startRefused(errno) {
			return response{Refused: int(errno)}
		}
		return response{Failed: "clone", Errno: int(errno)}
	}
	resp := response{PID: pid, Reduced: p.reduced}
	if res.failed >= 0 {
		i := int(res.failed)
		_, strict := p.strictly[i]
		resp.Failed, resp.Errno, resp.Exec, resp.Strict = p.what[i], int(res.errno), i == p.exec, strict && s.Strict
		return resp
	}
	for i, name := range p.reductions {
		if e := res.reduced[i]; e != 0 {
			resp.Reduced = append(resp.Reduced, name+": "+syscall.Errno(e).Error())
		}
	}
	return resp
}

// idMapper writes the ID maps of a root host's programs: 0 and nobody to
// themselves, two lines that only a process privileged outside the new
// user namespace may write. The child, its memory shared with the zygote's
// sleeping thread, asks on ready and waits on proceed; a goroutine on
// another thread (the zygote runs two) writes the maps in between. A user
// namespace of its own per program keeps nobody's process count per
// program: one program's processes do not keep another from starting.
type idMapper struct {
	once           sync.Once
	err            error
	ready, proceed [2]int // pipes: read end, write end
	ptid           int32  // the child's PID, stored by the kernel
	failed         atomic.Pointer[string]
}

var mapper idMapper

func (m *idMapper) start() error {
	m.once.Do(func() {
		for _, p := range []*[2]int{&m.ready, &m.proceed} {
			if m.err = unix.Pipe2(p[:], unix.O_CLOEXEC); m.err != nil {
				return
			}
		}
		go m.serve()
	})
	return m.err
}

func (m *idMapper) serve() {
	runtime.LockOSThread()
	buf := make([]byte, 1)
	for {
		if _, err := unix.Read(m.ready[0], buf); err != nil {
			if err == unix.EINTR {
				continue
			}
			return
		}
		pid := int(atomic.LoadInt32(&m.ptid))
		if err := writeRootMaps(pid); err != nil {
			msg := err.Error()
			m.failed.Store(&msg)
			_ = unix.Kill(pid, unix.SIGKILL)
			continue
		}
		_, _ = unix.Write(m.proceed[1], buf)
	}
}

func writeRootMaps(pid int) error {
	maps := fmt.Sprintf("0 0 1\n%d %d 1\n", unprivilegedID, unprivilegedID)
	for _, f := range []string{"uid_map", "gid_map"} {
		if err := os.WriteFile(fmt.Sprintf("/proc/%d/%s", pid, f), []byte(maps), 0); err != nil {
			return err
		}
	}
	return nil
}

// startRefused tells a kernel that refuses namespaces from other failures.
func startRefused(err error) bool {
	return errors.Is(err, syscall.EPERM) || errors.Is(err, syscall.EINVAL) ||
		errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EUSERS) || errors.Is(err, syscall.EACCES)
}

// A message is a 4-byte length and that many bytes; files travel with the
// length.
func writeMessage(conn *os.File, body []byte, fds []int) error {
	var head [4]byte
	binary.BigEndian.PutUint32(head[:], uint32(len(body)))
	raw, err := conn.SyscallConn()
	if err != nil {
		return err
	}
	var sendErr error
	if err := raw.Write(func(fd uintptr) bool {
		var oob []byte
		if len(fds) > 0 {
			oob = unix.UnixRights(fds...)
		}
		sendErr = unix.Sendmsg(int(fd), head[:], oob, nil, 0)
		return sendErr != unix.EAGAIN
	}); err != nil {
		return err
	}
	if sendErr != nil {
		return sendErr
	}
	_, err = conn.Write(body)
	return err
}

// readMessage reads one message and, with files, the files that came with
// it.
func readMessage(conn *os.File, files bool) ([]byte, []int, error) {
	var head [4]byte
	var fds []int
	raw, err := conn.SyscallConn()
	if err != nil {
		return nil, nil, err
	}
	n := 0
	var recvErr error
	if err := raw.Read(func(fd uintptr) bool {
		oob := make([]byte, unix.CmsgSpace(4*4))
		var oobn int
		n, oobn, _, _, recvErr = unix.Recvmsg(int(fd), head[:], oob, unix.MSG_CMSG_CLOEXEC)
		if recvErr == unix.EAGAIN {
			return false
		}
		if recvErr == nil && files && oobn > 0 {
			fds, recvErr = parseRights(oob[:oobn])
		}
		return true
	}); err != nil {
		return nil, nil, err
	}
	if recvErr != nil {
		return nil, nil, recvErr
	}
	if n == 0 {
		return nil, nil, io.EOF
	}
	if _, err := io.ReadFull(conn, head[n:]); err != nil {
		return nil, fds, err
	}
	size := binary.BigEndian.Uint32(head[:])
	if size > maxMessage {
		return nil, fds, fmt.Errorf("a message of %d bytes", size)
	}
	body := make([]byte, size)
	if _, err := io.ReadFull(conn, body); err != nil {
		return nil, fds, err
	}
	return body, fds, nil
}

func parseRights(oob []byte) ([]int, error) {
	msgs, err := unix.ParseSocketControlMessage(oob)
	if err != nil {
		return nil, err
	}
	var fds []int
	for i := range msgs {
		got, err := unix.ParseUnixRights(&msgs[i])
		if err != nil {
			return nil, err
		}
		fds = append(fds, got...)
	}
	return fds, nil
}

// zygote is the host's zygote, started at the first confined start and
// again if it ended.
var zygote struct {
	sync.Mutex
	conn *os.File
}

// askZygote sends one request and returns the response. A zygote that
// ended is started again, once, when the request could not even be sent:
// a request it read is never repeated.
func askZygote(req request, files []*os.File) (response, error) {
	body, err := json.Marshal(req)
	if err != nil {
		return response{}, err
	}
	if len(body) > maxMessage {
		return response{}, fmt.Errorf("confine: the program's arguments and environment are too large (%d bytes)", len(body))
	}
	fds := make([]int, len(files))
	for i, f := range files {
		fds[i] = int(f.Fd())
	}
	zygote.Lock()
	defer zygote.Unlock()
	for attempt := 0; ; attempt++ {
		if zygote.conn == nil {
			if err := startZygote(); err != nil {
				return response{}, err
			}
		}
		err := writeMessage(zygote.conn, body, fds)
		if err != nil {
			zygote.conn.Close()
			zygote.conn = nil
			if attempt == 0 {
				continue
			}
			return response{}, fmt.Errorf("confine: the zygote: %w", err)
		}
		raw, _, err := readMessage(zygote.conn, false)
		if err != nil {
			zygote.conn.Close()
			zygote.conn = nil
			return response{}, fmt.Errorf("confine: the zygote ended: %w", err)
		}
		var resp response
		if err := json.Unmarshal(raw, &resp); err != nil {
			return response{}, fmt.Errorf("confine: the zygote's answer: %w", err)
		}
		return resp, nil
	}
}

func startZygote() error {
	pair, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return fmt.Errorf("confine: start the zygote: %w", err)
	}
	child := os.NewFile(uintptr(pair[1]), "zygote")
	defer child.Close()
	cmd := exec.Command("/proc/self/exe")
	cmd.Args = []string{"skillkit-confine-zygote"}
	// One request at a time, a few megabytes; a second processor for the
	// ID maps of a root host (see idMapper).
	cmd.Env = []string{zygoteEnv + "=1", "GOMAXPROCS=2"}
	cmd.ExtraFiles = []*os.File{child}
	// Its own process group: a terminal's interrupt is for the host.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		unix.Close(pair[0])
		return fmt.Errorf("confine: start the zygote: %w", err)
	}
	// It ends when the host closes its end, or with the host.
	go func() { _ = cmd.Wait() }()
	zygote.conn = os.NewFile(uintptr(pair[0]), "zygote")
	return nil
}

//go:build linux && (amd64 || arm64)

package confine

import (
	"runtime"
	"syscall"
	"unsafe"
)

// A plan is the child's whole setup, from the clone to the exec, as a list
// of system calls worked out beforehand. The child shares the starting
// process's memory (CLONE_VM|CLONE_VFORK: no page table is copied, whatever
// the size of the process), so it may run no Go code that allocates, grows
// its stack or takes a lock: it only walks the list.
type plan struct {
	ops  []op
	what []string // what each op does, for the error that names it
	// strictly[i] names the mechanism op i applies when a failure there
	// must fail the start only because the spec is Strict.
	strictly   map[int]string
	reductions []string // the mechanisms a reduce slot stands for
	reduced    []string // mechanisms known to be missing before the start
	keep       []any    // what the ops point into, alive until the clone returns
	exec       int      // index of the execve op
}

// op is one system call of a plan.
type op struct {
	nr   uintptr
	args [6]uintptr
	// in[j], when not 0, is the register whose value replaces args[j];
	// out is the register that receives the result (0: none).
	in  [6]int8
	out int8
	// A failure with an errno in ok, or any errno with anyOK, skips the
	// next skip ops and goes on; with reduce set it is recorded in that
	// reduction slot and does the same. Any other failure ends the child.
	ok     [2]syscall.Errno
	anyOK  bool
	reduce int8
	skip   int32
}

const (
	registers     = 2
	maxReductions = 8
)

// childResult is what the child leaves in the shared memory.
type childResult struct {
	failed  int64 // index of the op that failed; -1 when the exec happened
	errno   uintptr
	reduced [maxReductions]uintptr
}

// rawVforkClone is clone(2) with the caller's stack (vfork_linux_*.s);
// with CLONE_PARENT_SETTID the kernel stores the child's PID at ptid.
func rawVforkClone(flags, ptid uintptr) (pid uintptr, errno uintptr)

// forkRun clones with flags and runs ops in the child. The parent returns
// at once with the child's PID, after the child's exec or exit.
//
// The child runs on the parent's stack and in its memory: it calls only
// RawSyscall6 (assembly and nosplit underneath) and writes only res and its
// own locals; the parent reads nothing of its frame after the clone.
//
//go:norace
//go:nocheckptr
//go:noinline
func forkRun(flags, ptid uintptr, ops []op, res *childResult) (pid uintptr, errno uintptr) {
	pid, errno = rawVforkClone(flags, ptid)
	if errno != 0 || pid != 0 {
		return pid, errno
	}
	var regs [registers + 1]uintptr
	for i := 0; i < len(ops); i++ {
		o := &ops[i]
		a := o.args
		for j := 0; j < 6; j++ {
			if o.in[j] != 0 {
				a[j] = regs[o.in[j]]
			}
		}
		r, _, e := syscall.RawSyscall6(o.nr, a[0], a[1], a[2], a[3], a[4], a[5])
		if e == 0 {
			regs[o.out] = r
			continue
		}
		if o.anyOK || e == o.ok[0] || e == o.ok[1] {
			i += int(o.skip)
			continue
		}
		if o.reduce != 0 {
			res.reduced[o.reduce-1] = uintptr(e)
			i += int(o.skip)
			continue
		}
		res.failed = int64(i)
		res.errno = uintptr(e)
		syscall.RawSyscall(syscall.SYS_EXIT_GROUP, 127, 0, 0)
	}
	syscall.RawSyscall(syscall.SYS_EXIT_GROUP, 127, 0, 0)
	return 0, 0
}

// run starts the plan's child with the clone flags. The signals stay
// blocked from before the clone until the child has reset their handlers
// (a Go handler must never run in it); it unblocks them just before exec.
func (p *plan) run(flags uintptr, ptid *int32, oldMask *uint64) (int, *childResult, syscall.Errno) {
	res := &childResult{failed: -1}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	all := ^uint64(0)
	syscall.RawSyscall6(syscall.SYS_RT_SIGPROCMASK, 2 /* SIG_SETMASK */, uintptr(unsafe.Pointer(&all)), uintptr(unsafe.Pointer(oldMask)), 8, 0, 0)
	pid, errno := forkRun(flags, uintptr(unsafe.Pointer(ptid)), p.ops, res)
	syscall.RawSyscall6(syscall.SYS_RT_SIGPROCMASK, 2, uintptr(unsafe.Pointer(oldMask)), 0, 8, 0, 0)
	runtime.KeepAlive(p)
	runtime.KeepAlive(oldMask)
	runtime.KeepAlive(ptid)
	return int(pid), res, syscall.Errno(errno)
}

// call appends one system call; the returned op may be adjusted until the
// next call.
func (p *plan) call(what string, nr uintptr, args ...uintptr) *op {
	o := op{nr: nr}
	copy(o.args[:], args)
	p.ops = append(p.ops, o)
	p.what = append(p.what, what)
	return &p.ops[len(p.ops)-1]
}

// cstr is s as a C string the child can pass.
func (p *plan) cstr(s string) uintptr {
	b := append([]byte(s), 0)
	p.keep = append(p.keep, b)
	return uintptr(unsafe.Pointer(&b[0]))
}

// bytes is b for the child to read.
func (p *plan) bytes(b []byte) uintptr {
	if len(b) == 0 {
		return 0
	}
	p.keep = append(p.keep, b)
	return uintptr(unsafe.Pointer(&b[0]))
}

// cstrs is a NULL-terminated array of C strings.
func (p *plan) cstrs(list []string) uintptr {
	arr := make([]uintptr, len(list)+1)
	for i, s := range list {
		arr[i] = p.cstr(s)
	}
	p.keep = append(p.keep, arr)
	return uintptr(unsafe.Pointer(&arr[0]))
}

// reduction is the slot of a mechanism the kernel may refuse: in a Strict
// spec none exists and its failure fails the start.
func (p *plan) reduction(name string, strict bool) int8 {
	if strict {
		return 0
	}
	for i, n := range p.reductions {
		if n == name {
			return int8(i + 1)
		}
	}
	p.reductions = append(p.reductions, name)
	return int8(len(p.reductions))
}

// mechanism marks the ops first to last as applying name, for a Strict
// spec's error.
func (p *plan) mechanism(name string, first, last int) {
	if p.strictly == nil {
		p.strictly = map[int]string{}
	}
	for i := first; i <= last; i++ {
		p.strictly[i] = name
	}
}

#include "textflag.h"

// func rawVforkClone(flags, ptid uintptr) (pid uintptr, errno uintptr)
//
// clone(2) with the caller's stack: with CLONE_VM|CLONE_VFORK the child
// runs on this stack while the parent sleeps, and its calls overwrite the
// return address stored there; the parent keeps its own in a register.
TEXT ·rawVforkClone(SB),NOSPLIT|NOFRAME,$0-32
	MOVQ	flags+0(FP), DI
	MOVQ	$0, SI
	MOVQ	ptid+8(FP), DX
	MOVQ	$0, R10
	MOVQ	$0, R8
	MOVQ	$0, R9
	MOVQ	$56, AX // SYS_clone
	POPQ	R12
	SYSCALL
	PUSHQ	R12
	CMPQ	AX, $0xfffffffffffff001
	JLS	ok
	MOVQ	$-1, pid+16(FP)
	NEGQ	AX
	MOVQ	AX, errno+24(FP)
	RET
ok:
	MOVQ	AX, pid+16(FP)
	MOVQ	$0, errno+24(FP)
	RET

#include "textflag.h"

// func rawVforkClone(flags, ptid uintptr) (pid uintptr, errno uintptr)
//
// clone(2) with the caller's stack (see the amd64 version); the return
// address lives in the link register, which each thread keeps.
TEXT ·rawVforkClone(SB),NOSPLIT|NOFRAME,$0-32
	MOVD	flags+0(FP), R0
	MOVD	$0, R1
	MOVD	ptid+8(FP), R2
	MOVD	$0, R3
	MOVD	$0, R4
	MOVD	$0, R5
	MOVD	$220, R8 // SYS_clone
	SVC
	CMN	$4095, R0
	BCC	ok
	MOVD	$-1, R4
	MOVD	R4, pid+16(FP)
	NEG	R0, R0
	MOVD	R0, errno+24(FP)
	RET
ok:
	MOVD	R0, pid+16(FP)
	MOVD	ZR, errno+24(FP)
	RET

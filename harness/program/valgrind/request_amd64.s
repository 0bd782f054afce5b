#include "textflag.h"

// func clientRequest(args *[6]uintptr, def uintptr) uintptr
//
// valgrind.h, amd64: RAX = &args, RDX = default; the preamble rotates RDI by
// 3+13+61+51 = 128 bits (a no-op), then `xchgq %rbx,%rbx` marks the request;
// Valgrind leaves the result in RDX.
TEXT ·clientRequest(SB), NOSPLIT, $0-24
	MOVQ args+0(FP), AX
	MOVQ def+8(FP), DX
	ROLQ $3, DI
	ROLQ $13, DI
	ROLQ $61, DI
	ROLQ $51, DI
	XCHGQ BX, BX
	MOVQ DX, ret+16(FP)
	RET

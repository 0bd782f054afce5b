#include "textflag.h"

// func clientRequest(args *[6]uintptr, def uintptr) uintptr
//
// valgrind.h, arm64: X4 = &args, X3 = default; the preamble rotates X12 by
// 3+13+51+61 = 128 bits (a no-op), then `orr x10, x10, x10` marks the
// request; Valgrind leaves the result in X3. Written as machine words so the
// bytes are exactly the ones Valgrind's decoder looks for.
TEXT ·clientRequest(SB), NOSPLIT, $0-24
	MOVD args+0(FP), R4
	MOVD def+8(FP), R3
	WORD $0x93cc0d8c // ror x12, x12, #3
	WORD $0x93cc358c // ror x12, x12, #13
	WORD $0x93cccd8c // ror x12, x12, #51
	WORD $0x93ccf58c // ror x12, x12, #61
	WORD $0xaa0a014a // orr x10, x10, x10
	MOVD R3, ret+16(FP)
	RET

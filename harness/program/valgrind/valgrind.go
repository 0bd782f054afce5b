// Package valgrind issues Valgrind client requests from Go: the magic
// instruction sequence valgrind.h emits, which is a no-op on a real CPU and a
// call into Valgrind under it. Only the requests wiregate uses are here:
// "am I under Valgrind" and callgrind's collection control, which let a
// program count exactly the instructions of one loop.
//
// The sequences and request numbers are those of valgrind.h and callgrind.h
// (Valgrind 3.19; unchanged since 3.11). On an architecture without a stub
// every request returns its default, as it would natively.
package valgrind

import "runtime"

// Core and callgrind request numbers: VG_USERREQ_TOOL_BASE('C','T') + n for
// callgrind (callgrind.h), 0x1001 for RUNNING_ON_VALGRIND (valgrind.h).
const (
	reqRunningOnValgrind = 0x1001
	callgrindBase        = 'C'<<24 | 'T'<<16
	reqDumpStatsAt       = callgrindBase + 3
	reqZeroStats         = callgrindBase + 1
	reqToggleCollect     = callgrindBase + 2
	reqStartInstr        = callgrindBase + 4
	reqStopInstr         = callgrindBase + 5
)

// Supported says whether this architecture has a client-request stub.
const Supported = runtime.GOARCH == "amd64" || runtime.GOARCH == "arm64"

func request(req uintptr, a1 uintptr) uintptr {
	args := [6]uintptr{req, a1}
	return clientRequest(&args, 0)
}

// Running reports whether the program runs under Valgrind (any tool).
func Running() bool { return request(reqRunningOnValgrind, 0) != 0 }

// StartInstrumentation switches callgrind's instrumentation on (the program
// runs under --instr-atstart=no until then: set-up runs at Valgrind's
// uninstrumented speed). Switching flushes Valgrind's translation cache:
// the code that runs next is translated again, which costs milliseconds
// and counts nothing.
func StartInstrumentation() { request(reqStartInstr, 0) }

// StopInstrumentation switches callgrind's instrumentation off again, so
// what runs between two counted loops (the next loop's preparation) runs at
// Valgrind's uninstrumented speed, several times faster.
func StopInstrumentation() { request(reqStopInstr, 0) }

// ZeroStats resets callgrind's counters.
func ZeroStats() { request(reqZeroStats, 0) }

// ToggleCollect flips whether callgrind counts the calling thread's
// instructions (the collect state is per thread: other threads keep
// theirs, off under --collect-atstart=no).
func ToggleCollect() { request(reqToggleCollect, 0) }

// DumpStatsAt writes a callgrind dump of the counters since the last dump or
// zero, described as "Client Request: <label>", and zeroes them.
func DumpStatsAt(label string) {
	b := append([]byte(label), 0)
	request(reqDumpStatsAt, uintptrOf(b))
	runtime.KeepAlive(b)
}

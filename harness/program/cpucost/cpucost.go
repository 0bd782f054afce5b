// Package cpucost counts the instructions each encode and decode executes,
// exactly, by running the bench program under Valgrind's callgrind. Wall
// time depends on the runner, its neighbours and code layout; instruction
// counts of the same program on the same records do not, so a change in
// them is the schema's (or the code's) own.
//
// The bench program marks what is counted (see runner's count subcommand
// and bench.Measured): start-up, record generation and the correctness gate
// run uninstrumented, and each loop is counted in its own collection window
// and dumped under its benchmark name. This package starts that program
// under callgrind, reads the dumps, and returns typed results; Write prints
// them as benchfmt lines in the instr/op unit.
package cpucost

import (
	"time"
)

// DefaultRotations is how many whole rotations of the record pool each loop
// counts (1024 operations for the 256-record pool). What still moves
// between identical runs is mostly a fixed cost per loop (the page
// allocator refilling a cache, a scheduler preemption: a few thousand
// instructions), so longer loops dilute it; 4 measured best (protobuf and
// Avro within 0.09% over 10 counts; docs/harness.md, "CPU cost"). The
// counted loops are a small part of a count's time.
const DefaultRotations = 4

// WarmOps is how many operations each loop runs before anything is
// counted (uninstrumented, so cheap): Go builds a type-assertion site's
// cache on about 1 in 1024 slow-path calls, at random, and a loop counted
// before its caches exist pays a random number of slow paths. After 16384
// calls a site is still uncached with probability e^-16 ≈ 1e-7.
const WarmOps = 16384

// MinWarmOps is the fewest a loop of slow operations is warmed with, and
// warmNs the operation cost above which fewer than WarmOps suffice: an
// operation that takes tens of microseconds calls each of its
// type-assertion sites many times, and a site still uncached after the
// warm-up costs ~70 instructions per call against hundreds of thousands per
// operation. Counted with 1,024 warm operations instead of 16,384,
// batch.v1.LogBatch and tree.v1.Sprawl (50–230 µs an operation) gave the
// same instr/op within the spread of identical counts (0.44% JSON, 0.03%
// protobuf and Avro; docs/figures.md), and the warm-up was most of their
// counting time.
const (
	MinWarmOps = 1024
	warmNs     = 5000
)

// WarmFor is how many operations to warm a loop with, by what one takes
// natively (opNs, an encode or a decode; 0 when unknown): WarmOps up to
// warmNs, proportionally fewer above it, never fewer than MinWarmOps.
func WarmFor(opNs float64) int {
	if opNs <= warmNs {
		return WarmOps
	}
	return max(MinWarmOps, int(WarmOps*warmNs/opNs))
}

// Options control a count.
type Options struct {
	// Valgrind is the valgrind binary; "valgrind" on PATH when empty.
	Valgrind string
	// Rotations of the pool per loop; DefaultRotations when 0.
	Rotations int
	// OpNs are the native nanoseconds of one encode or decode (the slower)
	// by "message/format", when known (the sizes stage's price): a loop of
	// slow operations is warmed with fewer of them (WarmFor). Unknown:
	// WarmOps.
	OpNs map[string]float64
	// CacheSim adds callgrind's cache simulation, for the estimated-cycles
	// figure (informational: it moves by up to 2.4% between identical
	// counts, and it costs up to 3× the counting time).
	CacheSim bool
	// Ops to count; both encode and decode when empty.
	Ops []string
	// KeepDumps, when set, is a directory the callgrind dumps are copied
	// into (one subdirectory per Valgrind process), for callgrind_annotate
	// or KCachegrind: where the instructions went.
	KeepDumps string
	// Parallel is how many Valgrind processes run at once; the number of
	// CPUs when 0. Each runs one thread at a time.
	Parallel int
	// ProcessTimeout bounds each Valgrind process; DefaultProcessTimeout
	// when 0.
	ProcessTimeout time.Duration
}

// DefaultProcessTimeout bounds one Valgrind process (one message × format):
// far above what a count takes (docs/figures.md, "Instructions per
// operation"); a Valgrind that hangs must end as an error, not hold the
// gate until the job's own timeout.
const DefaultProcessTimeout = 5 * time.Minute

// Counts is the outcome of one count: results, or why there are none.
type Counts struct {
	// Unavailable says, in one line, why nothing was counted: Valgrind is
	// not installed, or this platform has no Valgrind. It is not an error:
	// a gate goes on without CPU counts and says why.
	Unavailable string   `json:"unavailable,omitempty"`
	Results     []Result `json:"results,omitempty"`
	// Tool is the counter, e.g. "callgrind (Valgrind-3.19.0)".
	Tool    string  `json:"tool,omitempty"`
	Seconds float64 `json:"seconds"`
}

// Result is the count of one op on one case.
type Result struct {
	Name         string `json:"name"` // BenchmarkEncode/<message>/<format>
	Ops          int    `json:"ops"`  // operations counted (whole rotations)
	Instructions uint64 `json:"instructions"`
	// EstimatedCycles is set only with Options.CacheSim (see cycles.go).
	EstimatedCycles uint64 `json:"estimated_cycles,omitempty"`
}

// InstrPerOp is instructions per operation.
func (r Result) InstrPerOp() float64 { return float64(r.Instructions) / float64(r.Ops) }

// CyclesPerOp is estimated cycles per operation (0 without cache simulation).
func (r Result) CyclesPerOp() float64 { return float64(r.EstimatedCycles) / float64(r.Ops) }

func since(t time.Time) float64 { return time.Since(t).Seconds() }

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

// Options control a count.
type Options struct {
	// Valgrind is the valgrind binary; "valgrind" on PATH when empty.
	Valgrind string
	// Length is what every loop counts and warms, when set; else each
	// process's length is LengthFor its format and its records' bytes.
	Length *Length
	// Bytes are the records' mean encoded bytes by "message/format", when
	// known (the sizes stage's exact figure), the same for both sides of a
	// comparison: a count of costly operations is shorter and warmed with
	// fewer of them (LengthFor).
	Bytes map[string]float64
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
	// Batch is how many messages one Valgrind process counts; 0 spreads
	// them evenly over Parallel processes.
	Batch int
	// Profiles asks for each loop's profile (Result.Profile): where its
	// instructions went, by function, read from the loop's own dump.
	Profiles bool
	// ProcessTimeout bounds each Valgrind process; DefaultProcessTimeout
	// when 0.
	ProcessTimeout time.Duration
	// Added is a directory a sizes run saved head's records with their
	// added content in: each process also counts every message saved there
	// on them (Result.Added). Empty: none.
	Added string
	// AddedMessages, when set, are the only messages whose added content
	// the process counts.
	AddedMessages []string
	// CPUs, when set, are the only CPUs the Valgrind processes run on
	// (taskset): counts beside the bench rounds keep off the CPU the
	// timings are pinned to (pin.Others). A count is the same on any CPU.
	CPUs []int
}

// DefaultProcessTimeout bounds one Valgrind process (a batch of messages):
// far above what a count takes (docs/figures.md, "What does a count
// process cost?"); a Valgrind that hangs must end as an error, not hold the
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
	// MessageSeconds is what each message took inside its process:
	// loading its records, warming and counting its loops (the process's
	// start is its batch's, not any message's).
	MessageSeconds map[string]float64 `json:"message_seconds,omitempty"`
}

// Result is the count of one op on one case.
type Result struct {
	Name         string `json:"name"` // BenchmarkEncode/<message>/<format>
	Ops          int    `json:"ops"`  // operations counted (whole passes over the first records of the pool)
	Instructions uint64 `json:"instructions"`
	// Uncached is what calls into the runtime's slow paths took in the
	// counted loop (slowPaths: type-assertion sites whose cache did not
	// hold the type), left out of Instructions.
	Uncached uint64 `json:"uncached_instructions,omitempty"`
	// Added marks a loop over head's records with their added content
	// (Options.Added), counted beside the same-content loop of its name.
	Added bool `json:"added,omitempty"`
	// EstimatedCycles is set only with Options.CacheSim (see cycles.go).
	EstimatedCycles uint64 `json:"estimated_cycles,omitempty"`
	// Profile is where the loop's instructions went per operation, with
	// Options.Profiles; the gate compares it, the report holds only what
	// moved (report.FunctionCost).
	Profile Profile `json:"-"`
}

// InstrPerOp is instructions per operation.
func (r Result) InstrPerOp() float64 { return float64(r.Instructions) / float64(r.Ops) }

// CyclesPerOp is estimated cycles per operation (0 without cache simulation).
func (r Result) CyclesPerOp() float64 { return float64(r.EstimatedCycles) / float64(r.Ops) }

func since(t time.Time) float64 { return time.Since(t).Seconds() }

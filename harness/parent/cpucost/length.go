package cpucost

import (
	"math"

	"github.com/wiregate/wiregate/harness/program/bench"
	"github.com/wiregate/wiregate/harness/program/record"
)

// A count is as long as its precision needs, not as long as a habit: what
// moves between identical counted loops, beyond what each operation's own
// hash-seed luck does (which no length dilutes), is a fixed cost per loop
// (a page-cache refill, a scheduler tick: FixedLoopInstr at most,
// docs/design/counting-at-the-floor.md), so a loop counts enough operations that this fixed
// cost is under a fifth of the count's noise floor, and no more. A tiny
// message needs several rotations of the pool; most real messages one; a
// message whose one rotation is far past what its floor needs is counted
// over the first records of its pool (the same paired records on both
// sides).
const (
	// FixedLoopInstr bounds the instructions that move between identical
	// counted loops of the same length, whatever the length: twice the
	// largest jump seen (2,088, a 256-operation protobuf encode; shorter
	// loops of the same message counted identically;
	// docs/design/counting-at-the-floor.md).
	FixedLoopInstr = 4000
	// precisionShare: the fixed cost stays under a fifth of the floor.
	// Each floor is at least twice the largest spread between identical
	// counts, so that spread and this cost together stay under it; a
	// tenth doubled every count and its warm-up for a margin no A/A
	// asked for (docs/design/counting-at-the-floor.md).
	precisionShare = 0.2
	// minRecords is the fewest records a loop counts: a few records would
	// let one record's shape speak for the message.
	minRecords = 32
	// maxPasses bounds the rotations of a tiny message.
	maxPasses = 64
)

// instrPerByte turns a record's encoded bytes into the instructions of its
// cheaper op, to size a count before anything was counted: each at or
// under the least its format's cheaper op ran on the measured module
// (docs/results/instr-per-byte.txt, which a test reads). Bytes, not a
// timing: a count's span must be the same wherever and whenever the same
// records are counted (shards on other machines, history), and bytes are
// exact. Too low counts longer than needed; too high would count shorter
// than the precision asks. A format not listed uses defaultInstrPerByte.
var instrPerByte = map[string]float64{
	"json":     24,
	"protobuf": 20,
}

// defaultInstrPerByte is every other format's estimate. Avro keeps it
// although some of its messages run under it (long strings are copied
// whole): lower, a record near the cap would count twice as long for a
// margin its floor already holds (docs/design/counting-at-the-floor.md).
const defaultInstrPerByte = 16.0

// The warm-up: Go fills a type-assertion site's cache on about 1 in
// slowPathEvery slow-path calls, each ~slowPathInstr instructions. A site
// called h times an operation is still uncached after w warm operations
// with probability e^(-wh/1024), costing h·70 instructions an operation;
// over every h that is at most 1024·70/(e·w) an operation. Warm operations
// enough to keep that under precisionShare of the floor: about 8,000 for
// a 3,000-instruction protobuf decode (its floor is 16 instr/op), a few
// hundred for a 100,000-instruction one.
const (
	slowPathEvery = 1024
	slowPathInstr = 70
)

// Length is what one count process runs for each of its loops: the span
// counted and the operations warmed uninstrumented before.
type Length struct {
	Span bench.Span
	Warm int
}

// Ops is how many operations the length counts per loop.
func (l Length) Ops() int { return l.Span.Ops(record.PoolSize) }

// LengthFor is the length of a count of format whose cheaper op runs about
// instrPerOp instructions (0 when unknown: the length of a cheap message,
// the longest). Both sides of a message must be counted with the same
// length: the caller estimates once for both.
func LengthFor(format string, instrPerOp float64) Length {
	floor := FloorInstr(format, instrPerOp)
	need := int(math.Ceil(FixedLoopInstr / (precisionShare * floor)))
	warm := int(math.Ceil(slowPathEvery * slowPathInstr / math.E / (precisionShare * floor)))
	var l Length
	switch pool := record.PoolSize; {
	case need > pool:
		l.Span = bench.Rotations(min((need+pool-1)/pool, maxPasses))
	case need <= pool/2:
		// Far past what the floor needs: a prefix, in a power of two.
		k := minRecords
		for k < need {
			k *= 2
		}
		l.Span = bench.Span{Records: k, Passes: 1}
	default:
		l.Span = bench.Rotations(1)
	}
	l.Warm = max(warm, l.Ops())
	return l
}

// EstimateInstr estimates the instructions of a case's cheaper op in
// format (one length serves both ops, and the cheaper needs more
// operations to reach its floor) from its records' mean encoded bytes (0
// when unknown).
func EstimateInstr(format string, bytesMean float64) float64 {
	if k, ok := instrPerByte[format]; ok {
		return bytesMean * k
	}
	return bytesMean * defaultInstrPerByte
}

// FloorInstr is format's noise floor in instructions per operation for an
// operation of about instrPerOp instructions (the format's absolute floor
// when unknown).
func FloorInstr(format string, instrPerOp float64) float64 {
	f := floorOf(format)
	return max(f.instr, f.pct/100*instrPerOp)
}

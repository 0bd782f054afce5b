package bench

import (
	"runtime"

	"github.com/wiregate/wiregate/harness/program/cases"
	"github.com/wiregate/wiregate/harness/program/record"
)

// AllocRotations is how many whole rotations of the pool the allocation
// count covers. Allocation counts repeat exactly rotation after rotation,
// so more only costs time; a power of two keeps every per-op figure a
// finite decimal.
const AllocRotations = 4

// AllocsFloor and BytesFloor are the smallest changes of an allocation
// figure that are the codec's, per op: two allocations (two KiB) in one
// window of AllocRotations rotations of a record.PoolSize pool. One
// process's count can move by less between processes where nothing
// changed: a slab allocator's refills fall at another op of the window
// (telemetry.v1.TelemetryEvent's Avro decode read 35 and 34 allocations
// in 1,024 ops in two A/A processes), maps grow at seed-dependent sizes.
const (
	AllocsFloor = 2.0 / windowOps
	BytesFloor  = 2048.0 / windowOps
)

// windowOps are the operations of one counting window: AllocRotations
// rotations of a record.PoolSize pool.
const windowOps = AllocRotations * record.PoolSize

// AllocPassOps is about how many operations counting one op's
// allocations runs (allocWindows windows): what the count costs, in ops,
// for a price.
const AllocPassOps = allocWindows * windowOps

// Allocs is the exact allocation figure of one op: heap objects and bytes
// per operation over whole rotations of the pool.
type Allocs struct {
	PerOp      float64 // allocs/op
	BytesPerOp float64 // B/op
}

// allocWindows is how many times CountAllocs counts the same rotations.
// The runtime's counters are the whole process's: once in a clean-clone CI
// run, protobuf encode read 1.00048828125 allocs/op where every other run
// read 1 — one object allocated by something else during the window. A
// stray only ever adds, so the smallest of a few windows is the codec's.
const allocWindows = 3

// CountAllocs reads the runtime's malloc and byte counters around
// Measured. testing's own allocs/op is an integer mean over b.N ops that
// stop anywhere in the pool: a pool where a third of the records allocate
// once reads 0, and 0.4 → 0.9 is invisible. This reads 0.33… and 0.4 → 0.9.
func CountAllocs(c *cases.Case, op string, rotations int) (Allocs, error) {
	var best Allocs
	var before, after runtime.MemStats
	first := true
	n, err := measured(c, op, Rotations(rotations), allocWindows, nil,
		func() { runtime.ReadMemStats(&before) },
		func() {
			runtime.ReadMemStats(&after)
			a := Allocs{
				PerOp:      float64(after.Mallocs - before.Mallocs),
				BytesPerOp: float64(after.TotalAlloc - before.TotalAlloc),
			}
			if first || a.PerOp < best.PerOp || a.PerOp == best.PerOp && a.BytesPerOp < best.BytesPerOp {
				best, first = a, false
			}
		})
	if err != nil {
		return Allocs{}, err
	}
	return Allocs{PerOp: best.PerOp / float64(n), BytesPerOp: best.BytesPerOp / float64(n)}, nil
}

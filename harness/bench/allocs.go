package bench

import (
	"runtime"

	"github.com/wiregate/wiregate/harness/cases"
)

// AllocRotations is how many whole rotations of the pool the allocation
// count covers. Allocation counts repeat exactly rotation after rotation,
// so more only costs time; a power of two keeps every per-op figure a
// finite decimal.
const AllocRotations = 4

// Allocs is the exact allocation figure of one op: heap objects and bytes
// per operation over whole rotations of the pool.
type Allocs struct {
	PerOp      float64 // allocs/op
	BytesPerOp float64 // B/op
}

// CountAllocs reads the runtime's malloc and byte counters around
// Measured. testing's own allocs/op is an integer mean over b.N ops that
// stop anywhere in the pool: a pool where a third of the records allocate
// once reads 0, and 0.4 → 0.9 is invisible. This reads 0.33… and 0.4 → 0.9.
func CountAllocs(c *cases.Case, op string, rotations int) (Allocs, error) {
	var before, after runtime.MemStats
	n, err := Measured(c, op, rotations,
		func() { runtime.ReadMemStats(&before) },
		func() { runtime.ReadMemStats(&after) })
	if err != nil {
		return Allocs{}, err
	}
	return Allocs{
		PerOp:      float64(after.Mallocs-before.Mallocs) / float64(n),
		BytesPerOp: float64(after.TotalAlloc-before.TotalAlloc) / float64(n),
	}, nil
}

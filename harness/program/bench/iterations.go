package bench

import (
	"math"
	"time"
)

// Iterations is how many operations one timed run of a benchmark does to
// last benchtime, at the ns/op an earlier run of it measured: a run sized
// so skips testing.Benchmark's calibration (runs of 1, 100, 10,000, …
// operations before the one it keeps, each after a collection), which a
// round re-paid for every benchmark though the warm-up round had already
// measured its speed. At least 1; 0 when nsPerOp says nothing (not
// positive): calibrate instead.
func Iterations(benchtime time.Duration, nsPerOp float64) int {
	if nsPerOp <= 0 || math.IsNaN(nsPerOp) || math.IsInf(nsPerOp, 0) {
		return 0
	}
	n := math.Ceil(float64(benchtime.Nanoseconds()) / nsPerOp)
	return int(min(max(n, 1), maxIterations))
}

// maxIterations is the testing package's own ceiling on a run's N.
const maxIterations = 1e9

package cpucost

import (
	"runtime"
	"time"

	"github.com/wiregate/wiregate/harness/record"
)

// What counting costs on top of running natively, measured on this
// repo's messages and the shapes module (docs/harness.md, "CPU cost"):
// starting Valgrind and the program under it, running uninstrumented
// under Valgrind (the warm-up), and running under callgrind's
// instrumentation (the counted rotations), each as a multiple of the
// native time. The gate plans with them and corrects them by what its
// own counts took (budget and gate); they need not be exact, only not
// wildly off.
const (
	processStart       = 1500 * time.Millisecond
	uninstrumentedSlow = 8
	instrumentedSlow   = 60
)

// Estimate is what counting one message takes on one side: one Valgrind
// process per format, up to one per CPU at a time, each running WarmOps
// operations uninstrumented and rotations of the pool under callgrind,
// for encode and decode. opNs are the formats' native nanoseconds per
// encode plus decode.
func Estimate(opNs []float64, rotations int) time.Duration {
	if rotations <= 0 {
		rotations = DefaultRotations
	}
	var work time.Duration
	for _, ns := range opNs {
		warm := float64(WarmOps) * ns * uninstrumentedSlow
		counted := float64(rotations*record.PoolSize) * ns * instrumentedSlow
		work += processStart + time.Duration(warm+counted)
	}
	return work / time.Duration(min(max(len(opNs), 1), runtime.NumCPU()))
}

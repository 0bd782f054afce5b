package cpucost

import (
	"time"

	"github.com/wiregate/wiregate/harness/program/record"
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
	processStart       = 800 * time.Millisecond
	uninstrumentedSlow = 9
	instrumentedSlow   = 55
)

// Estimate is what counting one message takes on one side, one Valgrind
// process per format one after the other (the gate's worker pool divides
// it among its workers): each process's EstimateOne added up. opNs are the
// formats' native nanoseconds of an encode and of a decode.
func Estimate(opNs [][2]float64, rotations int) time.Duration {
	var work time.Duration
	for _, ns := range opNs {
		work += EstimateOne(ns, rotations)
	}
	return work
}

// EstimateOne is what one Valgrind process takes to count one message in
// one format: starting, its warm-up (WarmFor) uninstrumented, and rotations
// of the pool under callgrind, for encode and decode. ns are the format's
// native nanoseconds of an encode and of a decode.
func EstimateOne(ns [2]float64, rotations int) time.Duration {
	if rotations <= 0 {
		rotations = DefaultRotations
	}
	warmOps := float64(WarmFor(max(ns[0], ns[1]))) // one warm-up for both ops, as Count runs it
	work := processStart
	for _, op := range ns {
		warm := warmOps * op * uninstrumentedSlow
		counted := float64(rotations*record.PoolSize) * op * instrumentedSlow
		work += time.Duration(warm + counted)
	}
	return work
}

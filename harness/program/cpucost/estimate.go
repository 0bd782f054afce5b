package cpucost

import (
	"time"
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
// formats' native nanoseconds of an encode and of a decode, by format.
func Estimate(opNs map[string][2]float64) time.Duration {
	var work time.Duration
	for f, ns := range opNs {
		work += EstimateOne(f, ns)
	}
	return work
}

// EstimateOne is what one Valgrind process takes to count one message in
// one format: starting, its warm-up uninstrumented, and the counted span
// under callgrind, for encode and decode, at the length LengthFor gives.
// ns are the format's native nanoseconds of an encode and of a decode.
func EstimateOne(format string, ns [2]float64) time.Duration {
	l := LengthFor(format, EstimateInstr(min(ns[0], ns[1])))
	work := processStart
	for _, op := range ns {
		warm := float64(l.Warm) * op * uninstrumentedSlow
		counted := float64(l.Ops()) * op * instrumentedSlow
		work += time.Duration(warm + counted)
	}
	return work
}

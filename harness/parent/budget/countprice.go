package budget

import (
	"time"

	"github.com/wiregate/wiregate/harness/parent/cpucost"
	"github.com/wiregate/wiregate/harness/program/benchprog"
)

// What counting costs on top of running natively, measured on this
// repo's messages and the shapes module (docs/harness.md, "CPU cost"):
// starting Valgrind and the program under it and building the records
// (ProcessStart; docs/figures.md, "Prices measured"), running uninstrumented
// under Valgrind (the warm-up), and running under callgrind's
// instrumentation (the counted rotations), each as a multiple of the
// native time. The gate plans with them and corrects them by what its
// own counts took (the meter), and a later plan by what a run measured
// (Unit); they need not be exact, only not wildly off.
const (
	ProcessStart       = 2200 * time.Millisecond
	uninstrumentedSlow = 9
	instrumentedSlow   = 55
)

// CountPrice is what one Valgrind process takes to count one message on
// one side (the gate's worker pool divides processes among its workers):
// starting, then every format's CountFormatPrice, from the sizes stage's
// rows of the message.
func CountPrice(rows []benchprog.Size) time.Duration {
	work := ProcessStart
	for _, r := range rows {
		work += CountFormatPrice(r.Format, [2]float64{r.Price.EncodeNs, r.Price.DecodeNs}, r.BytesMean)
	}
	return work
}

// CountFormatPrice is what one format adds to a Valgrind process counting
// its message: its warm-up uninstrumented and the counted span under
// callgrind, for encode and decode, at the length cpucost.LengthFor gives
// for records of bytes. ns are the format's native nanoseconds of an
// encode and of a decode. A process also pays ProcessStart once.
func CountFormatPrice(format string, ns [2]float64, bytes float64) time.Duration {
	l := cpucost.LengthFor(format, cpucost.EstimateInstr(bytes))
	var work time.Duration
	for _, op := range ns {
		warm := float64(l.Warm) * op * uninstrumentedSlow
		counted := float64(l.Ops()) * op * instrumentedSlow
		work += time.Duration(warm + counted)
	}
	return work
}

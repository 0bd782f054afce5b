package budget

import (
	"time"

	"github.com/wiregate/wiregate/harness/parent/cpucost"
	"github.com/wiregate/wiregate/harness/program/benchprog"
)

// What counting costs on top of running natively, measured on this
// repo's messages and generated modules (docs/design/prices.md): starting Valgrind and the program under it (ProcessStart: the
// records are built natively and only loaded; the code a batch shares is
// translated once, in its first loops), each loop's fixed part (loopFixed:
// its share of loading its message's records, translating its warm-up and
// its own code, its refill and its dump), running uninstrumented under
// Valgrind (the warm-up), and running under callgrind's instrumentation
// (the counted rotations), the last two as a multiple of the sizes stage's
// cold native time. The gate plans with them and corrects them by what its
// own counts took (the meter), and a later plan by what a run measured
// (MessagePrice); they need not be exact, only not wildly off. Refit once
// one instrumented window served a batch (docs/design/batches.md), on 42
// processes of four generated modules (batches of 5 to 12 messages of
// every size, single small and large ones; docs/results/count-price-fit.txt):
// the lengths the floors set make a loop's cost much the same whatever
// its operations cost, so most of a message's price is fixed, and the
// old factors (9 and 25) priced batches of small messages at 1.5 times
// what they took and single large ones at half: 0.61–2.11 of their price.
// These read 0.69–1.40 (median 0.87: a batch rather short than long),
// scaled from that evening's machine (1.3 times slower than the
// afternoon's, by b09a774's cpu stage) to the afternoon's. The cold
// native times stand for a loop's work only weakly (one message's read 2×
// apart on the two sides of one run).
const (
	ProcessStart       = 1400 * time.Millisecond
	loopFixed          = 150 * time.Millisecond
	uninstrumentedSlow = 2
	instrumentedSlow   = 3
)

// CountBatch is the most one count process is priced at beyond its
// start: messages are counted in batches (the start is paid once a
// batch), no larger, so that the meter still cuts in steps and the workers
// share the processes. The stage ends when its last process does, while
// the other lanes idle for up to a process's length: short batches end
// the lanes together, at the price of a start each (docs/design/batches.md).
const CountBatch = 15 * time.Second

// CountPrice is what counting one message adds to the Valgrind process
// that counts its batch on one side (the gate's worker pool divides
// processes among its workers; the process's start, ProcessStart, is the
// batch's): every format's CountFormatPrice, from the sizes stage's rows
// of the message.
func CountPrice(rows []benchprog.Size) time.Duration {
	var work time.Duration
	for _, r := range rows {
		work += CountFormatPrice(r.Format, [2]float64{r.Cold.EncodeNs, r.Cold.DecodeNs}, r.BytesMean)
	}
	return work
}

// CountFormatPrice is what one format adds to a Valgrind process counting
// its message: its warm-up uninstrumented and the counted span under
// callgrind, for encode and decode, at the length cpucost.LengthFor gives
// for records of bytes, each loop with its fixed part. ns are the format's
// native nanoseconds of an encode and of a decode. A process also pays
// ProcessStart once.
func CountFormatPrice(format string, ns [2]float64, bytes float64) time.Duration {
	l := cpucost.LengthFor(format, cpucost.EstimateInstr(format, bytes))
	var work time.Duration
	for _, op := range ns {
		warm := float64(l.Warm) * op * uninstrumentedSlow
		counted := float64(l.Ops()) * op * instrumentedSlow
		work += loopFixed + time.Duration(warm+counted)
	}
	return work
}

// CountStartShare is each message's share of the count processes' starts
// when messages whose counts cost work (CountPrice each, one side) are
// counted in batches of at most CountBatch: one start per batch, spread
// over its messages.
func CountStartShare(work []time.Duration) time.Duration {
	if len(work) == 0 {
		return 0
	}
	var total time.Duration
	for _, w := range work {
		total += w
	}
	batches := max(1, int((total+CountBatch-1)/CountBatch))
	return ProcessStart * time.Duration(batches) / time.Duration(len(work))
}

// staticBatch is how many messages a count process is priced as holding
// when a plan prices a message from its schema alone (StaticPrice), not
// knowing its batch yet: about what CountBatch holds of a shard's
// messages.
const staticBatch = 8

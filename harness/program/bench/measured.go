package bench

import (
	"runtime"
	"runtime/debug"

	"github.com/wiregate/wiregate/harness/program/cases"
)

// Warm runs one op for at least ops operations over the first records
// records of the pool (all of them when records is 0 or more), in whole
// passes, so that state the runtime builds lazily and at random moments
// exists before anything is counted: Go fills a type-assertion or
// type-switch site's cache only on about 1 in 1024 slow-path calls
// (runtime/iface.go), so the first thousands of calls pay a random number
// of slow paths. It returns what one pass allocates, in bytes, for the
// heap's preparation (HeapNeed; so no loop runs a pass of its own only to
// learn it): the larger of the first
// pass's and the mean of all, so a loop whose first pass allocates more
// (a buffer grown once) is not prepared for less. It runs at least one pass.
func Warm(c *cases.Case, op string, records, ops int) (passBytes uint64, err error) {
	run, k, err := loopOver(c, op, records)
	if err != nil {
		return 0, err
	}
	passes := max(1, (ops+k-1)/k)
	var start, first, end runtime.MemStats
	runtime.ReadMemStats(&start)
	if err := run(k); err != nil {
		return 0, err
	}
	runtime.ReadMemStats(&first)
	if err := run((passes - 1) * k); err != nil {
		return 0, err
	}
	runtime.ReadMemStats(&end)
	return max(first.TotalAlloc-start.TotalAlloc, (end.TotalAlloc-start.TotalAlloc)/uint64(passes)), nil
}

// Span is what one measured loop covers: the first Records records of the
// pool (all of them when Records is 0 or at least the pool), each counted
// Passes times in order. Both sides of a comparison count the same span of
// the same paired records, so their per-op figures weigh the same records
// equally.
type Span struct {
	Records, Passes int
}

// Ops is how many operations the span runs on a pool of pool records.
func (s Span) Ops(pool int) int { return s.records(pool) * max(s.Passes, 1) }

func (s Span) records(pool int) int {
	if s.Records <= 0 || s.Records > pool {
		return pool
	}
	return s.Records
}

// Rotations is the span of n whole rotations of the pool.
func Rotations(n int) Span { return Span{Passes: n} }

// Measured runs one op over span between start and stop, and returns how
// many operations ran between them. The exact figures (allocations,
// instructions) come from here: whole passes weigh every record equally,
// so the per-op figure is the span's mean and does not depend on where a
// loop happened to stop.
//
// Before start, on h (a heap PrepareHeap prepared for this message's
// loops, the collector off): the P's page cache drained, and the op run on
// the span's first refillRecords records to refill the sync.Pools the
// codecs reuse, which the heap's collection emptied (the warm-up built
// everything else a loop builds lazily). Throughout, GOMAXPROCS is 1 (the
// goroutine cannot move to another P's caches half-way) and the goroutine
// is locked to its thread (a per-thread counter such as callgrind's sees
// all of it). All is restored afterwards.
func Measured(c *cases.Case, op string, span Span, h *Heap, start, stop func()) (int, error) {
	return measured(c, op, span, 1, h, start, stop)
}

// refillRecords is how many records a count's refill runs: enough for
// every pool a codec Gets from to hold what its Put returns, far fewer
// than a pass. Under callgrind the refill runs instrumented (it is where
// the loop's code is translated), at a counted pass's cost: a whole pass
// was a quarter of a count process (docs/design/batches.md). What it
// leaves to the counted passes (a pooled buffer grown past the first
// records' sizes) is the same records' in every process and on both
// sides, and a fixed cost a loop's length already dilutes
// (cpucost.FixedLoopInstr).
const refillRecords = 8

// measured is Measured with windows measured windows one after the other,
// start and stop around each, after one preparation. With h nil the heap is
// not prepared: a first pass warms the loop, then the collector is off for
// a whole refill pass and the windows. An allocation count does not depend
// on the heap's history, and a heap's preparation would be paid again in
// every bench round.
func measured(c *cases.Case, op string, span Span, windows int, h *Heap, start, stop func()) (int, error) {
	run, k, err := loopOver(c, op, span.Records)
	if err != nil {
		return 0, err
	}
	n := span.Ops(len(c.Encoded))
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	procs := runtime.GOMAXPROCS(1)
	defer runtime.GOMAXPROCS(procs)

	refill := k
	if h == nil {
		if err := run(k); err != nil {
			return 0, err
		}
		defer debug.SetGCPercent(debug.SetGCPercent(-1))
	} else {
		h.drain()
		refill = min(k, refillRecords)
	}
	if err := run(refill); err != nil {
		return 0, err
	}
	for range windows {
		start()
		err = run(n)
		stop()
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

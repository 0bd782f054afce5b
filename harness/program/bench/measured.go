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
// of slow paths. It returns what one pass allocates, in bytes, for
// Measured to prepare the heap for (so Measured runs no pass of its own
// only to learn it): the larger of the first
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
// Before start: a heap prepared so that the loop reuses memory (see reuse;
// passBytes is what one pass allocates, Warm's figure), the collector off
// (no cycle starts inside: its work would land in whichever op triggered
// it, and it clears the sync.Pools the codecs reuse), and one pass to
// refill those pools. All of that runs before start, so under callgrind it
// runs uninstrumented when start is what switches instrumentation on.
// Throughout, GOMAXPROCS is 1 (the goroutine cannot move to another P's
// caches half-way) and the goroutine is locked to its thread (a per-thread
// counter such as callgrind's sees all of it). All is restored afterwards.
func Measured(c *cases.Case, op string, span Span, passBytes uint64, start, stop func()) (int, error) {
	return measured(c, op, span, 1, &passBytes, start, stop)
}

// measured is Measured with windows measured windows one after the other,
// start and stop around each, after one preparation. With passBytes nil
// the heap is not prepared and a first pass warms the loop instead: an
// allocation count does not depend on the heap's history, and reuse's
// collection is what a count cost most on a big heap (paid again in every
// bench round).
func measured(c *cases.Case, op string, span Span, windows int, passBytes *uint64, start, stop func()) (int, error) {
	run, k, err := loopOver(c, op, span.Records)
	if err != nil {
		return 0, err
	}
	n := span.Ops(len(c.Encoded))
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	procs := runtime.GOMAXPROCS(1)
	defer runtime.GOMAXPROCS(procs)

	if passBytes == nil {
		if err := run(k); err != nil {
			return 0, err
		}
	} else {
		defer reuse(2 * (*passBytes + *passBytes*uint64(n)/uint64(k)))()
	}

	gc := debug.SetGCPercent(-1)
	defer debug.SetGCPercent(gc)
	if err := run(k); err != nil {
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

// reuse prepares the heap so that the measured loop allocates only memory
// the runtime must zero first, whatever the process did before, and returns
// the function that releases what it holds.
//
// Freed heap memory is zeroed before reuse and never-used memory is not, so
// a loop that draws on the two in a mix that depends on the process's
// history moves its count: by up to 2% (orders.v1.Order protobuf decode: 0
// or ~150 instructions of memclr per op) between identical runs. So: n
// bytes of small objects are allocated and collected, leaving that much
// freed memory; then 512 KiB more are allocated and held until the loop is
// done, which empties the P's page cache (up to 64 pages it took earlier,
// possibly never used) so that its next refill comes from the freed pages.
func reuse(n uint64) (release func()) {
	const chunk = 8 << 10
	garbage := make([][]byte, 0, n/chunk+1)
	for i := uint64(0); i < n; i += chunk {
		//lint:ignore SA4010 the allocations are the point: they become the freed memory
		garbage = append(garbage, make([]byte, chunk))
	}
	garbage = nil
	runtime.GC()
	held := make([][]byte, 0, 64)
	for range 64 {
		held = append(held, make([]byte, chunk))
	}
	return func() { runtime.KeepAlive(held) }
}

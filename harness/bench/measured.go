package bench

import (
	"runtime"
	"runtime/debug"

	"github.com/wiregate/wiregate/harness/cases"
)

// Warm runs one op for at least ops operations, in whole rotations, so that
// state the runtime builds lazily and at random moments exists before
// anything is counted: Go fills a type-assertion or type-switch site's cache
// only on about 1 in 1024 slow-path calls (runtime/iface.go), so the first
// thousands of operations pay a random number of slow paths.
func Warm(c *cases.Case, op string, ops int) error {
	run, err := loop(c, op)
	if err != nil {
		return err
	}
	pool := len(c.Encoded)
	return run((ops + pool - 1) / pool * pool)
}

// Measured runs one op over rotations whole rotations of the pool between
// start and stop, and returns how many operations ran between them. The
// exact figures (allocations, instructions) come from here: whole rotations
// weigh every record equally, so the per-op figure is the pool's mean and
// does not depend on where a loop happened to stop.
//
// Before start: one rotation to learn how much the loop allocates, a heap
// prepared so that the loop reuses memory (see reuse), the collector off (no
// cycle starts inside: its work would land in whichever op triggered it,
// and it clears the sync.Pools the codecs reuse), and one more rotation to
// refill those pools. Throughout, GOMAXPROCS is 1 (the goroutine cannot
// move to another P's caches half-way) and the goroutine is locked to its
// thread (a per-thread counter such as callgrind's sees all of it). All is
// restored afterwards.
func Measured(c *cases.Case, op string, rotations int, start, stop func()) (int, error) {
	run, err := loop(c, op)
	if err != nil {
		return 0, err
	}
	pool := len(c.Encoded)
	n := rotations * pool
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	procs := runtime.GOMAXPROCS(1)
	defer runtime.GOMAXPROCS(procs)

	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	before := ms.TotalAlloc
	if err := run(pool); err != nil {
		return 0, err
	}
	runtime.ReadMemStats(&ms)
	reuse(2 * uint64(rotations+1) * (ms.TotalAlloc - before))

	gc := debug.SetGCPercent(-1)
	defer debug.SetGCPercent(gc)
	if err := run(pool); err != nil {
		return 0, err
	}
	start()
	err = run(n)
	stop()
	return n, err
}

// ballast holds reuse's garbage until it collects it.
var ballast [][]byte

// reuse allocates at least n bytes in small objects, drops them and
// collects, leaving that much freed heap memory for the measured loop to
// allocate from. Freed memory must be zeroed before reuse and never-used
// memory need not be; without this, a loop draws on the two in a mix that
// depends on everything the process did before, and its count moved by up
// to 1% (orders.v1.Order json decode: 0 or ~80 instructions of memclr per
// op) between identical runs.
func reuse(n uint64) {
	const chunk = 8 << 10
	for i := uint64(0); i < n; i += chunk {
		ballast = append(ballast, make([]byte, chunk))
	}
	ballast = nil
	runtime.GC()
}

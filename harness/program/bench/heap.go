package bench

import (
	"runtime"
	"runtime/debug"

	"github.com/wiregate/wiregate/harness/program/cases"
)

// Heap is memory prepared once for all of a count process's loops, so
// that each loop allocates only memory the runtime must zero first,
// whatever the process did before.
//
// Freed heap memory is zeroed before reuse and never-used memory is not, so
// a loop that draws on the two in a mix that depends on the process's
// history moves its count: by up to 2% (orders.v1.Order protobuf decode: 0
// or ~150 instructions of memclr per op) between identical runs. So
// PrepareHeap allocates the loops' volume of small objects with the
// collector off and collects them once, leaving that much freed memory, and
// keeps the collector off until Release: no cycle starts inside a loop (its
// work would land in whichever op triggered it, and it clears the
// sync.Pools the codecs reuse), and what one loop leaves behind stays
// allocated, so the next one draws on freed memory too. Before each loop,
// drain empties the P's page cache.
//
// Once a batch, not once a loop: a collection under Valgrind costs
// ~40–90 ms and its garbage as much again, and the collector left on while
// the garbage was made ran cycles of its own; per loop that was a sixth of
// a count process, and once a message a collection of the last message's
// heap came with each (docs/design/batches.md).
type Heap struct {
	gcPercent int
	held      [][]byte
}

// heapChunk is the size of the garbage's objects and of the pages drain
// holds: one page.
const heapChunk = 8 << 10

// drainPages is how many pages drain takes: as many as a P's page cache
// holds.
const drainPages = 64

// HeapNeed is what one loop over span needs of a prepared heap, passBytes
// being what a pass allocates (Warm's figure): twice its refill pass and
// its counted passes, and the pages drain holds before it. No collection
// runs between a batch's loops, so all of it comes out of the one
// garbage. Eight times was tried for outliers in a message's last loop
// (gen.v1.Message00's Avro decode, 11,649 or 11,722 instr/op): they were
// hash-seed luck in a sync.Map lookup, at eight times as at two
// (docs/design/batches.md).
func HeapNeed(c *cases.Case, span Span, passBytes uint64) uint64 {
	k := Span{Records: span.Records}.records(len(c.Encoded))
	return 2*(passBytes+passBytes*uint64(span.Ops(len(c.Encoded)))/uint64(k)) + drainPages*heapChunk
}

// PrepareHeap leaves need bytes of freed memory and the collector off
// until Release.
func PrepareHeap(need uint64) *Heap {
	h := &Heap{gcPercent: debug.SetGCPercent(-1)}
	garbage := make([][]byte, 0, need/heapChunk+1)
	for i := uint64(0); i < need; i += heapChunk {
		//lint:ignore SA4010 the allocations are the point: they become the freed memory
		garbage = append(garbage, make([]byte, heapChunk))
	}
	garbage = nil
	runtime.GC()
	return h
}

// drain allocates and holds drainPages pages until Release, which empties the P's
// page cache (up to 64 pages it took earlier, possibly never used) so that
// its next refill comes from the freed pages.
func (h *Heap) drain() {
	for range drainPages {
		h.held = append(h.held, make([]byte, heapChunk))
	}
}

// Release lets the collector run again and the held pages go.
func (h *Heap) Release() {
	h.held = nil
	debug.SetGCPercent(h.gcPercent)
}

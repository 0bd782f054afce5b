package bench

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
)

// A loop over 32 records counted twice needs twice what its refill pass
// and its two counted passes allocate, and the drain's 64 pages.
func TestHeapNeedIsTwiceALoopsVolumeAndItsDrain(t *testing.T) {
	c := sometimesCase(3)
	if got, want := HeapNeed(c, Span{Records: 32, Passes: 2}, 704), uint64(2*(704+2*704)+64*8192); got != want {
		t.Errorf("HeapNeed over 32 records twice: %d, want %d", got, want)
	}
	if got, want := HeapNeed(c, Rotations(4), 5504), uint64(2*(5504+4*5504)+64*8192); got != want {
		t.Errorf("HeapNeed over 4 rotations: %d, want %d", got, want)
	}
}

// A prepared heap holds at least its need as freed memory, and no
// collection runs until Release, however much a batch's loops allocate
// after it; Release gives the collector back its setting.
func TestAPreparedHeapIsFreedMemoryWithTheCollectorOff(t *testing.T) {
	const need = 32 << 20
	was := debug.SetGCPercent(100)
	defer debug.SetGCPercent(was)
	h := PrepareHeap(need)
	free := []metrics.Sample{{Name: "/memory/classes/heap/free:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
	metrics.Read(free)
	if got := free[0].Value.Uint64() + free[1].Value.Uint64(); got < need {
		t.Errorf("%d bytes of free heap after preparing %d", got, need)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	var kept [][]byte
	for range 4 * need / heapChunk {
		kept = append(kept, make([]byte, 64), make([]byte, heapChunk))
	}
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(kept)
	if after.NumGC != before.NumGC {
		t.Errorf("%d collections while the heap was prepared", after.NumGC-before.NumGC)
	}
	h.Release()
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("after Release the collector's percent is %d, want 100", got)
	}
}

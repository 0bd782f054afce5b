package bench

import "testing"

// Warm reports what one pass allocates, the volume a count prepares the
// heap for: 86 of 256 records allocate 64 bytes, so a pass over the pool
// allocates 86·64 bytes (other goroutines may add a little, never take),
// and a pass over its first 32 records 11·64; a warm-up asked for no
// operations still runs the one pass that learns it.
func TestWarmReportsWhatAPassAllocates(t *testing.T) {
	for _, tc := range []struct{ records, ops, want int }{{0, 4096, 86 * 64}, {32, 4096, 11 * 64}, {32, 0, 11 * 64}} {
		got, err := Warm(sometimesCase(3), "encode", tc.records, tc.ops)
		if err != nil {
			t.Fatal(err)
		}
		if got < uint64(tc.want) || got > uint64(tc.want)+512 {
			t.Errorf("Warm over %d records, %d ops: %d bytes a pass, want %d", tc.records, tc.ops, got, tc.want)
		}
	}
}

// Measured runs the refill (the span's first 8 records) and the counted span
// and nothing else: the warm-up already told the heap's preparation what a
// pass allocates.
func TestMeasuredRunsOnlyARefillBeforeItsSpan(t *testing.T) {
	calls := new(int)
	c := sometimesCaseOf(sometimes{every: 3, calls: calls})
	started := 0
	span := Span{Records: 32, Passes: 2}
	h := PrepareHeap(HeapNeed(c, span, 11*64))
	defer h.Release()
	n, err := Measured(c, "encode", span, h, func() { started = *calls }, func() {})
	if err != nil {
		t.Fatal(err)
	}
	if n != 64 || started != refillRecords || *calls != refillRecords+64 {
		t.Fatalf("%d ops counted after %d calls, %d calls in all; want 64 after the %d of the refill", n, started, *calls, refillRecords)
	}
}

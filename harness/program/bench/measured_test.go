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

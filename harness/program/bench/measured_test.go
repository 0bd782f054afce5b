package bench

import "testing"

// Warm reports what one pass allocates, the volume a count prepares the
// heap for: 86 of 256 records allocate 64 bytes, so a pass over the pool
// allocates 86·64 bytes (other goroutines may add a little, never take),
// and a pass over its first 32 records 11·64.
func TestWarmReportsWhatAPassAllocates(t *testing.T) {
	for _, tc := range []struct{ records, want int }{{0, 86 * 64}, {32, 11 * 64}} {
		got, err := Warm(sometimesCase(3), "encode", tc.records, 4096)
		if err != nil {
			t.Fatal(err)
		}
		if got < uint64(tc.want) || got > uint64(tc.want)+512 {
			t.Errorf("Warm over %d records: %d bytes a pass, want %d", tc.records, got, tc.want)
		}
	}
}

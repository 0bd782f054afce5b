package gate

import (
	"testing"

	"github.com/wiregate/wiregate/harness/parent/report"
	"github.com/wiregate/wiregate/harness/program/bench"
)

// An allocation figure moved when the two sides' figures differ by more
// than its floor: one allocation in a window of 1,024 ops (a slab refill
// falling elsewhere, as an A/A of telemetry.v1.TelemetryEvent's Avro
// decode read) has not moved, however large in percent; three have, and
// so has a figure that doubled.
func TestAnAllocationFigureMovesPastItsFloorOnly(t *testing.T) {
	for _, c := range []struct {
		base, head float64
		moved      bool
	}{
		{35.0 / 1024, 34.0 / 1024, false},
		{1.0 / 1024, 2.0 / 1024, false}, // +100%, one allocation
		{1.0 / 1024, 4.0 / 1024, true},
		{4, 10.96484375, true},
		{15.6796875, 15.6806640625, false},
		{1, 1, false},
	} {
		m := report.Metric{Unit: "allocs/op", Base: &report.Summary{Center: c.base, N: 1}, Head: &report.Summary{Center: c.head, N: 1},
			DeltaPct: ptrTo((c.head/c.base - 1) * 100), P: ptrTo(1)}
		exactMetric(&m, bench.AllocsFloor)
		if m.Significant != c.moved || m.P != nil || (m.Delta == "~") == c.moved {
			t.Errorf("%v → %v: %+v, want moved %v, no p", c.base, c.head, m, c.moved)
		}
	}
}

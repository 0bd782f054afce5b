package budget

import (
	"testing"
	"time"
)

// A unit starts only when, at the corrected price, it ends by the
// deadline; the correction is what the units so far took over their
// prices, and never below a quarter.
func TestMeterExtrapolatesByWhatUnitsTook(t *testing.T) {
	clock, start := newClock()
	m := Budget{Now: clock.now}.Meter(start.Add(100 * time.Second))
	if !m.May(100*time.Second) || m.May(101*time.Second) {
		t.Fatalf("before any unit a price is taken as it is")
	}
	done, ok := m.Start(10 * time.Second)
	if !ok {
		t.Fatal("a 10 s unit refused with 100 s left")
	}
	clock.spend(20 * time.Second) // it took twice its price
	done()
	if c := m.Correction(); c != 2 {
		t.Fatalf("correction %v, want 2", c)
	}
	// 80 s left: a unit priced 40 s takes 80 s and fits; 41 s does not.
	if !m.May(40*time.Second) || m.May(41*time.Second) {
		t.Fatalf("left %s, expect(40s) %s", m.Left(), m.Expect(40*time.Second))
	}
	if _, ok := m.Start(41 * time.Second); ok {
		t.Fatal("Start let a unit start that May refuses")
	}
	// Units far faster than priced lower the correction to a quarter, no less.
	m.Done(1000*time.Second, time.Second)
	if c := m.Correction(); c != minCorrection {
		t.Fatalf("correction %v, want %v", c, minCorrection)
	}
	// Unpriced units say nothing.
	m.Done(0, time.Hour)
	if c := m.Correction(); c != minCorrection {
		t.Fatalf("an unpriced unit moved the correction to %v", c)
	}
	clock.spend(81 * time.Second)
	if m.May(0) || m.Left() >= 0 {
		t.Fatal("past the deadline nothing may start")
	}
}

package cpucost

import "testing"

// A fast op is warmed with WarmOps; a slower one with proportionally
// fewer, never fewer than MinWarmOps.
func TestWarmForScalesDownSlowOps(t *testing.T) {
	for _, c := range []struct {
		ns   float64
		want int
	}{{0, WarmOps}, {300, WarmOps}, {warmNs, WarmOps}, {2 * warmNs, WarmOps / 2}, {230_000, MinWarmOps}} {
		if got := WarmFor(c.ns); got != c.want {
			t.Errorf("WarmFor(%v) = %d, want %d", c.ns, got, c.want)
		}
	}
}

// One rotation is cheaper than four, and a message of slow ops costs more
// than one of fast ones (the estimate the budget plans with).
func TestEstimateGrowsWithWorkAndRotations(t *testing.T) {
	fast := [][2]float64{{300, 400}, {1000, 4000}}
	slow := [][2]float64{{60_000, 170_000}, {43_000, 43_000}}
	if !(Estimate(fast, 1) < Estimate(fast, 4) && Estimate(slow, 1) < Estimate(slow, 4) && Estimate(fast, 4) < Estimate(slow, 4)) {
		t.Fatalf("fast %v/%v, slow %v/%v", Estimate(fast, 1), Estimate(fast, 4), Estimate(slow, 1), Estimate(slow, 4))
	}
}

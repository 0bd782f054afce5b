package cpucost

import "testing"

// A message of slow ops costs more to count than one of fast ones (the
// estimate the budget plans with), though it counts fewer operations.
func TestEstimateGrowsWithWork(t *testing.T) {
	fast := map[string][2]float64{"protobuf": {300, 400}, "json": {1000, 4000}}
	slow := map[string][2]float64{"protobuf": {60_000, 170_000}, "json": {43_000, 43_000}}
	if !(Estimate(fast) < Estimate(slow)) {
		t.Fatalf("fast %v, slow %v", Estimate(fast), Estimate(slow))
	}
}

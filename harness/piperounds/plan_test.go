package piperounds

import "testing"

func TestPlanLetsAShiftClearHolm(t *testing.T) {
	for _, tc := range []struct{ m, want int }{{1, 5}, {9, 6}, {30, 7}, {300, 9}} {
		if got := Plan(tc.m, 10, 0.05); got != tc.want {
			t.Errorf("m=%d: %d rounds, want %d", tc.m, got, tc.want)
		}
	}
	if got := Plan(9, 3, 0.05); got != 3 {
		t.Errorf("count 3 is the budget, got %d rounds", got)
	}
	if got := Plan(9, 4, 0); got != 4 {
		t.Errorf("alpha 0 (no test follows, `wiregate pipeline --rounds 4`): %d rounds, want 4", got)
	}
}

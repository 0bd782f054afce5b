package gate

import (
	"testing"

	"github.com/wiregate/wiregate/harness/inputs"
)

func TestPipelineRoundsLetAShiftClearHolm(t *testing.T) {
	g := &run{o: &Options{}, s: inputs.Settings{Count: 10}}
	g.cfg.Alpha = 0.05
	for _, tc := range []struct{ m, want int }{{1, 5}, {9, 6}, {30, 7}, {300, 9}} {
		if got := g.pipelineRounds(tc.m); got != tc.want {
			t.Errorf("m=%d: %d rounds, want %d", tc.m, got, tc.want)
		}
	}
	g.s.Count = 3
	if got := g.pipelineRounds(9); got != 3 {
		t.Errorf("count 3 is the budget, got %d rounds", got)
	}
}

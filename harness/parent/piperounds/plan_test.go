package piperounds

import (
	"strings"
	"testing"
)

func TestPlanLetsAShiftClearHolm(t *testing.T) {
	for _, tc := range []struct{ m, want int }{{1, 5}, {9, 6}, {30, 7}, {300, 8}} {
		if got := Rounds(tc.m, 10, 0.05); got != tc.want {
			t.Errorf("m=%d: %d rounds, want %d", tc.m, got, tc.want)
		}
	}
	if got := Rounds(9, 3, 0.05); got != 3 {
		t.Errorf("count 3 is the budget, got %d rounds", got)
	}
	if got := Rounds(9, 4, 0); got != 4 {
		t.Errorf("alpha 0 (no test follows, `wiregate pipeline --rounds 4`): %d rounds, want 4", got)
	}
}

func TestPrioritizedPutsTheFirstMessagesFirst(t *testing.T) {
	rows := []*Row{{Message: "a.A", Format: "json"}, {Message: "b.B", Format: "json"}, {Message: "c.C", Format: "avro"}, {Message: "c.C", Format: "json"}}
	var got []string
	for _, r := range prioritized(rows, []string{"c.C", "b.B"}) {
		got = append(got, r.Message+"/"+r.Format)
	}
	if want := "c.C/avro c.C/json b.B/json a.A/json"; strings.Join(got, " ") != want {
		t.Fatalf("%v, want %s", got, want)
	}
}

package piperounds

import (
	"strings"
	"testing"
	"time"
)

func TestPlanLetsAShiftClearHolm(t *testing.T) {
	for _, tc := range []struct{ m, want int }{{1, 5}, {9, 6}, {30, 7}, {300, 8}} {
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

func TestFitShrinksTheBacklogByWhatEarlierRowsCost(t *testing.T) {
	r := &run{}
	if n := r.fit(200000, time.Second); n != 200000 {
		t.Fatalf("before any row: %d", n)
	}
	r.perRecord = 10_000 // 10 µs a record: 1 s holds 100,000
	if n := r.fit(200000, time.Second); n != 100000 {
		t.Fatalf("%d", n)
	}
	if n := r.fit(50000, time.Second); n != 50000 {
		t.Fatalf("a backlog that fits is left alone: %d", n)
	}
}

// A backlog the byte budget sized small (86 records of 12 kB) is timed as
// asked; one the deadline squeezed below minBacklog is not; one the
// deadline only shortened is timed shorter.
func TestWorthTimingBlamesOnlyTheDeadline(t *testing.T) {
	for _, tc := range []struct {
		asked, fitted, want int64
		ok                  bool
	}{{86, 86, 86, true}, {86, 40, 40, false}, {200000, 999, 999, false}, {200000, 5000, 5000, true}, {200000, 200000, 200000, true}} {
		if n, ok := worthTiming(tc.asked, tc.fitted); n != tc.want || ok != tc.ok {
			t.Errorf("worthTiming(%d, %d) = %d, %v; want %d, %v", tc.asked, tc.fitted, n, ok, tc.want, tc.ok)
		}
	}
}

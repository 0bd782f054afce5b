package budget

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// seven messages timed over 9 rounds (the fewest that can reach
// significance) at 10 ms, priced from a warm-up at 10 ms: 0.5 s of
// overhead and 0.65 s a message a round, 5 s a round, 45 s for the rounds.
func sevenTimed(b Budget) (BenchForecast, Prices) {
	p := Prices{Rounds: 10, MinRounds: 9, Benchtime: 100 * time.Millisecond, Measured: MinBenchtime, RoundOverhead: 500 * time.Millisecond}
	var timed []string
	for i := range 7 {
		name := fmt.Sprintf("m%d.V1", i)
		timed = append(timed, name)
		p.Messages = append(p.Messages, Price{Name: name, Gating: true, Round: 450 * time.Millisecond, Build: 200 * time.Millisecond})
	}
	plan := BenchForecast{Deadline: b.Now().Add(45 * time.Second), Rounds: 9, Benchtime: MinBenchtime, Timed: timed, Note: "to fit 45s: benchtime 100ms → 10ms, rounds 10 → 9"}
	return plan, p
}

// A first round that cost what it was priced at changes nothing.
func TestRefitLeavesAPlanThatFits(t *testing.T) {
	clock, start := newClock()
	b := Budget{Start: start, Total: 10 * time.Minute, Now: clock.now}
	plan, prices := sevenTimed(b)
	clock.spend(5 * time.Second)
	if got := b.Refit(plan, prices, 5*time.Second); got.Rounds != 9 || len(got.Timed) != 7 || got.Note != plan.Note {
		t.Fatalf("%+v", got)
	}
}

// A first round that cost twice its price would stop the rounds at the
// deadline after 4 or 5, short of the 9 that can reach significance: the
// re-fit keeps 9 rounds for fewer messages, within the time left at the
// measured cost with a margin for rounds that vary, and says why.
func TestRefitKeepsTheRoundsByTimingFewerMessages(t *testing.T) {
	clock, start := newClock()
	b := Budget{Start: start, Total: 10 * time.Minute, Now: clock.now}
	plan, prices := sevenTimed(b)
	clock.spend(10 * time.Second)
	got := b.Refit(plan, prices, 10*time.Second)
	if got.Rounds != 9 || len(got.Timed) == 0 || len(got.Timed) >= 7 || len(got.Untimed) != 7-len(got.Timed) {
		t.Fatalf("%+v", got)
	}
	perRound := time.Duration(2 * float64(500*time.Millisecond+time.Duration(len(got.Timed))*650*time.Millisecond))
	if end := clock.t.Add(time.Duration(float64(8*perRound) / refitMargin)); end.After(plan.Deadline) {
		t.Fatalf("%d messages × 8 rounds at the measured cost, with the margin, end %s late", len(got.Timed), end.Sub(plan.Deadline))
	}
	if !strings.Contains(got.Note, "the first round took 10s against 5.1s priced: 5 more messages not timed") {
		t.Fatalf("note %q", got.Note)
	}
}

// When not even one message fits the rounds left, none is timed after
// the first round.
func TestRefitCanCutEveryMessage(t *testing.T) {
	clock, start := newClock()
	b := Budget{Start: start, Total: 10 * time.Minute, Now: clock.now}
	plan, prices := sevenTimed(b)
	clock.spend(40 * time.Second)
	if got := b.Refit(plan, prices, 40*time.Second); got.Rounds != 1 || len(got.Timed) != 0 || len(got.Untimed) != 7 {
		t.Fatalf("%+v", got)
	}
}

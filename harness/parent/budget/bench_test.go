package budget

import (
	"strings"
	"testing"
	"time"
)

// three messages, one unchanged, costing 6 s a round at 100ms plus 1 s of
// overhead: 10 rounds take 70 s.
func bench(budget time.Duration) Bench {
	return Bench{Budget: budget, Rounds: 10, Benchtime: 100 * time.Millisecond, MinRounds: 6, Overhead: time.Second,
		Messages: []Message{{Name: "a.Changed", Price: 2 * time.Second, Gating: true}, {Name: "b.Unchanged", Price: 2 * time.Second}, {Name: "c.Changed", Price: 2 * time.Second, Gating: true}}}
}

func cost(b Bench, p BenchForecast) time.Duration {
	var ms []Message
	for _, m := range b.Messages {
		for _, n := range p.Timed {
			if m.Name == n {
				ms = append(ms, m)
			}
		}
	}
	return time.Duration(p.Rounds) * roundPrice(b, ms, p.Benchtime)
}

func TestWhatFitsIsLeftAlone(t *testing.T) {
	p := ForecastBench(bench(70 * time.Second))
	if p.Rounds != 10 || p.Benchtime != 100*time.Millisecond || len(p.Timed) != 3 || p.Note != "" {
		t.Fatalf("%+v", p)
	}
}

// A warm-up at 10 ms prices the same round: its costs are a tenth, and
// the plan scales them to the benchtime asked.
func TestAShortWarmUpPricesTheRoundAskedFor(t *testing.T) {
	b := bench(70 * time.Second)
	b.Measured = 10 * time.Millisecond
	for i := range b.Messages {
		b.Messages[i].Price /= 10
	}
	if p := ForecastBench(b); p.Rounds != 10 || p.Benchtime != 100*time.Millisecond || len(p.Timed) != 3 || p.Note != "" {
		t.Fatalf("fits as at 100 ms: %+v", p)
	}
	b.Budget = 60 * time.Second
	if p := ForecastBench(b); p.Benchtime >= 100*time.Millisecond || cost(b, p) > b.Budget {
		t.Fatalf("60 s: %+v costs %s", p, cost(b, p))
	}
}

func TestShorterBenchmarksFirst(t *testing.T) {
	b := bench(40 * time.Second)
	p := ForecastBench(b)
	if p.Rounds != 10 || p.Benchtime >= 100*time.Millisecond || p.Benchtime < MinBenchtime || len(p.Untimed) != 0 {
		t.Fatalf("%+v", p)
	}
	if c := cost(b, p); c > b.Budget {
		t.Fatalf("plan costs %s, over %s", c, b.Budget)
	}
	if !strings.Contains(p.Note, "benchtime 100ms → ") {
		t.Errorf("note %q", p.Note)
	}
}

func TestThenFewerRoundsButEnoughForTheTest(t *testing.T) {
	b := bench(12 * time.Second) // a round at 10ms costs 1.6 s: 7 rounds
	p := ForecastBench(b)
	if p.Rounds != 7 || p.Benchtime != MinBenchtime || len(p.Untimed) != 0 {
		t.Fatalf("%+v", p)
	}
	if !strings.Contains(p.Note, "rounds 10 → 7") {
		t.Errorf("note %q", p.Note)
	}
}

func TestThenUnchangedMessagesAreNotTimed(t *testing.T) {
	b := bench(9 * time.Second) // 6 rounds of all three take 9.6 s; without b.Unchanged 8.4 s
	p := ForecastBench(b)
	if len(p.Untimed) != 1 || p.Untimed[0] != "b.Unchanged" || p.Rounds < b.MinRounds {
		t.Fatalf("%+v", p)
	}
	if c := cost(b, p); c > b.Budget {
		t.Fatalf("plan costs %s, over %s", c, b.Budget)
	}
	if !strings.Contains(p.Note, "1 of 3 messages not timed") {
		t.Errorf("note %q", p.Note)
	}
}

func TestNothingFitsNothingIsTimed(t *testing.T) {
	p := ForecastBench(bench(time.Second))
	if p.Rounds != 0 || len(p.Timed) != 0 || len(p.Untimed) != 3 || !strings.Contains(p.Note, "3 of 3 messages not timed") {
		t.Fatalf("%+v", p)
	}
}

// Messages the warm-up did not reach are not timed, and the note counts
// them among all the messages asked for.
func TestUnpricedMessagesAreNotTimedAndCounted(t *testing.T) {
	b := bench(70 * time.Second)
	b.Unpriced = []string{"d.Unreached", "e.Unreached"}
	p := ForecastBench(b)
	if len(p.Timed) != 3 || strings.Join(p.Untimed, ",") != "d.Unreached,e.Unreached" {
		t.Fatalf("%+v", p)
	}
	if !strings.Contains(p.Note, "the warm-up round did not reach 2") || !strings.Contains(p.Note, "2 of 5 messages not timed") {
		t.Fatalf("note %q", p.Note)
	}
}

package budget

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// fakeClock is a clock a test moves by hand.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time        { return c.t }
func (c *fakeClock) spend(d time.Duration) { c.t = c.t.Add(d) }
func newClock() (*fakeClock, time.Time) {
	t := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	return &fakeClock{t}, t
}
func seconds(s float64) time.Duration                   { return time.Duration(s * float64(time.Second)) }
func spent(c *fakeClock, start time.Time) time.Duration { return c.t.Sub(start) }

// fiftySeven is a 57-message module with every message changed, priced
// as a real one was (records near the 8 KiB cap: counting one message
// took ~55 s, a bench round of all of them at 100 ms ~60 s).
func fiftySeven() Prices {
	p := Prices{Counting: true, Pipeline: true, Rounds: 10, MinRounds: 9, Benchtime: 100 * time.Millisecond,
		Measured: 100 * time.Millisecond, RoundOverhead: 200 * time.Millisecond}
	for i := range 57 {
		big := i%5 == 0
		c := Price{Name: fmt.Sprintf("m%02d.V1", i), Gating: true, Count: seconds(3.5), Round: seconds(0.9), Build: seconds(0.15)}
		if big {
			c.Count, c.Round, c.Build = seconds(16), seconds(1.4), seconds(0.4)
		}
		p.Messages = append(p.Messages, c)
	}
	return p
}

// The whole run, stage by stage, on a fake clock: each stage spends what
// its plan priced; the plans re-divide what is left; the run ends before
// the deadline and every cut is named.
func TestAFiftySevenMessagePlanEndsBeforeTheDeadline(t *testing.T) {
	clock, start := newClock()
	b := Budget{Start: start, Total: 10 * time.Minute, Now: clock.now}
	clock.spend(90 * time.Second) // cache, build, schema checks, prepare, sizes
	p := fiftySeven()

	plan := b.Forecast(FromCPU, p)
	if len(plan.CPU.Counted) == 0 {
		t.Fatalf("cpu plan: %+v", plan.CPU)
	}
	if plan.CPU.Price > time.Duration(float64(510*time.Second)*cpuShare) {
		t.Fatalf("counts priced at %s, over their share", plan.CPU.Price)
	}
	clock.spend(plan.CPU.Price)

	plan = b.Forecast(FromBench, p)
	bp := plan.Bench
	if bp.Note == "" || bp.Rounds > 0 && bp.Rounds < p.MinRounds {
		t.Fatalf("bench plan: %+v", bp)
	}
	clock.spend(cost(p.bench(0), BenchForecast{Rounds: bp.Rounds, Benchtime: bp.Benchtime, Timed: bp.Timed}))
	if clock.t.After(bp.Deadline) {
		t.Fatalf("bench rounds end %s after their deadline", clock.t.Sub(bp.Deadline))
	}

	if !b.Deadline().Equal(start.Add(10*time.Minute - Reserve)) {
		t.Fatalf("deadline %s", b.Deadline())
	}
	if clock.t.After(b.Deadline()) {
		t.Fatalf("the pipeline starts after the deadline (%s spent)", spent(clock, start))
	}
	if len(bp.Timed) == 0 {
		t.Fatalf("nothing timed: %+v", bp)
	}
	t.Logf("bench: %s", bp.Note)
}

// Counts of changed messages are kept before unchanged ones; a count's
// length is never the plan's to cut.
func TestCountsCutUnchangedThenTheLast(t *testing.T) {
	ms := []Price{
		{Name: "a.Big", Gating: true, Count: seconds(40)},
		{Name: "b.Small", Gating: true, Count: seconds(4)},
		{Name: "c.Same", Gating: false, Count: seconds(4)},
	}
	if p := ForecastCPU(seconds(48), 1, 1, ms); len(p.Counted) != 3 || p.Note != "" {
		t.Fatalf("all fit: %+v", p)
	}
	p := ForecastCPU(seconds(46), 1, 1, ms)
	if strings.Join(p.Uncounted, ",") != "c.Same" || p.Price > seconds(46) || !strings.Contains(p.Note, "1 of 3 messages not counted") {
		t.Fatalf("the unchanged one goes first: %+v", p)
	}
	p = ForecastCPU(seconds(43), 1, 1, ms)
	if strings.Join(p.Uncounted, ",") != "b.Small,c.Same" || p.Price > seconds(43) {
		t.Fatalf("then the last changed one: %+v", p)
	}
	if p := ForecastCPU(0, 1, 1, ms); len(p.Counted) != 0 || len(p.Uncounted) != 3 {
		t.Fatalf("no time: %+v", p)
	}
}

// Time a stage does not use goes to the next: planned again later, the
// bench rounds get what the counts left.
func TestUnusedTimeGoesToTheNextStage(t *testing.T) {
	clock, start := newClock()
	b := Budget{Start: start, Total: 10 * time.Minute, Now: clock.now}
	p := fiftySeven()
	first := b.Forecast(FromCPU, p)
	forecast := first.Bench.Deadline.Sub(clock.t.Add(first.CPU.Price))
	clock.spend(10 * time.Second) // the counts took far less than planned
	second := b.Forecast(FromBench, p).Bench
	if got := second.Deadline.Sub(clock.t); got <= forecast {
		t.Fatalf("bench rounds may take %s, forecast %s before the counts", got, forecast)
	}
	if left := b.Left(); left != 10*time.Minute-Reserve-10*time.Second {
		t.Fatalf("left %s", left)
	}
}

// The warm-up that prices the bench rounds has a deadline of its own, a
// quarter of the rounds' time from when they are planned.
func TestTheWarmUpGetsAQuarterOfTheBenchTime(t *testing.T) {
	clock, start := newClock()
	b := Budget{Start: start, Total: 10 * time.Minute, Now: clock.now}
	clock.spend(190 * time.Second)
	bp := b.Forecast(FromBench, fiftySeven()).Bench
	rounds := bp.Deadline.Sub(clock.t)
	if rounds != 200*time.Second { // (600 − 10 − 190) / 2: the pipeline follows
		t.Fatalf("bench rounds get %s", rounds)
	}
	if warm := bp.WarmDeadline.Sub(clock.t); warm != rounds/4 {
		t.Fatalf("warm-up gets %s of %s", warm, rounds)
	}
}

// With two processes per side, the plan cuts the last messages' second
// process, then messages; workers divide the cost.
func TestCountsCutProcessesThenMessages(t *testing.T) {
	ms := []Price{
		{Name: "a.Big", Gating: true, Count: seconds(40)},
		{Name: "b.Small", Gating: true, Count: seconds(4)},
	}
	if p := ForecastCPU(seconds(44), 2, 2, ms); len(p.Counted) != 2 || p.Counted[0].Processes != 2 || p.Note != "" {
		t.Fatalf("2 × 44 s on 2 workers fit 44 s: %+v", p)
	}
	p := ForecastCPU(seconds(42), 2, 2, ms)
	if strings.Join(p.FewerProcesses, ",") != "b.Small" || p.Counted[0].Processes != 2 || p.Counted[1].Processes != 1 ||
		!strings.Contains(p.Note, "1 of 2 messages counted in fewer processes per side than 2 (down to 1: the format's floor)") {
		t.Fatalf("then the last message's second process: %+v", p)
	}
	p = ForecastCPU(seconds(20), 2, 2, ms)
	if strings.Join(p.Uncounted, ",") != "b.Small" || p.Counted[0].Processes != 1 || p.Price > seconds(20) {
		t.Fatalf("then messages, the first in one process: %+v", p)
	}
}

// With three processes per side, every message goes to two, the last
// first, before any goes to one.
func TestCountsCutProcessesOneAtATime(t *testing.T) {
	ms := []Price{
		{Name: "a.V1", Gating: true, Count: seconds(10)},
		{Name: "b.V1", Gating: true, Count: seconds(10)},
	}
	procs := func(p CPUForecast) string {
		var s []string
		for _, c := range p.Counted {
			s = append(s, fmt.Sprint(c.Processes))
		}
		return strings.Join(s, ",")
	}
	if p := ForecastCPU(seconds(60), 1, 3, ms); procs(p) != "3,3" || p.Note != "" {
		t.Fatalf("3 + 3 processes of 10 s fit 60 s: %+v", p)
	}
	if p := ForecastCPU(seconds(50), 1, 3, ms); procs(p) != "3,2" || !strings.Contains(p.Note, "(down to 2)") {
		t.Fatalf("the last message to two first: %+v", p)
	}
	if p := ForecastCPU(seconds(40), 1, 3, ms); procs(p) != "2,2" {
		t.Fatalf("both to two before either to one: %+v", p)
	}
	if p := ForecastCPU(seconds(30), 1, 3, ms); procs(p) != "2,1" || !strings.Contains(p.Note, "2 of 2 messages counted in fewer processes per side than 3 (down to 1: the format's floor)") {
		t.Fatalf("then the last to one: %+v", p)
	}
}

// What the counts did replaces what was planned: a message whose processes
// the meter stopped is uncounted, one with fewer whole processes than
// planned is among FewerProcesses.
func TestRanRecordsWhatTheCountsDid(t *testing.T) {
	p := CPUForecast{Counted: []Counted{{"a.V1", 2}, {"b.V1", 2}, {"c.V1", 2}, {"d.V1", 1}},
		FewerProcesses: []string{"d.V1"}, Uncounted: []string{"e.V1"}, asked: 2}
	p.Ran(map[string]int{"a.V1": 2, "b.V1": 1})
	if len(p.Counted) != 2 || strings.Join(p.Uncounted, ",") != "e.V1,c.V1,d.V1" ||
		strings.Join(p.FewerProcesses, ",") != "b.V1" || p.Counted[1].Processes != 1 ||
		!strings.Contains(p.Note, "1 of 5 messages counted in fewer processes per side than 2 (down to 1: the format's floor), 3 of 5 messages not counted") {
		t.Fatalf("%+v", p)
	}
}

// Counts beside the bench rounds: the rounds' forecast, made as both start,
// keeps back what the counts are forecast to take, so the rounds get what
// they would have had after the counts, not the counts' time as well.
func TestABenchBesideTheCountsKeepsTheirTimeBack(t *testing.T) {
	clock, start := newClock()
	b := Budget{Start: start, Total: 10 * time.Minute, Now: clock.now, Workers: 2}
	clock.spend(90 * time.Second)
	p := fiftySeven()
	first := b.Forecast(FromCPU, p)
	// One after the other: the rounds are forecast when the counts end.
	clock.spend(first.CPU.Price)
	after := b.Forecast(FromBench, p).Bench
	clock.t = start.Add(90 * time.Second)
	beside := p
	beside.CountsBeside = first.CPU.Price
	with := b.Forecast(FromBench, beside).Bench
	without := b.Forecast(FromBench, p).Bench
	if !with.Deadline.Equal(after.Deadline.Add(-first.CPU.Price)) || with.Benchtime != after.Benchtime || with.Rounds != after.Rounds {
		t.Fatalf("beside the counts: deadline %s benchtime %s rounds %d; after them: deadline %s (less the counts' %s) benchtime %s rounds %d",
			with.Deadline.Sub(start), with.Benchtime, with.Rounds, after.Deadline.Sub(start), first.CPU.Price, after.Benchtime, after.Rounds)
	}
	if !without.Deadline.After(with.Deadline) {
		t.Fatalf("without Beside the rounds would not take the counts' time: %s vs %s", without.Deadline.Sub(start), with.Deadline.Sub(start))
	}
}

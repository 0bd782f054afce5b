// Package budget owns the time budget: one forecast, from one clock, decides
// what every stage after the exact ones may spend — how many messages'
// instructions are counted and over how many rotations, how many bench
// rounds at what benchtime for which messages, and when the pipeline must
// be done — so that the gate ends within time-budget on any module and
// says what it cut. Timing is cut first (it is noisy, and a message whose
// schema did not change cannot fail on it), exact counts after.
//
// The gate asks for a plan at the start of each of those stages, with the
// prices it knows by then (estimates from the sizes stage's probe, then
// what earlier stages measured): each plan re-divides what is left, so
// time one stage did not use goes to the next.
package budget

import (
	"time"
)

// Reserve is what the plan keeps back for the stages after the last
// timing one (compare, history, verdict, the report): a few seconds
// measured, kept generous.
const Reserve = 10 * time.Second

// Shares of what is left when a stage is planned.
const (
	// cpuShare is the most of what is left that instruction counts may
	// take when timing stages follow; the rest is timing's, at least a
	// quarter, so a module whose counts alone would fill the budget is
	// still timed somewhat.
	cpuShare = 0.75
	// benchShare is the bench rounds' part of the timing time when the
	// pipeline follows; the pipeline has the rest and whatever the bench
	// rounds did not use.
	benchShare = 0.5
	// warmShare is the most of the bench rounds' time the warm-up round
	// that prices them may take: its prices come from the sizes stage's
	// probe, which a module of big records can miss by several times, so
	// the warm-up stops at its deadline and what it did not reach is not
	// timed.
	warmShare = 0.25
)

// Budget is the gate's time budget on a clock.
type Budget struct {
	Start time.Time        // when the step started (the caller's stages included)
	Total time.Duration    // input time-budget
	Now   func() time.Time // the clock; time.Now in the gate, a fake in tests
	// Workers is how many processes the exact stages run at once (input
	// workers): the counts' plan divides their cost by it.
	Workers int
}

// Deadline is when the last timing stage must be done.
func (b Budget) Deadline() time.Time { return b.Start.Add(b.Total - Reserve) }

// Left is what is left before the deadline (negative when past it).
func (b Budget) Left() time.Duration { return b.Deadline().Sub(b.Now()) }

// Stage is where a plan starts.
type Stage int

const (
	FromCPU Stage = iota
	FromBench
)

// Prices are what the stages from the one being planned would cost, as
// far as known.
type Prices struct {
	Messages []Price // in priority order: changed first; the last is cut first
	Counting bool    // instruction counts run (cpu-cost)
	// Processes is how many processes count each message on each side
	// before the plan cuts (input cpu-processes): each has its own hash
	// seeds, so a message whose lookups vary by seed shows it only across
	// processes, and their spread sets its noise floor.
	Processes int
	Pipeline  bool // the pipeline stage runs
	// CountsBeside is what the counts running beside the bench rounds
	// (input counts-beside) were forecast to take (their CPUForecast's
	// Price); 0 when they run first or not at all. A bench forecast keeps
	// it back, as if they ran first: beside, they end no later than that
	// plus the rounds, so the stages after the rounds never have less than
	// one after the other would leave them.
	CountsBeside time.Duration
	// Rounds and Benchtime are the bench rounds asked for; MinRounds is the
	// fewest that can still fail the gate (verdict.MinRounds).
	Rounds, MinRounds int
	Benchtime         time.Duration
	// Measured is the benchtime the Round prices are for: the warm-up
	// round's, or Benchtime for estimates.
	Measured time.Duration
	// RoundOverhead is a bench round's cost that is no message's:
	// starting both sides' programs.
	RoundOverhead time.Duration
	// Unpriced are messages to be timed that have no price: the warm-up
	// round did not reach them. They are not timed, and the plan says so.
	Unpriced []string
}

// Price is one message's cost in each stage, both sides together.
type Price struct {
	Name string
	// Gating is false for a message whose schema is identical on both
	// sides (measure: all): its figures cannot differ, so it is cut first.
	Gating bool
	// Count is counting its instructions in one process per side, at the
	// length each count's precision needs: every process's time added up,
	// as on one worker (package cpucost's model).
	Count time.Duration
	// Round is its part of one bench round at Prices.Measured; Build the
	// part that does not scale with benchtime (building its records in
	// both sides' programs).
	Round, Build time.Duration
}

// Forecast is what each stage from the planned one may do; the pipeline,
// last, has what is left until the deadline (Budget.Pipeline).
type Forecast struct {
	CPU   CPUForecast
	Bench BenchForecast
}

// Forecast divides what is left among the stages from `from` on: counts up
// to cpuShare of it, the bench rounds benchShare of the rest when the
// pipeline follows; the pipeline has everything until the deadline. With
// CountsBeside the rounds start with the counts, at the same share.
func (b Budget) Forecast(from Stage, p Prices) Forecast {
	now, left := b.Now(), max(b.Left(), 0)
	var plan Forecast
	// timing is what the bench rounds and the pipeline share; before, what
	// passes before the rounds start (the counts, when they run first).
	timing, before := left, time.Duration(0)
	if from <= FromCPU && p.Counting {
		share := time.Duration(float64(left) * cpuShare)
		plan.CPU = ForecastCPU(share, b.Workers, p.Processes, p.Messages)
		plan.CPU.Deadline = now.Add(share)
		timing, before = left-plan.CPU.Price, plan.CPU.Price
	} else if from == FromBench && p.CountsBeside > 0 {
		timing = max(left-p.CountsBeside, 0)
	}
	if from <= FromBench {
		bench := timing
		if p.Pipeline {
			bench = time.Duration(float64(timing) * benchShare)
		}
		plan.Bench = ForecastBench(p.bench(bench))
		plan.Bench.Deadline = now.Add(before + bench)
		plan.Bench.WarmDeadline = now.Add(before + time.Duration(float64(bench)*warmShare))
	}
	return plan
}

// bench is the bench rounds' problem for ForecastBench.
func (p Prices) bench(budget time.Duration) Bench {
	ms := make([]Message, len(p.Messages))
	for i, m := range p.Messages {
		ms[i] = Message{Name: m.Name, Price: m.Round, Fixed: m.Build, Gating: m.Gating}
	}
	return Bench{Budget: budget, Rounds: p.Rounds, Benchtime: p.Benchtime, Measured: p.Measured, MinRounds: p.MinRounds,
		Overhead: p.RoundOverhead, Messages: ms, Unpriced: p.Unpriced}
}

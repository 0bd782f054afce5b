package gate

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"time"

	"github.com/wiregate/wiregate/harness/parent/budget"
	"github.com/wiregate/wiregate/harness/parent/interleave"
	"github.com/wiregate/wiregate/harness/program/bench"
	"github.com/wiregate/wiregate/harness/program/benchprog"
)

// timings are the bench stage's results: each side's benchfmt lines of
// every round it ran (what ran before a stop included), and the plan.
type timings struct {
	out [2][]byte // base, head: the timed rounds' lines, without allocations
	// allocs are each side's exact allocation figures (B/op, allocs/op),
	// counted once a message and side: the warm-up round's lines and the
	// untimed round's, their times dropped.
	allocs [2][]byte
	// speeds are each benchmark's warm-up ns/op on each side that ran it,
	// by name: a timed round runs it, on both sides, the operations that
	// last its benchtime at their mean (roundIterations).
	speeds          map[string]speed
	forecast        budget.BenchForecast
	rounds          int // rounds run
	unchangedRounds int // rounds of unchanged-schema messages, when fewer
	pin             string
	// warmed is what the warm-up round took of each message it reached:
	// one round on one side at budget.MinBenchtime, records built.
	warmed map[string]time.Duration
	// notTimed are the gating messages planned unable to fail before any
	// round, from the noise the base's history point measured.
	notTimed notTimed
	// noSlowdown are the messages timed no further, by the rounds they
	// were timed, because their spread gave the rounds planned the power
	// and head showed no slowdown (judgeNoSlowdown); their MDE is the
	// planned rounds'.
	noSlowdown map[string]int
}

// benchRounds alternates base and head, one round each, in
// interleave.Order (ABBA, base first in round 0). Before the rounds,
// one discarded warm-up round per side at the shortest benchtime warms the
// programs and prices a round; it times only what the plan, by the sizes
// stage's prices, can time at all, and stops at the plan's warm-up
// deadline (warmUp). Every round is checked against the plan's deadline
// before it starts.
func (g *run) benchRounds(ctx context.Context, ps programs, prices budget.Prices, cutoff float64, noise map[string]map[string][]float64) (timings, string, error) {
	t, note, err := g.timeRounds(ctx, ps, prices, cutoff, noise)
	if err != nil || len(t.notTimed) == 0 {
		return t, note, err
	}
	// The messages planned not to be timed get their exact figures (B/op,
	// allocs/op) all the same: one round a side at the shortest
	// benchtime, its times dropped, so nothing but the timing goes
	// unjudged.
	outs, err := allocRounds(ctx, ps, slices.Sorted(maps.Keys(t.notTimed)))
	if err != nil && budget.Stopped(ctx) {
		return t, joinNotes(note, stoppedNote), nil
	}
	for _, o := range outs {
		t.keepAllocs(o.side, o.out)
	}
	return t, note, err
}

// sideOut is one side's benchfmt output: side is its index (0 base, 1 head).
type sideOut struct {
	side int
	out  []byte
}

// allocRounds is allocRound of messages on each side that has them, in
// order: every side's output, or none with the error (a side alone
// compares nothing).
func allocRounds(ctx context.Context, ps programs, messages []string) ([]sideOut, error) {
	var outs []sideOut
	for i, p := range ps.sides() {
		sel, ok := p.only(messages)
		if !ok {
			continue
		}
		out, err := allocRound(ctx, p, sel)
		if err != nil {
			return nil, err
		}
		outs = append(outs, sideOut{side: sideIndex(ps, i), out: out})
	}
	return outs, nil
}

// keepAllocs keeps a round's exact allocation figures for side, its times
// dropped: allocations are the same every round, so one a side is exact.
func (t *timings) keepAllocs(side int, out []byte) {
	t.allocs[side] = append(t.allocs[side], nsPerOp.ReplaceAll(out, nil)...)
}

// speed is one benchmark's warm-up ns/op on each side that ran it.
type speed struct {
	message string
	ns      []float64
}

// keepSpeeds keeps each benchmark's ns/op of a warm-up round.
func (t *timings) keepSpeeds(out []byte) {
	if t.speeds == nil {
		t.speeds = map[string]speed{}
	}
	for line := range bytes.Lines(out) {
		if m := benchLine.FindSubmatch(line); m != nil {
			if ns, err := strconv.ParseFloat(string(m[4]), 64); err == nil {
				s := t.speeds[string(m[1])]
				s.message, s.ns = string(m[2]), append(s.ns, ns)
				t.speeds[string(m[1])] = s
			}
		}
	}
}

// roundIterations are the operations each benchmark of messages runs in
// a timed round at benchtime, the same on both sides: those that last
// benchtime at the mean of its sides' warm-up speeds. The same N because
// a loop of fewer operations than its pool times only the pool's first
// records (bench's loops start at the first): with an N a side, a slower
// head would be timed on fewer records than the base, and the delta
// would come from which records, not from the schema.
func (t *timings) roundIterations(benchtime time.Duration, messages []string) map[string]int {
	it := map[string]int{}
	for name, s := range t.speeds {
		if !slices.Contains(messages, s.message) {
			continue
		}
		var sum float64
		for _, ns := range s.ns {
			sum += ns
		}
		if n := bench.Iterations(benchtime, sum/float64(len(s.ns))); n > 0 {
			it[name] = n
		}
	}
	return it
}

// nsPerOp is a benchfmt line's time field.
var nsPerOp = regexp.MustCompile(`\t *[0-9.e+-]+ ns/op`)

// timeRounds are the bench rounds of the messages it can time.
func (g *run) timeRounds(ctx context.Context, ps programs, prices budget.Prices, cutoff float64, noise map[string]map[string][]float64) (timings, string, error) {
	var t timings
	var names []string
	for _, m := range prices.Messages {
		names = append(names, m.Name)
	}
	t.notTimed = plannedFutile(noise, gating(names, prices), cutoff, prices.Rounds, g.timeThreshold)
	prices.Messages = slices.DeleteFunc(slices.Clone(prices.Messages), func(m budget.Price) bool { _, no := t.notTimed[m.Name]; return no })
	planned := notTimedNote(t.notTimed, prices.Rounds)
	guess := g.budget.Forecast(budget.FromBench, prices).Bench
	if len(guess.Timed) == 0 {
		return t, joinNotes(guess.Note, planned), nil
	}
	prog := newProgress(g.o.Log, "bench", progressEvery)
	defer prog.stop()
	start := g.budget.Now()
	warmMeter := g.budget.Meter(guess.WarmDeadline)
	reached, warm, err := warmUp(guess.Timed, warmMeter, func(chunk []string) time.Duration { return warmPrice(prices, chunk) }, func(chunk []string, done int) ([][]byte, error) {
		prog.step("warm-up round: message %d of %d", done+1, len(guess.Timed))
		sides, err := allocRounds(ctx, ps, chunk)
		if err != nil {
			return nil, err
		}
		var outs [][]byte
		for _, o := range sides {
			outs = append(outs, o.out)
			t.keepAllocs(o.side, o.out)
			t.keepSpeeds(o.out)
		}
		return outs, nil
	})
	// Stopped at the deadline, the warm-up priced what it reached: the
	// plan times none of the rest, and no round starts after the deadline.
	deadline := ""
	if err != nil && budget.Stopped(ctx) {
		deadline, err = stoppedNote, nil
	}
	if err != nil {
		return t, "", err
	}
	warmed := warmedPrices(prices, reached, g.budget.Now().Sub(start), warm)
	t.warmed = map[string]time.Duration{}
	for _, m := range warmed.Messages {
		t.warmed[m.Name] = (m.Round + m.Build) / time.Duration(max(ps.holding(m.Name), 1))
	}
	t.forecast = g.budget.Forecast(budget.FromBench, warmed).Bench
	unchanged := g.s.RoundsFor(true)
	meter := g.budget.Meter(t.forecast.Deadline)
	dir, err := os.MkdirTemp("", "wiregate-rounds-")
	if err != nil {
		return t, "", fmt.Errorf("bench rounds: %w", err)
	}
	defer os.RemoveAll(dir)
	iterations := filepath.Join(dir, "iterations.txt")
	// message → the rounds it was timed, once it has the power its verdict
	// needs or cannot reach it
	powered, futile := map[string]int{}, map[string]int{}
	t.noSlowdown = map[string]int{}
	stopped := func(m string) bool {
		_, p := powered[m]
		_, f := futile[m]
		_, n := t.noSlowdown[m]
		return p || f || n
	}
rounds:
	for round := 0; round < t.forecast.Rounds; round++ {
		gated := gating(t.forecast.Timed, prices)
		if len(gated) > 0 && !slices.ContainsFunc(gated, func(m string) bool { return !stopped(m) }) && round >= unchanged {
			break // every gating message stopped: powered or futile
		}
		done, ok := meter.Start(t.forecast.Round)
		if !ok {
			t.forecast.Note = joinNotes(t.forecast.Note, fmt.Sprintf("stopped after %d of %d rounds at the deadline", round, t.forecast.Rounds))
			break
		}
		timed := t.forecast.Timed
		if round >= unchanged {
			timed = gated
		}
		timed = slices.DeleteFunc(slices.Clone(timed), stopped)
		prog.step("round %d of %d", round+1, t.forecast.Rounds)
		roundStart := g.budget.Now()
		if err := benchprog.WriteIterations(iterations, t.roundIterations(t.forecast.Benchtime, timed)); err != nil {
			return t, t.forecast.Note, err
		}
		before := [2]int{len(t.out[0]), len(t.out[1])}
		for _, side := range interleave.Order(len(ps.sides()), round) {
			p := ps.sides()[side]
			sel, ok := p.only(timed)
			if !ok {
				continue
			}
			out, err := p.bench(ctx, benchprog.BenchFlags{Selection: sel, Timing: benchprog.Timing{Count: 1, Benchtime: t.forecast.Benchtime},
				SkipAllocs: true, IterationsFile: iterations})
			if err != nil && budget.Stopped(ctx) {
				// The round the deadline stopped is dropped whole: a side
				// alone in it would unbalance the ABBA order.
				t.out[0], t.out[1] = t.out[0][:before[0]], t.out[1][:before[1]]
				deadline = fmt.Sprintf("%s (round %d of %d)", stoppedNote, round+1, t.forecast.Rounds)
				break rounds
			}
			if err != nil {
				return t, t.forecast.Note, err
			}
			t.out[sideIndex(ps, side)] = append(t.out[sideIndex(ps, side)], out...)
		}
		done()
		t.rounds = round + 1
		if round == 0 {
			// The first round is the first real price of a round: the plan
			// re-fits the rest by it, and a message it cuts loses its one
			// round (one sample a side can show nothing).
			refit := g.budget.Refit(t.forecast, warmed, g.budget.Now().Sub(roundStart))
			if len(refit.Timed) < len(t.forecast.Timed) {
				for i := range t.out {
					t.out[i] = keepBenchmarks(t.out[i], refit.Timed)
				}
			}
			if refit.Round != t.forecast.Round {
				// The rounds from here on are priced anew: the meter starts over.
				meter = g.budget.Meter(t.forecast.Deadline)
			}
			t.forecast = refit
		}
		if (round+1)%2 == 0 {
			// Whole ABBA pairs only: each side first equally often. (Round
			// 0's refit, which may change the plan, is never such a round.)
			p := judgePower(t.out[0], slices.DeleteFunc(slices.Clone(gated), stopped), cutoff, t.forecast.Rounds, g.timeThreshold)
			for _, m := range p.Powered {
				powered[m] = round + 1
			}
			for _, m := range p.Futile {
				futile[m] = round + 1
			}
			for _, m := range judgeNoSlowdown(t.out[0], t.out[1], slices.DeleteFunc(slices.Clone(gated), stopped), cutoff, t.forecast.Rounds, g.timeThreshold) {
				t.noSlowdown[m] = round + 1
			}
		}
	}
	if unchanged < t.rounds && len(gating(t.forecast.Timed, prices)) < len(t.forecast.Timed) {
		t.unchangedRounds = unchanged
	}
	t.pin = ps.head.prog.Pinned()
	// Stopping at the power a verdict needs is not a cut: the stage says
	// it, the plan's note (what was cut) does not.
	note := joinNotes(t.forecast.Note, deadline, planned, powerNote(powered, futile, t.noSlowdown, t.forecast.Rounds))
	if t.unchangedRounds > 0 {
		note = joinNotes(note, fmt.Sprintf("unchanged-schema messages timed %d rounds (information only)", t.unchangedRounds))
	}
	return t, note, nil
}

// keepBenchmarks keeps the lines of out that are not a benchmark, or a
// benchmark of one of messages.
func keepBenchmarks(out []byte, messages []string) []byte {
	var kept bytes.Buffer
	for line := range bytes.Lines(out) {
		if m := benchLine.FindSubmatch(line); m == nil || slices.Contains(messages, string(m[2])) {
			kept.Write(line)
		}
	}
	return kept.Bytes()
}

// allocRound is one round of sel on p at the shortest benchtime with its
// allocations counted, calibrating as testing does: the warm-up round and
// the untimed one (a timed round runs the warm-up's iterations instead).
func allocRound(ctx context.Context, p *program, sel benchprog.Selection) ([]byte, error) {
	return p.bench(ctx, benchprog.BenchFlags{Selection: sel, Timing: benchprog.Timing{Count: 1, Benchtime: budget.MinBenchtime}})
}

// bench runs one bench process of p with f.
func (p *program) bench(ctx context.Context, f benchprog.BenchFlags) ([]byte, error) {
	var out bytes.Buffer
	err := p.prog.Bench(ctx, f, &out)
	return out.Bytes(), p.wrap(err)
}

// gating keeps the messages whose timings can fail the gate.
func gating(messages []string, prices budget.Prices) []string {
	var out []string
	for _, m := range messages {
		for _, p := range prices.Messages {
			if p.Name == m && p.Gating {
				out = append(out, m)
			}
		}
	}
	return out
}

// warmChunk is how many messages one warm-up step runs: each step starts
// both sides' programs once, and the warm-up checks its deadline between
// steps, so prices that missed by several times overrun it by one step.
const warmChunk = 8

// warmUp runs the discarded warm-up round over timed, warmChunk messages
// a step, while the meter lets a step start at its price (the first step
// always runs: something must be priced); it returns the messages it
// reached and the steps' benchfmt outputs.
func warmUp(timed []string, meter *budget.Meter, price func(chunk []string) time.Duration, step func(chunk []string, done int) ([][]byte, error)) ([]string, [][]byte, error) {
	var reached []string
	var outs [][]byte
	for i := 0; i < len(timed); i += warmChunk {
		chunk := timed[i:min(i+warmChunk, len(timed))]
		done, ok := meter.Start(price(chunk))
		switch {
		case !ok && i > 0:
			return reached, outs, nil
		case !ok:
			done = meter.Force(price(chunk))
		}
		out, err := step(chunk, i)
		if err != nil {
			return reached, outs, err
		}
		done()
		reached = append(reached, chunk...)
		outs = append(outs, out...)
	}
	return reached, outs, nil
}

// warmPrice is a warm-up step over chunk by the prices: starting both
// programs, building the chunk's records, and its benchmarks at
// budget.MinBenchtime.
func warmPrice(p budget.Prices, chunk []string) time.Duration {
	c := p.RoundOverhead
	for _, m := range p.Messages {
		if slices.Contains(chunk, m.Name) {
			c += m.Build + time.Duration(float64(m.Round)*float64(budget.MinBenchtime)/float64(max(p.Measured, budget.MinBenchtime)))
		}
	}
	return c
}

// warmedPrices prices timed's round from the warm-up: its wall time less
// what does not scale with benchtime (starting the programs, building the
// records: the prices' Build), shared by each message's part of the
// benchmarks' own time. The messages the warm-up did not reach have no
// price: they are Unpriced, so the plan counts them as not timed.
func warmedPrices(p budget.Prices, timed []string, wall time.Duration, outs [][]byte) budget.Prices {
	byMessage := map[string]float64{}
	var total float64
	for _, out := range outs {
		for m, ns := range benchNanos(out) {
			byMessage[m] += ns
			total += ns
		}
	}
	fixed := p.RoundOverhead
	for _, m := range p.Messages {
		if slices.Contains(timed, m.Name) {
			fixed += m.Build
		}
	}
	// The warm-up counted allocations; the rounds do not (they are exact,
	// counted once): that pass is no part of a round's price.
	for _, out := range outs {
		fixed += time.Duration(allocPassNanos(out))
	}
	variable := max(wall-fixed, wall/4)
	out := p
	out.Measured = budget.MinBenchtime
	out.Messages = nil
	for _, m := range p.Messages {
		if !slices.Contains(timed, m.Name) {
			out.Unpriced = append(out.Unpriced, m.Name)
			continue
		}
		if total > 0 {
			m.Round = time.Duration(float64(variable) * byMessage[m.Name] / total)
		}
		out.Messages = append(out.Messages, m)
	}
	return out
}

// allocPassNanos is about what counting the allocations of one benchfmt
// output's benchmarks took: bench.AllocPassOps operations each, at its
// ns/op.
func allocPassNanos(out []byte) float64 {
	var ns float64
	for line := range bytes.Lines(out) {
		if m := benchLine.FindSubmatch(line); m != nil && bytes.Contains(line, []byte(" allocs/op")) {
			per, _ := strconv.ParseFloat(string(m[4]), 64)
			ns += per * bench.AllocPassOps
		}
	}
	return ns
}

// benchNanos is each message's time in the benchmarks' final runs of one
// benchfmt output (N × ns/op).
func benchNanos(out []byte) map[string]float64 {
	ns := map[string]float64{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		m := benchLine.FindSubmatch(sc.Bytes())
		if m == nil {
			continue
		}
		n, _ := strconv.ParseFloat(string(m[3]), 64)
		per, _ := strconv.ParseFloat(string(m[4]), 64)
		ns[string(m[2])] += n * per
	}
	return ns
}

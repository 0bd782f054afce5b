package gate

import (
	"bufio"
	"bytes"
	"regexp"
	"slices"
	"strconv"
	"time"

	"github.com/wiregate/wiregate/harness/budget"
	"github.com/wiregate/wiregate/harness/verdict"
)

// reserve is what the gate keeps back from the budget for the stages
// after the timing ones (compare, verdict, the report): a few seconds
// measured, kept generous.
const reserve = 10 * time.Second

// remaining is the budget left at this moment.
func (g *run) remaining() time.Duration {
	return g.s.TimeBudget - time.Since(g.start) - reserve
}

// benchBudget is what the bench rounds may take: half of what is left when
// the pipeline still has to run (it gets the rest, and what the bench does
// not use), all of it otherwise.
func (g *run) benchBudget() time.Duration {
	if g.s.Pipeline {
		return g.remaining() / 2
	}
	return g.remaining()
}

// warmupBenchtime is what the discarded warm-up round runs at: short, so
// that pricing a round does not itself overrun the budget (at 100 ms, the
// warm-up of 60 messages × 3 formats took 560 s, most of a 10-minute budget);
// it warms the programs all the same.
func (g *run) warmupBenchtime() time.Duration {
	return min(g.s.Benchtime, budget.MinBenchtime)
}

// planBench fits the bench rounds into their budget from the warm-up
// round: its wall time, and each benchmark's share of it.
func (g *run) planBench(warmup time.Duration, outs [][]byte) budget.BenchPlan {
	byMessage := map[string]float64{}
	var total float64
	for _, out := range outs {
		for msg, ns := range benchNanos(out) {
			byMessage[msg] += ns
			total += ns
		}
	}
	// What the warm-up spent outside the benchmarks' own loops (starting
	// the programs, building the records) is about what the correctness
	// stage spent doing the same.
	overhead := min(g.correctnessTime, warmup)
	var ms []budget.Message
	for _, m := range g.head.prep.Messages {
		share := time.Duration(0)
		if total > 0 {
			share = time.Duration(float64(warmup-overhead) * byMessage[m] / total)
		}
		ms = append(ms, budget.Message{Name: m, Cost: share, Gating: !g.unchanged[m]})
	}
	tests := 0 // sec/op comparisons in the verdict's timing family
	for range ms {
		tests += 2 * len(g.s.Formats)
	}
	return budget.PlanBench(budget.Bench{Budget: g.benchBudget(), Count: g.s.Count, Benchtime: g.s.Benchtime, Measured: g.warmupBenchtime(),
		MinCount: verdict.MinRounds(tests, g.cfg.Alpha), Overhead: overhead, Messages: ms})
}

var benchLine = regexp.MustCompile(`^Benchmark(?:Encode|Decode)/([^/]+)/\S+\s+(\d+)\s+([0-9.]+) ns/op`)

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
		n, _ := strconv.ParseFloat(string(m[2]), 64)
		per, _ := strconv.ParseFloat(string(m[3]), 64)
		ns[string(m[1])] += n * per
	}
	return ns
}

// timedOnly narrows a side's selection to the messages the plan times.
func timedOnly(messages, timed []string) []string {
	var out []string
	for _, m := range messages {
		if slices.Contains(timed, m) {
			out = append(out, m)
		}
	}
	return out
}

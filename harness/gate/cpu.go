package gate

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/wiregate/wiregate/harness/budget"
	"github.com/wiregate/wiregate/harness/compare"
	"github.com/wiregate/wiregate/harness/cpucost"
	"github.com/wiregate/wiregate/harness/report"
	"github.com/wiregate/wiregate/harness/verdict"
)

// counts are the cpu stage's results: each side's instruction counts (what
// was counted before a stop included), what counted them, and what the
// budget cut.
type counts struct {
	base, head []cpucost.Result
	cost       *report.CPUCost
	plan       budget.CPUPlan
}

// countInstructions is the cpu stage: instructions per encode and decode,
// counted exactly under Valgrind (package cpucost), message by message in
// the plan's order, base then head — each count already keeps every CPU
// busy, and two at once was slower. A message's two sides are counted over
// the same rotations. Whether it counts is cpu-cost's decision
// (cpucost.Prepare); not counting is a reason in the report, not an error,
// unless cpu-cost is on. Valgrind failing is the stage's error: one line.
func (g *run) countInstructions(ctx context.Context, ps programs, prices budget.Prices, opNs map[string]float64) (counts, string, error) {
	c := counts{cost: &report.CPUCost{Mode: string(g.s.CPUCost)}}
	setup, err := cpucost.Prepare(ctx, g.s.CPUCost, cpucost.Env{CI: os.Getenv("GITHUB_ACTIONS") == "true"})
	if err != nil {
		return c, "", err
	}
	c.cost.Installed = setup.Installed
	if setup.Valgrind == "" {
		c.cost.Unavailable = setup.Reason
		return c, setup.Reason, nil
	}
	prices.Counting = true
	c.plan = g.budget.Plan(budget.FromCPU, prices).CPU
	price := map[string]budget.Price{}
	for _, p := range prices.Messages {
		price[p.Name] = p
	}
	prog := newProgress(g.o.Log, "cpu", progressEvery)
	defer prog.stop()
	// correction is what counts took over what they were priced at: the
	// price is an estimate, and the deadline is not.
	var estimated, took time.Duration
	correction := func() float64 {
		if estimated == 0 {
			return 1
		}
		return max(float64(took)/float64(estimated), 0.25)
	}
	var seconds [2]float64
	for i, m := range c.plan.Counted {
		est := price[m.Name].Count
		if m.Rotations != budget.Rotations {
			est = price[m.Name].CountOne
		}
		if time.Now().Add(time.Duration(float64(est) * correction())).After(c.plan.Deadline) {
			c.plan.StopAt(i)
			break
		}
		prog.step("%s (%d of %d, %s)", m.Name, i+1, len(c.plan.Counted), plural(m.Rotations, "rotation"))
		start := time.Now()
		for side, p := range ps.sides() {
			sel, ok := p.only([]string{m.Name})
			if !ok {
				continue
			}
			t := time.Now()
			res, err := cpucost.Count(ctx, p.prog.Binary, sel, cpucost.Options{Valgrind: setup.Valgrind, Rotations: m.Rotations, OpNs: opNs})
			if err != nil {
				return c, "", p.wrap(err)
			}
			if res.Unavailable != "" { // Prepare found it; only a race can lose it
				c.cost.Unavailable = res.Unavailable
				return c, res.Unavailable, nil
			}
			c.cost.Tool = res.Tool
			seconds[sideIndex(ps, side)] += time.Since(t).Seconds()
			if sideIndex(ps, side) == 0 {
				c.base = append(c.base, res.Results...)
			} else {
				c.head = append(c.head, res.Results...)
			}
		}
		estimated += est
		took += time.Since(start)
	}
	c.plan.Note = cpuNote(c.plan)
	notes := []string{c.cost.Installed}
	if len(c.plan.Counted) > 0 {
		notes = append(notes, fmt.Sprintf("%s counted: base %.1f s, head %.1f s", plural(len(c.plan.Counted), "message"), seconds[0], seconds[1]))
	}
	return c, c.cost.Tool + ": " + joinNotes(append(notes, c.plan.Note)...), nil
}

// cpuNote says what the budget cut of the counts.
func cpuNote(p budget.CPUPlan) string {
	var cuts []string
	if n := len(p.OneRotation); n > 0 {
		cuts = append(cuts, fmt.Sprintf("%s counted over 1 rotation of the record pool instead of %d (exact all the same)", plural(n, "message"), budget.Rotations))
	}
	if n := len(p.Uncounted); n > 0 {
		cuts = append(cuts, fmt.Sprintf("%s not counted", plural(n, "message")))
	}
	if len(cuts) == 0 {
		return ""
	}
	return "to fit the time budget: " + strings.Join(cuts, ", ")
}

// recordCounts puts how counting went in the report; compare turns the
// counts into metrics.
func (g *run) recordCounts(c counts) {
	if c.cost == nil {
		return
	}
	g.r.CPUCost = c.cost
	if len(c.plan.OneRotation) > 0 || len(c.plan.Uncounted) > 0 {
		g.r.Plan.CPU = &report.CPUPlan{Uncounted: c.plan.Uncounted, OneRotation: slices.Clone(c.plan.OneRotation), Note: c.plan.Note}
	}
}

// cpuMetric is an instruction count's report entry: the comparison of two
// exact numbers, so no p-value; the noise floor is that of the format's
// counts (cpucost.NoiseFloorPct) and a change is significant past it. The
// verdict gates a growth only above it.
func cpuMetric(c compare.Comparison) report.Metric {
	m := c.Metric(c.Op)
	floor := cpucost.NoiseFloorPct(c.Format, c.Base.Center)
	m.NoiseFloor, m.P = &floor, nil
	m.Significant = m.DeltaPct != nil && verdict.PastNoiseFloor(*m.DeltaPct, &floor)
	return m
}

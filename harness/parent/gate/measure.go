package gate

import (
	"context"
	"fmt"
	"slices"

	"github.com/wiregate/wiregate/harness/program/exitcode"

	"github.com/wiregate/wiregate/harness/parent/history"
	"github.com/wiregate/wiregate/harness/parent/report"
)

// measured is what the measuring stages leave for history: the change set
// and which messages were measured.
type measured struct {
	sch      *schemas
	list     []string        // the messages the gate set out to measure
	carried  map[string]bool // messages whose figures a push takes from the last history point
	last     *history.Point  // that point
	branch   *branchRead     // the history branch as read before measuring; nil with history: false
	sizesRan bool            // the exact stage ran to its end
}

// measure loads both sides' schemas, finds what changed, and measures
// that: by default only changed and new messages (an unchanged one runs the
// same code on the same records, so its figures cannot differ); every
// message with measure: all; on a push that records history, every message
// whose figures the last point cannot carry. Each stage takes what the
// earlier ones returned and returns its own typed result, which is
// recorded in the report as soon as it is back — also when a later stage
// fails or the run is interrupted.
func (g *run) measure(ctx context.Context) measured {
	sch, ok := stage(ctx, g, "schemas", g.loadSchemas)
	if !ok {
		return measured{}
	}
	m := measured{sch: sch}
	g.r.Change = &sch.change
	g.r.Skipped = skipped(g.s.Messages, sch)
	g.r.Findings = append(g.r.Findings, sch.mismatches...)
	m.branch = g.readBranch(ctx)
	if g.o.RecordHistory {
		m.carried, m.last = carryable(m.branch, sch)
	}
	m.list = g.toMeasure(sch, m.carried)
	if len(m.list) == 0 {
		g.o.Log("wiregate: %s", nothingToMeasure(sch, m.carried))
		return m
	}
	whole := m.list
	mp := g.pricesAt(ctx, m.branch)
	sp, ok := stage(ctx, g, "shards", func(ctx context.Context) (split, string, error) {
		if !g.s.Shard.Whole() && g.o.RecordHistory {
			return split{}, "", exitcode.BadInput("input 'shard' is %s on a run that records history: a push to the default branch records the whole change; leave shard empty there", g.s.Shard)
		}
		sp, err := g.splitList(sch, whole, g.s.Shard.Count, mp)
		if err != nil {
			return sp, "", err
		}
		return sp, sp.note(g.s.Shard.Index), nil
	})
	if !ok {
		return m
	}
	g.r.Plan.ShardsNeeded = sp.needed
	if !g.s.Shard.Whole() {
		g.r.Shard = g.shardOf(sch, whole, sp)
		part := sp.parts[g.s.Shard.Index-1]
		m.list = slices.DeleteFunc(slices.Clone(whole), func(n string) bool { return !slices.Contains(part, n) })
		if len(m.list) == 0 {
			g.o.Log("wiregate: shard %s has no message to measure", g.s.Shard)
			return m
		}
	}
	// Holm's families are the whole change's (a merge tests the union of
	// the shards' comparisons), so every shard plans rounds for them.
	gated := 0
	for _, n := range whole {
		if sch.status[n] != report.StatusUnchanged {
			gated++
		}
	}
	if len(m.list) == 0 {
		g.o.Log("wiregate: shard %s has no message to measure", g.s.Shard)
		return m
	}
	for _, name := range m.list {
		msg := g.r.Message(name)
		msg.Status = sch.status[name]
		msg.UnchangedSchema = msg.Status == report.StatusUnchanged
	}

	ps, ok := stage(ctx, g, "prepare", func(ctx context.Context) (programs, string, error) { return g.buildPrograms(ctx, sch, m.list) })
	if !ok {
		return m
	}
	pools, ok := stage(ctx, g, "records", func(ctx context.Context) (pools, string, error) { return g.pairRecords(ctx, sch, ps) })
	defer pools.remove()
	if !ok {
		return m
	}
	ps = ps.with(pools)
	toSize := without(m.list, pools.unpaired)
	sz, ok := stage(ctx, g, "sizes", func(ctx context.Context) (sizes, string, error) { return g.measureSizes(ctx, ps, pools, toSize) })
	sz.unmeasured = append(slices.Clone(pools.unpaired), sz.unmeasured...)
	g.recordSizes(sz, pools)
	if !ok {
		return m
	}
	m.sizesRan = len(sz.unmeasured) == 0
	list := sz.measured(m.list)
	prices := g.prices(sz, list, sch, gated, mp)
	counts, _ := stage(ctx, g, "cpu", func(ctx context.Context) (counts, string, error) {
		return g.countInstructions(ctx, ps, prices, sz)
	})
	g.recordCounts(counts)
	timings, benchOK := stage(ctx, g, "bench", func(ctx context.Context) (timings, string, error) { return g.benchRounds(ctx, ps, prices) })
	g.recordTimings(timings)
	stage(ctx, g, "compare", func(ctx context.Context) (struct{}, string, error) { return struct{}{}, "", g.compare(counts, timings) })
	var rows pipelineRows
	if g.s.Pipeline && benchOK {
		rows, _ = stage(ctx, g, "pipeline", func(ctx context.Context) (pipelineRows, string, error) {
			return g.pipeline(ctx, ps, sz, list, sch.status, gated)
		})
		g.recordPipeline(rows)
	}
	g.r.Costs = costsOf(m.list, sz, counts, timings, rows)
	return m
}

// toMeasure are the messages a run measures, in priority order: changed and
// new ones; every one with measure: all or when recording history, less
// those the last history point carries.
func (g *run) toMeasure(sch *schemas, carried map[string]bool) []string {
	all := g.s.Measure == report.MeasureAll
	return sch.order(func(name, status string) bool {
		if carried[name] {
			return false
		}
		return all || status != report.StatusUnchanged || g.o.RecordHistory
	})
}

// nothingToMeasure says why a run measured nothing.
func nothingToMeasure(sch *schemas, carried map[string]bool) string {
	if len(carried) > 0 {
		return fmt.Sprintf("nothing to measure: the last history point carries all %d messages", len(carried))
	}
	if sch.change.NoSchemaChanged {
		return "no schema changed: nothing to measure"
	}
	return fmt.Sprintf("nothing to measure: %d messages unchanged, %d removed", len(sch.change.Unchanged), len(sch.change.Removed))
}

// plural is "1 message" or "3 messages".
func plural(n int, what string) string {
	if n == 1 {
		return fmt.Sprintf("1 %s", what)
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// without is list less the names in cut, in order.
func without(list, cut []string) []string {
	var out []string
	for _, m := range list {
		if !slices.Contains(cut, m) {
			out = append(out, m)
		}
	}
	return out
}

package gate

import (
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/wiregate/wiregate/harness/program/exitcode"

	"github.com/wiregate/wiregate/harness/parent/budget"
	"github.com/wiregate/wiregate/harness/parent/history"
	"github.com/wiregate/wiregate/harness/parent/report"
	"github.com/wiregate/wiregate/harness/parent/verdict"
)

// stageResults is what the measuring stages returned, for the sequencer to
// enter (enter.go) and for history: the change set, which messages were
// measured, and each stage's typed result.
type stageResults struct {
	sch     *schemas
	list    []string        // the messages the gate set out to measure
	carried map[string]bool // messages whose figures a push takes from the last history point
	last    *history.Point  // that point
	branch  *branchRead     // the history branch as read before measuring; nil with history: false
	sized   bool            // the exact stage ran

	needed   int           // shards the whole change needs; 0 when the split did not run
	shard    *report.Shard // this shard's record; nil on a whole run
	narrowed bool          // list is what the stages below measure (the shard's part)
	pools    pools
	sizes    sizes
	counts   counts
	timings  timings
	compared compared
	rows     pipelineRows
}

// measure loads both sides' schemas, finds what changed, and measures
// that: by default only changed and new messages (an unchanged one runs the
// same code on the same records, so its figures cannot differ); every
// message with measure: all; on a push that records history, every message
// whose figures the last point cannot carry. Each stage takes what the
// earlier ones returned and returns its own typed result; measure returns
// them all, also what it had when a later stage failed or the run was
// interrupted, and the sequencer enters them in the report (enterResults).
func (g *run) measure(ctx context.Context) stageResults {
	sch, ok := stage(ctx, g, "schemas", g.loadSchemas)
	if !ok {
		return stageResults{}
	}
	m := stageResults{sch: sch}
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
	mp := g.pricesAt(ctx, m.branch, sch.head.Harness())
	sp, ok := stage(ctx, g, "shards", func(ctx context.Context) (split, string, error) {
		if !g.s.Shard.Whole() && g.o.RecordHistory {
			return split{}, "", exitcode.BadInput("input 'shard' is %s on a run that records history: a push to the default branch records the whole change; leave shard empty there", g.s.Shard)
		}
		sp, err := g.splitList(sch, whole, g.s.Shard.Count, mp, !g.s.Shard.Whole())
		if err != nil {
			return sp, "", err
		}
		return sp, sp.note(g.s.Shard.Index), nil
	})
	if !ok {
		return m
	}
	m.needed = sp.needed
	if !g.s.Shard.Whole() {
		m.shard = g.shardOf(sch, whole, sp)
		part := sp.parts[g.s.Shard.Index-1]
		m.list = slices.DeleteFunc(slices.Clone(whole), func(n string) bool { return !slices.Contains(part, n) })
		if len(m.list) == 0 {
			g.o.Log("wiregate: shard %s has no message to measure", g.s.Shard)
			return m
		}
	}
	m.narrowed = true
	// Holm's families are the whole change's (a merge tests the union of
	// the shards' comparisons), so every shard plans rounds for them.
	gated := 0
	for _, n := range whole {
		if sch.status[n] != report.StatusUnchanged {
			gated++
		}
	}

	ps, ok := stage(ctx, g, "prepare", func(ctx context.Context) (programs, string, error) { return g.buildPrograms(ctx, sch, m.list) })
	if !ok {
		return m
	}
	m.pools, ok = stage(ctx, g, "records", func(ctx context.Context) (pools, string, error) { return g.pairRecords(ctx, sch, ps) })
	defer m.pools.remove()
	if !ok {
		return m
	}
	ps = ps.with(m.pools)
	toSize := without(m.list, m.pools.unpaired)
	m.sizes, ok = stage(ctx, g, "sizes", func(ctx context.Context) (sizes, string, error) { return g.measureSizes(ctx, ps, m.pools, toSize) })
	defer m.sizes.remove()
	m.sized = true
	m.sizes.unmeasured = append(slices.Clone(m.pools.unpaired), m.sizes.unmeasured...)
	if !ok {
		return m
	}
	list := m.sizes.fitted(m.list)
	prices := g.prices(m.sizes, list, sch, gated, mp)
	timeCutoff := verdict.StrictestCutoff(g.cfg.Alpha, verdict.TimeFamily(gated, len(g.s.Formats)))
	// The counts and the bench rounds load the records sizes built and
	// checked; the pipeline's producer and consumer build their own (the
	// consumer checks what it decodes against the proto records).
	loaded := ps.withSaved(m.sizes)
	// The stages the plan may cut run until the budget's deadline at most:
	// a unit still running then is stopped and cut (budget.Stop).
	cuttable, stop := g.budget.Stop(ctx)
	defer stop()
	var benchOK bool
	bench := func(prices budget.Prices) {
		m.timings, benchOK = stage(ctx, g, "bench", func(context.Context) (timings, string, error) {
			return g.benchRounds(cuttable, loaded, prices, timeCutoff, mp.noise)
		})
	}
	count := func(s stageSlot, by beside) {
		m.counts, _ = runStage(ctx, g, s, func(context.Context) (counts, string, error) {
			return g.countInstructions(cuttable, loaded, prices, m.sizes, by)
		})
	}
	if by := g.countsBeside(); len(by.cpus) > 0 {
		// The counts run beside the rounds, on the CPUs the timings leave
		// (a count is the same whatever runs beside it), and take every
		// worker when the rounds end; the pipeline waits for both.
		roundsDone := make(chan struct{})
		by.roundsDone = roundsDone
		var wg sync.WaitGroup
		cpu := g.beginStage(ctx, "cpu")
		wg.Go(func() { count(cpu, by) })
		// The rounds start once Valgrind is ready, keeping back what the
		// counts were forecast to take (nothing when they do not run).
		bp := prices
		bp.CountsBeside = <-by.priced
		bench(bp)
		close(roundsDone)
		wg.Wait()
	} else {
		count(g.beginStage(ctx, "cpu"), beside{})
		bench(prices)
	}
	m.compared, _ = stage(ctx, g, "compare", func(ctx context.Context) (compared, string, error) {
		return g.compare(m.counts, m.timings, timeCutoff)
	})
	if g.s.Pipeline && benchOK {
		m.rows, _ = stage(ctx, g, "pipeline", func(context.Context) (pipelineRows, string, error) {
			return g.pipeline(cuttable, ps, m.sizes, list, sch.status, gated)
		})
	}
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

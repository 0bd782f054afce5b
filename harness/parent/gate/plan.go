package gate

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/wiregate/wiregate/harness/parent/budget"
	"github.com/wiregate/wiregate/harness/parent/inputs"
	"github.com/wiregate/wiregate/harness/parent/shard"
)

// ShardSplit is mode: plan's answer, plan.json (shard.Split: its type and
// schema live there, where the action's types are generated from).
type ShardSplit = shard.Split

// Part is one shard of a plan.
type Part = shard.Part

// Plan is `wiregate plan`: the gate's early stages (inputs, the base
// checkout, tools, both sides' schemas and the change set), then the split
// of what changed over shards by the same static prices every shard uses.
// When something stops it (a bad input, a schema that does not compile, a
// time-budget too small for a shard), the plan is one shard whose note
// says why, and the error is returned too (the command exits 2 with it):
// the workflow's one gate job then meets the problem and reports it in the
// comment, as a one-job gate would.
func Plan(ctx context.Context, o Options) (*ShardSplit, error) {
	g := newRun(&o, 0)
	one := func(why string) *ShardSplit {
		return &ShardSplit{Shards: 1, Matrix: shard.MatrixOf(1), Needed: 1, MaxShards: g.s.MaxShards, Parts: []Part{}, Note: why}
	}
	failed := func(otherwise string) (*ShardSplit, error) {
		why := g.firstError(otherwise)
		return one(why), errors.New(why)
	}
	started, tooled := g.start(ctx)
	if !started {
		return failed("the gate could not start")
	}
	defer g.removeWorktree(g.base)
	if !tooled {
		return failed("buf not found")
	}
	sch, ok := stage(ctx, g, "schemas", g.loadSchemas)
	if !ok {
		return failed("the schemas did not load")
	}
	defer sch.close()
	list := g.toMeasure(sch, nil)
	if len(list) == 0 {
		p := one(nothingToMeasure(sch, nil))
		p.Change = &sch.change
		return p, nil
	}
	sp, err := g.splitList(sch, list, 0, g.pricesAt(ctx, g.readBranch(ctx), sch.head.Harness()), true)
	if err != nil {
		return one(err.Error()), err
	}
	p := &ShardSplit{Shards: len(sp.parts), Matrix: shard.MatrixOf(len(sp.parts)), Needed: sp.needed, MaxShards: g.s.MaxShards,
		PriceSeconds: sp.total.Seconds(), CapacitySeconds: budget.Capacity(g.s.TimeBudget).Seconds(), Change: &sch.change}
	for i, part := range sp.parts {
		var price time.Duration
		for _, m := range part {
			price += sp.price[m]
		}
		p.Parts = append(p.Parts, Part{Shard: p.Matrix.Shard[i], Artifact: shard.PartName(inputs.Shard{Index: i + 1, Count: p.Shards}),
			Messages: part, PriceSeconds: price.Seconds()})
	}
	p.Note = fmt.Sprintf("%s to measure, priced at %s (%s): %d shards of %s each", plural(len(list), "message"),
		sp.total.Round(time.Second), sp.pricedBy, p.Shards, g.s.TimeBudget)
	if p.Needed > p.Shards {
		p.Note += fmt.Sprintf(" (max-shards %d; %d would measure all of it)", p.MaxShards, p.Needed)
	}
	return p, nil
}

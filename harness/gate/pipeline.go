package gate

import (
	"context"
	"strconv"

	"github.com/wiregate/wiregate/harness/benchprog"
	"github.com/wiregate/wiregate/harness/compare"
	"github.com/wiregate/wiregate/harness/piperounds"
	"github.com/wiregate/wiregate/harness/report"
)

// pipeline measures end-to-end throughput with constant backlogs, base and
// head interleaved (package piperounds), and reports each row's records/s
// samples compared like the bench rounds.
func (g *run) pipeline(ctx context.Context) error {
	var sides []piperounds.Side
	for i, s := range []*side{g.base, g.head} {
		if len(s.prep.Messages) > 0 {
			sides = append(sides, piperounds.Side{Name: s.name, Program: s.prog, Selection: s.sel, Sizes: g.measuredSizes(i)})
		}
	}
	g.r.Env.PipelineN, g.r.Env.PipelineBytes = int(g.s.PipelineMessages), g.s.PipelineBytes
	res, err := piperounds.Run(ctx, piperounds.Options{Sides: sides, Broker: g.s.Broker, N: g.s.PipelineMessages,
		Bytes: g.s.PipelineBytes, Rounds: g.s.Count, Alpha: g.cfg.Alpha, Log: g.o.Log,
		Deadline: g.start.Add(g.s.TimeBudget - reserve), First: g.changedFirst(),
		Unchanged: g.unchanged, UnchangedRounds: g.s.Rounds(true)})
	if err != nil {
		return err
	}
	g.note = res.Cut
	if len(g.unchanged) > 0 && g.s.Rounds(true) < res.Rounds {
		g.addNote("unchanged-schema rows timed " + strconv.Itoa(g.s.Rounds(true)) + " rounds (information only)")
	}
	g.r.Plan.Pipeline = &report.PipelinePlan{Untimed: res.Untimed, Note: res.Cut}
	g.r.Env.Broker, g.r.Env.BrokerReason, g.r.Env.BrokerPeakRSSBytes = res.Broker, res.BrokerReason, res.BrokerPeakRSSBytes
	for _, row := range res.Rows {
		for _, s := range row.Sides {
			g.r.Env.ConsumerPeakRSSBytes = max(g.r.Env.ConsumerPeakRSSBytes, s.PeakRSSBytes)
		}
		head := row.Sides[g.head.name]
		if head == nil {
			continue
		}
		bl := res.Backlogs[row.Message]
		entry := report.Pipeline{Message: row.Message, Format: row.Format, Broker: res.Broker, BrokerReason: res.BrokerReason,
			HeadNsPerMsg: piperounds.Median(head.NsPerMsg), RawNsPerMsg: head.RawNsPerMsg,
			Backlog: &report.Backlog{N: bl.N, BudgetBytes: bl.Bytes, MeanBytes: bl.MeanBytes, Format: bl.Format}}
		g.r.Env.ConsumerCap = head.Cap
		if base := row.Sides[g.base.name]; base != nil {
			c := compare.Samples(base.RPS, head.RPS, "records/s", g.cfg.Alpha)
			bs, hs := c.Base, c.Head
			entry.Base, entry.Head, entry.DeltaPct, entry.P, entry.Significant = &bs, &hs, c.DeltaPct, c.P, c.Significant
			entry.NoiseFloor, entry.BaseNsPerMsg = c.NoiseFloorPct, piperounds.Median(base.NsPerMsg)
		} else {
			c := compare.Samples(head.RPS, head.RPS, "records/s", g.cfg.Alpha)
			hs := c.Head
			entry.Head = &hs
		}
		g.r.Pipeline = append(g.r.Pipeline, entry)
	}
	return nil
}

// changedFirst is head's messages, those whose schema changed first: when
// the budget runs out, the rows left untimed are ones that cannot fail.
func (g *run) changedFirst() []string {
	changed, unchanged := g.byChange(g.head.prep.Messages)
	return append(changed, unchanged...)
}

// measuredSizes are side i's (0 base, 1 head) sizes from the sizes stage;
// nil when it has none (the pipeline then measures them).
func (g *run) measuredSizes(i int) []benchprog.Size {
	var out []benchprog.Size
	for _, pair := range g.sizes {
		if pair[i] != nil {
			out = append(out, *pair[i])
		}
	}
	return out
}

// abba returns sides in order, reversed on odd turns.
func abba(sides []*side, turn int) []*side {
	if turn%2 == 0 {
		return sides
	}
	return []*side{sides[1], sides[0]}
}

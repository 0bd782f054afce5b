package gate

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/wiregate/wiregate/harness/parent/budget"
	"github.com/wiregate/wiregate/harness/parent/compare"
	"github.com/wiregate/wiregate/harness/parent/piperounds"
	"github.com/wiregate/wiregate/harness/parent/report"
	"github.com/wiregate/wiregate/harness/parent/verdict"
	"github.com/wiregate/wiregate/harness/program/benchprog"
)

// pipelineRows are the pipeline stage's results: every row it measured.
type pipelineRows struct {
	res     *piperounds.Result
	rounds  int // rounds of unchanged-schema rows, when fewer
	entries []report.Pipeline
	// perPass is one pass on one side of each message whose every row
	// ran, at the backlog it drained, its formats added.
	perPass map[string]time.Duration
	// piped is each message's formats the pipeline drains
	// (pipeline-formats), whether or not the budget let them run.
	piped map[string][]string
}

// pipelineFamily is the Holm family of the pipeline's tests for a change
// of gated messages (the whole change's, so alike in every shard): the
// most rows pipeline-formats gives each.
func (g *run) pipelineFamily(gated int) int {
	return verdict.PipelineFamily(gated * g.s.PipelineFormats.PerMessage(g.s.Formats))
}

// piped is each message of list's formats the pipeline drains: those
// pipeline-formats picks of the formats head's sizes rows measured (a row
// drains head's records; a format only the base has cannot be a row).
func (g *run) piped(sz sizes, list []string) map[string][]string {
	out := map[string][]string{}
	for _, m := range list {
		var measured []string
		for _, f := range g.s.Formats {
			if sz.pairs[piperounds.RowKey(m, f)][1] != nil {
				measured = append(measured, f)
			}
		}
		if fs := g.s.PipelineFormats.Of(measured); len(fs) > 0 {
			out[m] = fs
		}
	}
	return out
}

// pipeline measures end-to-end throughput with constant backlogs, base and
// head interleaved (package piperounds), rows of changed messages first,
// each row as the budget's pipeline plan lets it (budget.PipelineForecast),
// and compares each row's records/s samples like the bench rounds.
func (g *run) pipeline(ctx context.Context, ps programs, sz sizes, list []string, status map[string]string, family int) (pipelineRows, string, error) {
	var out pipelineRows
	var sides []piperounds.Side
	unchanged := map[string]bool{}
	for _, m := range list {
		unchanged[m] = status[m] == report.StatusUnchanged
	}
	out.piped = g.piped(sz, list)
	for i, p := range ps.sides() {
		sel, ok := p.only(list)
		if ok {
			// Never nil: piperounds sizes a side with no rows itself, every format.
			rows := slices.DeleteFunc(append([]benchprog.Size{}, sz.of(sideIndex(ps, i), sel.Messages)...), func(r benchprog.Size) bool {
				return !slices.Contains(out.piped[r.Message], r.Format)
			})
			sides = append(sides, piperounds.Side{Name: p.name, Program: p.prog, Selection: sel, Sizes: rows})
		}
	}
	o := piperounds.Options{Sides: sides, Broker: g.s.Broker, N: g.s.PipelineMessages,
		Bytes: g.s.PipelineBytes, Rounds: g.s.Rounds, Alpha: g.cfg.Alpha, Log: g.o.Log,
		First: list, Unchanged: unchanged, UnchangedRounds: g.s.RoundsFor(true), Family: g.pipelineFamily(family),
		Compression: g.s.ProducerCompression(), Drain: true, Cut: budget.Stopped}
	// A row is drained to the power its verdict needs, as a message is
	// timed (seriesPower): rounds stop once the base's records/s can show
	// a fall of the throughput threshold at the Holm cutoff. A row that
	// plainly cannot (futile at the spread seen) stops too, unless head
	// shows a fall of its threshold so far (pipeStops): a row has no exact
	// figure behind it, as a timing has its instruction counts, and a fall
	// far past the threshold can still clear the cutoff in the rounds left
	// (a -33% avro row at 4 of 5 rounds did).
	cutoff := verdict.StrictestCutoff(g.cfg.Alpha, o.Family)
	powered, futile, noFall := map[string]int{}, map[string]int{}, map[string]int{}
	noFallPlanned := map[string]int{} // the rounds the row planned when it stopped so (the schedule may cut them)
	o.Enough = func(key string, base, head []float64, planned int) bool {
		m, f, _ := strings.Cut(key, "/")
		if unchanged[m] {
			return false
		}
		switch pipeStops(base, head, cutoff, g.cfg.ThresholdsFor(m, f).ThroughputPct, planned) {
		case stopPowered:
			powered[key] = len(base)
			return true
		case stopFutile:
			futile[key] = len(base)
			return true
		case stopNoFall:
			noFall[key], noFallPlanned[key] = len(base), planned
			return true
		}
		return false
	}
	var rows []budget.PipeRow
	for _, r := range o.Rows() {
		rows = append(rows, budget.PipeRow{Key: r.Key(), Gating: !unchanged[r.Message], N: r.N, Rounds: r.Rounds,
			Pass: pipePass(sz.pairs[r.Key()][1]), Start: budget.PipeStart})
	}
	schedule := g.budget.Pipeline(rows, len(sides), verdict.MinRounds(o.Family, g.cfg.Alpha))
	o.Schedule = schedule
	res, err := piperounds.Run(ctx, o)
	out.perPass = perMessage(rows, schedule.PassTimes())
	if err != nil {
		return out, "", err
	}
	out.res = res
	note := joinNotes(res.Cut, pipePowerNote(powered, futile, noFall, res.Rounds))
	if res.Stopped != "" {
		note = joinNotes(note, fmt.Sprintf("%s (%s)", stoppedNote, res.Stopped))
	}
	if g.s.RoundsFor(true) < res.Rounds {
		for _, u := range unchanged {
			if u {
				out.rounds = g.s.RoundsFor(true)
				note = joinNotes(note, "unchanged-schema rows timed "+strconv.Itoa(out.rounds)+" rounds (information only)")
				break
			}
		}
	}
	for _, row := range res.Rows {
		// A side whose backlog was drained raw but never decoded (the
		// deadline came first) has no records/s: the row is not timed,
		// and coverage says so, rather than a summary of nothing.
		head := row.Sides["head"]
		if head == nil || len(head.RPS) == 0 {
			continue
		}
		bl := res.Backlogs[row.Key()]
		entry := report.Pipeline{Message: row.Message, Format: row.Format, Broker: res.Broker, BrokerReason: res.BrokerReason,
			HeadNsPerMsg: piperounds.Median(head.NsPerMsg), RawNsPerMsg: head.RawNsPerMsg,
			Backlog: &report.Backlog{N: cmp.Or(row.N, bl.N), BudgetBytes: bl.Bytes, MeanBytes: bl.MeanBytes, Format: bl.Format,
				DrainSeconds: bl.Drain.Seconds()},
			Compression: o.Compression}
		if base := row.Sides["base"]; base != nil && len(base.RPS) > 0 {
			c := compare.Samples(base.RPS, head.RPS, "records/s", g.cfg.Alpha)
			bs, hs := c.Base, c.Head
			entry.Base, entry.Head, entry.DeltaPct, entry.P, entry.Significant = &bs, &hs, c.DeltaPct, c.P, c.Significant
			entry.NoiseFloor, entry.BaseNsPerMsg = c.NoiseFloorPct, piperounds.Median(base.NsPerMsg)
			entry.MDE, entry.MDEReason = compare.TimeMDE(base.RPS, cutoff)
			if n, ok := noFall[row.Key()]; ok {
				// The row's decision had the rounds planned: a fall
				// would have kept it draining (pipeStops).
				entry.MDE, entry.MDEReason = plannedMDE(base.RPS, cutoff, noFallPlanned[row.Key()])
				entry.StoppedNoFall = n
			}
		} else {
			c := compare.Samples(head.RPS, head.RPS, "records/s", g.cfg.Alpha)
			hs := c.Head
			entry.Head = &hs
		}
		out.entries = append(out.entries, entry)
	}
	return out, note, nil
}

// pipePowerNote says which rows stopped early, and after how many rounds.
func pipePowerNote(powered, futile, noFall map[string]int, planned int) string {
	var notes []string
	if s := byRounds(powered); s != "" {
		notes = append(notes, "rows drained to the power the throughput threshold needs, then no further: "+s)
	}
	if s := byRounds(noFall); s != "" {
		notes = append(notes, fmt.Sprintf("drained no further where %d rounds at the spread seen would have the power the throughput threshold needs and head showed no fall of 1/%d of it: %s", planned, noFallShare, s))
	}
	if s := byRounds(futile); s != "" {
		notes = append(notes, fmt.Sprintf("drained no further where even %d rounds at the spread seen would leave the MDE above %d× the throughput threshold and head showed no fall of it (unable to fail): %s", planned, futileFactor, s))
	}
	return joinNotes(notes...)
}

// perMessage adds each message's rows' costs by key (message/format),
// for the messages all of whose rows have one.
func perMessage(rows []budget.PipeRow, byKey map[string]time.Duration) map[string]time.Duration {
	out, partial := map[string]time.Duration{}, map[string]bool{}
	for _, r := range rows {
		m, _, _ := strings.Cut(r.Key, "/")
		if c, ok := byKey[r.Key]; ok {
			out[m] += c
		} else {
			partial[m] = true
		}
	}
	for m := range partial {
		delete(out, m)
	}
	return out
}

// pipePass is one pass over one record of a row on one side, by head's
// size of it.
func pipePass(s *benchprog.Size) time.Duration {
	if s == nil {
		return time.Microsecond
	}
	return budget.PipeRecord(s.BytesMean, s.Cold.EncodeNs, s.Cold.DecodeNs)
}

package gate

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/wiregate/wiregate/harness/parent/history"
	"github.com/wiregate/wiregate/harness/parent/report"
)

// readTimeout bounds reading the history branch; recordTimeout bounds
// recording a point, retries included.
const readTimeout, recordTimeout = time.Minute, 3 * time.Minute

// branchRead is one read of the history branch: its points and how many
// lines were not points, or why it could not be read. A run reads the
// branch once, before it measures, for what a push carries, for prices
// and for the charts.
type branchRead struct {
	points  []history.Point
	skipped int
	err     error
}

// readBranch reads the history branch, bounded: a remote that asks for a
// passphrase or does not answer must not hold up a gate.
func (g *run) readBranch(ctx context.Context) *branchRead {
	if g.s.History == "" {
		return nil
	}
	rctx, cancel := context.WithTimeout(ctx, readTimeout)
	defer cancel()
	points, skipped, err := g.store().Read(rctx)
	return &branchRead{points: points, skipped: skipped, err: err}
}

// carryable returns, on a push that records a point, the messages whose
// figures the branch's last point can carry forward
// (history.Point.Carryable): those are not measured again. Nothing can be
// carried from no branch, another wiregate or another Go.
func carryable(br *branchRead, sch *schemas) (map[string]bool, *history.Point) {
	if br == nil || br.err != nil || len(br.points) == 0 {
		return nil, nil
	}
	last := br.points[len(br.points)-1]
	return last.Carryable(sch.head.Harness(), runtime.Version(), sch.prints), &last
}

func (g *run) store() history.Store { return history.Store{Dir: g.head.dir, Branch: g.s.History} }

// historyIn is what the history stage needs of the run: the schemas, what
// the last point carries, the branch as read before measuring, and what
// was measured (the sequencer derives the figures from the measuring
// stages' typed results: exactOf, measuringTimesOf).
type historyIn struct {
	sch     *schemas
	carried map[string]bool
	last    *history.Point
	branch  *branchRead
	figures []history.Figure       // the head's exact figures (history.Figures)
	times   []report.MeasuringTime // each message's measuring time
	changed int                    // messages this change moves (history.ChangedMessages)
}

// read is what the history stage found: the report's history section, and
// on a pull request the points to chart the changed messages on.
type read struct {
	section *report.History
	chart   bool // the branch was read on a pull request
	points  []history.Point
}

// history records the head's exact figures on the history branch (a push
// to the default branch: Options.RecordHistory) or reads the branch for
// the points to chart each message this change moves on. Neither can fail
// the gate: what it could not do is a warning (recording) or a note
// (reading).
func (g *run) history(ctx context.Context, in historyIn) read {
	out, _ := stage(ctx, g, "history", func(ctx context.Context) (read, string, error) {
		h := &report.History{Branch: g.s.History, Points: g.s.HistoryPoints, Messages: []report.HistoryMessage{}}
		if g.o.RecordHistory {
			g.appendPoint(ctx, in, h)
			return read{section: h}, "", nil
		}
		points, chart := g.readHistory(ctx, in.branch, in.changed, h)
		return read{section: h, points: points, chart: chart}, "", nil
	})
	return out
}

// readHistory returns the branch's points to chart, or false with a note
// or a warning saying why there are none.
func (g *run) readHistory(ctx context.Context, br *branchRead, changed int, h *report.History) ([]history.Point, bool) {
	if changed == 0 {
		return nil, false // nothing to chart, and nothing to say about it
	}
	if br == nil {
		br = g.readBranch(ctx)
	}
	points, skipped, err := br.points, br.skipped, br.err
	switch {
	case errors.Is(err, history.ErrNoHistory):
		h.Note = err.Error()
		return nil, false
	case err != nil:
		g.warn("history not read: %v", err)
		return nil, false
	case skipped > 0:
		g.warn("history branch %s: %d lines are not wiregate points and were skipped", g.s.History, skipped)
	}
	return points, true
}

// appendPoint appends a point: the figures this run measured, and those
// of the messages it carried from the last point. Messages it could
// neither carry nor measure (the budget) are listed as unreached; the next
// push measures them.
func (g *run) appendPoint(ctx context.Context, m historyIn, h *report.History) {
	if m.sch == nil {
		g.warn("history not recorded: the schemas did not load")
		return
	}
	sha := g.head.rev.Sha
	if len(sha) != 40 || strings.Contains(sha, "+") {
		g.warn("history not recorded: head %q is not a commit (a working tree with changes has no sha to record)", sha)
		return
	}
	figures := m.figures
	measuredNow := map[string]bool{}
	for _, f := range figures {
		measuredNow[f.Message] = true
	}
	times := m.times
	if m.last != nil {
		figures = append(slices.Clone(figures), m.last.FiguresOf(m.carried)...)
		times = append(slices.Clone(times), m.last.MeasuringTimesOf(m.carried)...)
	}
	prints := map[string]string{}
	for name, print := range m.sch.prints {
		if measuredNow[name] || m.carried[name] {
			prints[name] = print
		} else {
			h.Unreached = append(h.Unreached, name)
		}
	}
	for name := range m.carried {
		h.Carried = append(h.Carried, name)
	}
	sort.Strings(h.Carried)
	sort.Strings(h.Unreached)
	if len(figures) == 0 {
		g.warn("history not recorded: no figure was measured or carried")
		return
	}
	p := history.Point{Sha: sha, Ref: g.head.rev.Ref, Date: history.CommitDate(ctx, g.head.dir, sha), Figures: figures,
		Wiregate: m.sch.head.Harness(), Go: runtime.Version(), Schemas: prints, MeasuringTimes: times}
	ctx, cancel := context.WithTimeout(ctx, recordTimeout)
	defer cancel()
	attempts, err := g.store().Append(ctx, p)
	if err != nil {
		g.warn("history not recorded: %v", err)
		return
	}
	h.Recorded, h.Attempts = sha, attempts
	switch {
	case attempts == 0:
		h.Note = "already recorded by an earlier run of this commit"
	case len(h.Unreached) > 0:
		h.Note = fmt.Sprintf("%s not reached within the time budget: the next push measures them", plural(len(h.Unreached), "message"))
	}
}

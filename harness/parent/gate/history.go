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

// history records the head's exact figures on the history branch (a push
// to the default branch: Options.RecordHistory) or reads the branch and
// puts, for each message this change moves, main's last points and the
// head in the report. Neither can fail the gate: what it could not do is a
// warning (recording) or a note (reading).
func (g *run) history(ctx context.Context, m measured) {
	if g.s.History == "" {
		return
	}
	stage(ctx, g, "history", func(ctx context.Context) (struct{}, string, error) {
		g.r.History = &report.History{Branch: g.s.History, Points: g.s.HistoryPoints, Messages: []report.HistoryMessage{}}
		if g.o.RecordHistory {
			g.recordHistory(ctx, m)
		} else {
			g.readHistory(ctx, m.branch)
		}
		return struct{}{}, "", nil
	})
}

func (g *run) readHistory(ctx context.Context, br *branchRead) {
	if history.ChangedMessages(g.r) == 0 {
		return // nothing to chart, and nothing to say about it
	}
	if br == nil {
		br = g.readBranch(ctx)
	}
	points, skipped, err := br.points, br.skipped, br.err
	switch {
	case errors.Is(err, history.ErrNoHistory):
		g.r.History.Note = err.Error()
		return
	case err != nil:
		g.warn("history not read: %v", err)
		return
	case skipped > 0:
		g.warn("history branch %s: %d lines are not wiregate points and were skipped", g.s.History, skipped)
	}
	g.r.History.Messages = history.Changed(g.r, points, g.s.HistoryPoints)
	if len(g.r.History.Messages) == 0 {
		g.r.History.Note = fmt.Sprintf("the %d points on %s have none of the changed figures yet", len(points), g.s.History)
	}
}

// recordHistory appends a point: the figures this run measured, and those
// of the messages it carried from the last point. Messages it could
// neither carry nor measure (the budget) are listed as unreached; the next
// push measures them.
func (g *run) recordHistory(ctx context.Context, m measured) {
	if m.sch == nil {
		g.warn("history not recorded: the schemas did not load")
		return
	}
	sha := g.r.Head.Sha
	if len(sha) != 40 || strings.Contains(sha, "+") {
		g.warn("history not recorded: head %q is not a commit (a working tree with changes has no sha to record)", sha)
		return
	}
	figures := history.Figures(g.r)
	measuredNow := map[string]bool{}
	for _, f := range figures {
		measuredNow[f.Message] = true
	}
	costs := g.r.Costs
	if m.last != nil {
		figures = append(figures, m.last.FiguresOf(m.carried)...)
		costs = append(slices.Clone(costs), m.last.CostsOf(m.carried)...)
	}
	prints := map[string]string{}
	for name, print := range m.sch.prints {
		if measuredNow[name] || m.carried[name] {
			prints[name] = print
		} else {
			g.r.History.Unreached = append(g.r.History.Unreached, name)
		}
	}
	for name := range m.carried {
		g.r.History.Carried = append(g.r.History.Carried, name)
	}
	sort.Strings(g.r.History.Carried)
	sort.Strings(g.r.History.Unreached)
	if len(figures) == 0 {
		g.warn("history not recorded: no figure was measured or carried")
		return
	}
	p := history.Point{Sha: sha, Ref: g.r.Head.Ref, Date: history.CommitDate(ctx, g.head.dir, sha), Figures: figures,
		Wiregate: m.sch.head.Harness(), Go: runtime.Version(), Schemas: prints, Costs: costs}
	ctx, cancel := context.WithTimeout(ctx, recordTimeout)
	defer cancel()
	attempts, err := g.store().Append(ctx, p)
	if err != nil {
		g.warn("history not recorded: %v", err)
		return
	}
	g.r.History.Recorded, g.r.History.Attempts = sha, attempts
	switch {
	case attempts == 0:
		g.r.History.Note = "already recorded by an earlier run of this commit"
	case len(g.r.History.Unreached) > 0:
		g.r.History.Note = fmt.Sprintf("%s not reached within the time budget: the next push measures them", plural(len(g.r.History.Unreached), "message"))
	}
}

package gate

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/wiregate/wiregate/harness/history"
	"github.com/wiregate/wiregate/harness/report"
)

// history records the head's exact figures on the history branch (a push
// to the default branch: Options.RecordHistory) or reads the branch and
// puts, for each message this change moves, main's last points and the
// head in the report. Neither can fail the gate: what it could not do is a
// warning (recording) or a note (reading).
func (g *run) history(ctx context.Context) error {
	if g.s.History == "" {
		return nil
	}
	g.r.History = &report.History{Branch: g.s.History, Points: g.s.HistoryPoints, Messages: []report.HistoryMessage{}}
	store := history.Store{Dir: g.head.dir, Branch: g.s.History}
	if g.o.RecordHistory {
		g.recordHistory(ctx, store)
		return nil
	}
	if history.ChangedMessages(g.r) == 0 {
		return nil // nothing to chart, and nothing to say about it
	}
	// Bounded: a remote that asks for a passphrase or does not answer
	// must not hold up a gate for a chart.
	rctx, cancel := context.WithTimeout(ctx, readTimeout)
	defer cancel()
	points, skipped, err := store.Read(rctx)
	switch {
	case errors.Is(err, history.ErrNoHistory):
		g.r.History.Note = err.Error()
		return nil
	case err != nil:
		g.warn("history not read: %v", err)
		return nil
	case skipped > 0:
		g.warn("history branch %s: %d lines are not wiregate points and were skipped", g.s.History, skipped)
	}
	g.r.History.Messages = history.Changed(g.r, points, g.s.HistoryPoints)
	if len(g.r.History.Messages) == 0 {
		g.r.History.Note = fmt.Sprintf("the %d points on %s have none of the changed figures yet", len(points), g.s.History)
	}
	return nil
}

// readTimeout bounds reading the history branch; recordTimeout bounds
// recording a point, retries included.
const readTimeout, recordTimeout = time.Minute, 3 * time.Minute

// measuredStages must all have run, without error, for a point to be
// recorded: a point missing figures would show as a drop in the chart.
var measuredStages = []string{"sizes", "bench", "compare"}

func (g *run) recordHistory(ctx context.Context, store history.Store) {
	for _, name := range measuredStages {
		i := slices.IndexFunc(g.r.Stages, func(s report.Stage) bool { return s.Name == name })
		if i < 0 || g.r.Stages[i].Error != "" {
			g.warn("history not recorded: the %s stage did not run to the end", name)
			return
		}
	}
	sha := g.r.Head.Sha
	if len(sha) != 40 || strings.Contains(sha, "+") {
		g.warn("history not recorded: head %q is not a commit (a working tree with changes has no sha to record)", sha)
		return
	}
	p := history.Point{Sha: sha, Ref: g.r.Head.Ref, Date: history.CommitDate(ctx, g.head.dir, sha), Figures: history.Figures(g.r)}
	ctx, cancel := context.WithTimeout(ctx, recordTimeout)
	defer cancel()
	attempts, err := store.Append(ctx, p)
	if err != nil {
		g.warn("history not recorded: %v", err)
		return
	}
	g.r.History.Recorded, g.r.History.Attempts = sha, attempts
	if attempts == 0 {
		g.r.History.Note = "already recorded by an earlier run of this commit"
	}
}

package gate

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"time"

	"github.com/wiregate/wiregate/harness/parent/budget"
	"github.com/wiregate/wiregate/harness/parent/history"
	"github.com/wiregate/wiregate/harness/parent/report"
)

// measuredPrices are what a run of the base's branch measured of each
// message (report.MeasuringTime, kept on the history branch), as budget.MessagePrices:
// what the plan and the budget price a message by before static prices.
type measuredPrices struct {
	prices map[string]budget.MessagePrice
	// noise is each message's timings' samples relative to their median,
	// by "format/op" (report.MeasuringTime.Noise): what the bench forecast predicts a
	// timing's power from before it runs.
	noise  map[string]map[string][]float64
	branch string
	at     string // the history point's sha
	why    string // why there are none
}

// pricesAt are the prices of the history point at the base in br: the
// point of the base commit, else the newest point of one of its
// ancestors. The base, not the newest point, so that a plan and every
// shard of its matrix, which may read the branch minutes apart, price
// alike. A point another wiregate (harness, sch.head.Harness()) or Go
// measured prices nothing, as it carries nothing
// (history.Point.MeasuredBy): what a stage costs is the harness's.
func (g *run) pricesAt(ctx context.Context, br *branchRead, harness string) measuredPrices {
	if br == nil {
		return measuredPrices{why: "history: false"}
	}
	points, err := br.points, br.err
	switch {
	case errors.Is(err, history.ErrNoHistory):
		return measuredPrices{why: "no history branch " + g.s.History}
	case err != nil:
		return measuredPrices{why: "history not read"}
	}
	rctx, cancel := context.WithTimeout(ctx, readTimeout)
	defer cancel()
	p := history.PointAt(rctx, g.head.dir, points, g.base.rev.Sha)
	if p == nil {
		return measuredPrices{why: fmt.Sprintf("no point of the base on %s", g.s.History)}
	}
	if !p.MeasuredBy(harness, runtime.Version()) {
		return measuredPrices{why: fmt.Sprintf("the base's point on %s was measured by another wiregate or Go", g.s.History)}
	}
	mp := measuredPrices{prices: map[string]budget.MessagePrice{}, noise: map[string]map[string][]float64{}, branch: g.s.History, at: p.Sha}
	for _, c := range p.MeasuringTimes {
		mp.prices[c.Message] = priceOf(c)
		if len(c.Noise) > 0 {
			mp.noise[c.Message] = c.Noise
		}
	}
	if len(mp.prices) == 0 {
		mp.why = fmt.Sprintf("the base's point on %s has no costs", g.s.History)
	}
	return mp
}

// says says where n of of messages' prices came from.
func (mp measuredPrices) says(n, of int) string {
	switch {
	case n == 0 && mp.why != "":
		return "static prices: " + mp.why
	case n == 0:
		return fmt.Sprintf("static prices: %s at %s measured none of them", mp.branch, short(mp.at))
	case n == of:
		return fmt.Sprintf("prices measured on %s at %s", mp.branch, short(mp.at))
	}
	return fmt.Sprintf("prices measured on %s at %s for %d of %d messages, static for the rest", mp.branch, short(mp.at), n, of)
}

func short(sha string) string { return sha[:min(len(sha), 7)] }

// priceOf is a run's cost of a message as the budget prices it.
func priceOf(c report.MeasuringTime) budget.MessagePrice {
	d := func(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }
	return budget.MessagePrice{Sizes: d(c.SizesSeconds), Count: d(c.CountSeconds), Round: d(c.RoundSeconds),
		PipePass: d(c.PipelinePassSeconds)}
}

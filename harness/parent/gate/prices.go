package gate

import (
	"time"

	"github.com/wiregate/wiregate/harness/parent/budget"
	"github.com/wiregate/wiregate/harness/parent/report"
	"github.com/wiregate/wiregate/harness/parent/verdict"
)

// prices are the budget's first prices of list, for Holm families of
// family gated messages (the whole change's), from the sizes stage's
// rows (benchprog.ColdReading: a cold reading of each case's encode and decode
// and of setting the message up, taken while checking it): the cost of
// counting a message is what a run measured of its count processes
// (measured prices, from the history point at the base), else
// budget.CountPrice's estimate from the rows; a bench round's is each
// benchmark's target time plus the setup. Each stage then corrects
// its own by what it measures.
func (g *run) prices(sz sizes, list []string, sch *schemas, family int, mp measuredPrices) budget.Prices {
	formats := len(g.s.Formats)
	p := budget.Prices{Pipeline: g.s.Pipeline, Rounds: g.s.Rounds, Benchtime: g.s.Benchtime, Measured: g.s.Benchtime,
		RoundOverhead: 2 * budget.ProgramStart, Processes: g.s.CPUProcesses}
	work := make([]time.Duration, len(list))
	for i, m := range list {
		work[i] = budget.CountPrice(sz.of(1, []string{m}))
	}
	start := budget.CountStartShare(work)
	for _, m := range list {
		var count, build time.Duration
		sides := 0
		for side := range 2 {
			rows := sz.of(side, []string{m})
			if len(rows) == 0 {
				continue
			}
			sides++
			count += budget.CountPrice(rows) + start
			build += time.Duration(rows[0].Cold.SetupSeconds * float64(time.Second))
		}
		if fromHistory := mp.prices[m].Count; fromHistory > 0 {
			count = fromHistory * time.Duration(sides)
		} else if rows := sz.addedRows(m, g.s.Formats); len(rows) > 0 {
			// One process a batch counts the added content too: its loops
			// shared out over the processes Count is multiplied by.
			count += budget.CountPrice(rows) / time.Duration(max(g.s.CPUProcesses, 1))
		}
		gating := sch.status[m] != report.StatusUnchanged
		p.Messages = append(p.Messages, budget.Price{Name: m, Gating: gating, Count: count,
			Round: time.Duration(float64(sides) * 2 * float64(formats) * budget.BenchRun * float64(g.s.Benchtime)), Build: build})
	}
	p.MinRounds = verdict.MinRounds(verdict.TimeFamily(family, formats), g.cfg.Alpha)
	return p
}

// countBytes is what each row's count is sized by (cpucost.LengthFor):
// its records' mean bytes, by "message/format", the larger of the two
// sides'. Exact, so both sides, every shard and every later run count the
// same records the same number of times.
func (s sizes) countBytes() map[string]float64 {
	out := map[string]float64{}
	for k, pair := range s.pairs {
		for _, r := range pair {
			if r != nil {
				out[k] = max(out[k], r.BytesMean)
			}
		}
	}
	return out
}

package gate

import (
	"time"

	"github.com/wiregate/wiregate/harness/budget"
	"github.com/wiregate/wiregate/harness/cpucost"
	"github.com/wiregate/wiregate/harness/record"
	"github.com/wiregate/wiregate/harness/report"
	"github.com/wiregate/wiregate/harness/verdict"
)

// What a bench round costs beyond its benchmarks' target time: starting a
// side's program, and testing.Benchmark's own calibration runs (it reaches
// its benchtime in a few growing runs).
const (
	programStart     = 100 * time.Millisecond
	benchCalibration = 1.3
	// checkPasses is how many encodes and decodes of each record the sizes
	// stage's correctness gate and sizes make per format, roughly: the
	// native cost of an op is estimated from that stage's time.
	checkPasses = 3
)

// prices are the budget's prices of list, from what the sizes stage took
// per message: the first estimates the plan has; each stage corrects its
// own by what it measures.
func (g *run) prices(sz sizes, list []string, sch *schemas) budget.Prices {
	formats := len(g.s.Formats)
	gated := 0
	p := budget.Prices{Pipeline: g.s.Pipeline, Count: g.s.Count, Benchtime: g.s.Benchtime, Measured: g.s.Benchtime,
		RoundOverhead: 2 * programStart}
	for _, m := range list {
		sides := 2.0
		if sch.status[m] == report.StatusNew {
			sides = 1
		}
		// Both sides' time over the pool, every format, checkPasses ops each.
		ns := float64(sz.took[m]) / sides / float64(record.PoolSize*max(formats, 1)*checkPasses)
		opNs := make([]float64, formats)
		for i := range opNs {
			opNs[i] = 2 * ns // an encode and a decode
		}
		gating := sch.status[m] != report.StatusUnchanged
		if gating {
			gated++
		}
		p.Messages = append(p.Messages, budget.Price{Name: m, Gating: gating,
			Count:    time.Duration(sides * float64(cpucost.Estimate(opNs, cpucost.DefaultRotations))),
			CountOne: time.Duration(sides * float64(cpucost.Estimate(opNs, 1))),
			Round:    time.Duration(sides * 2 * float64(formats) * benchCalibration * float64(g.s.Benchtime)),
			Build:    sz.took[m]})
	}
	p.MinCount = verdict.MinRounds(verdict.TimeFamily(gated, formats), g.cfg.Alpha)
	return p
}

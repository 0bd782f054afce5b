package gate

import (
	"slices"

	"github.com/wiregate/wiregate/harness/parent/report"
)

// costsOf is what measuring each of list cost this run, by stage, from
// the stages' results: report.json's costs, which a later plan prices
// by. A message no stage timed has none.
func costsOf(list []string, sz sizes, c counts, t timings, rows pipelineRows) []report.Cost {
	var out []report.Cost
	for _, m := range slices.Sorted(slices.Values(list)) {
		cost := report.Cost{Message: m, SizesSeconds: sz.seconds[m], RoundSeconds: t.warmed[m].Seconds(),
			PipelinePassSeconds: rows.perPass[m].Seconds()}
		if n := c.processes[m]; n > 0 {
			cost.CountSeconds = c.seconds[m] / float64(n)
		}
		if cost != (report.Cost{Message: m}) {
			out = append(out, cost)
		}
	}
	return out
}

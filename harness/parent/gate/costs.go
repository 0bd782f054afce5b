package gate

import (
	"math"
	"slices"

	"github.com/wiregate/wiregate/harness/parent/report"
)

// measuringTimesOf is what measuring each of list cost this run, by stage, from
// the stages' results: report.json's costs, which a later plan prices
// by. A message no stage timed has none.
func measuringTimesOf(list []string, sz sizes, c counts, t timings, rows pipelineRows) []report.MeasuringTime {
	var out []report.MeasuringTime
	noise := t.noise()
	for _, m := range slices.Sorted(slices.Values(list)) {
		cost := report.MeasuringTime{Message: m, SizesSeconds: sz.seconds[m], RoundSeconds: t.warmed[m].Seconds(),
			PipelinePassSeconds: rows.perPass[m].Seconds(), Noise: noise[m]}
		if n := c.processes[m]; n > 0 {
			cost.CountSeconds = c.seconds[m] / float64(n)
		}
		if cost.SizesSeconds+cost.CountSeconds+cost.RoundSeconds+cost.PipelinePassSeconds > 0 || len(cost.Noise) > 0 {
			out = append(out, cost)
		}
	}
	return out
}

// noise is each message's timings, each series of rounds relative to its
// median (report.MeasuringTime.Noise): the base's, or head's where the base timed
// nothing (a push, a new message). A series of one round says nothing of
// noise and is left out.
func (t timings) noise() map[string]map[string][]float64 {
	out := map[string]map[string][]float64{}
	for _, side := range [][]byte{t.out[1], t.out[0]} { // the base's last: it wins
		for m, series := range timeSamples(side) {
			for key, vs := range series {
				rel := relative(vs)
				if len(vs) < 2 || rel == nil {
					continue
				}
				if out[m] == nil {
					out[m] = map[string][]float64{}
				}
				out[m][key] = rel
			}
		}
	}
	return out
}

// relative is vs over their median, to four decimals: the spread, without
// the machine's speed.
func relative(vs []float64) []float64 {
	if len(vs) == 0 {
		return nil
	}
	s := slices.Sorted(slices.Values(vs))
	mid := s[len(s)/2]
	if len(s)%2 == 0 {
		mid = (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
	if !(mid > 0) {
		return nil // a median of 0 has no relative spread
	}
	out := make([]float64, len(vs))
	for i, v := range vs {
		out[i] = math.Round(v/mid*1e4) / 1e4
	}
	return out
}

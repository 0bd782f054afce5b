package gate

import (
	"bytes"
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/wiregate/wiregate/harness/parent/compare"
	"github.com/wiregate/wiregate/harness/parent/cpucost"
	"github.com/wiregate/wiregate/harness/parent/report"
	"github.com/wiregate/wiregate/harness/program/bench"
)

// compare turns what the cpu and bench stages returned into each side's
// benchfmt file (instruction counts first, one line per process, then
// every round's timings, so `benchstat base.txt head.txt` shows every unit
// the report does) and the bench rounds into the report's metrics,
// compared with benchmath as benchstat does. Instruction counts are the cpu
// stage's metrics (enterCounts): exact per process, so benchmath's
// distributions do not apply. Whatever was measured is compared, also when
// a later stage did not run. A timing's minimum detectable effect is
// stated at cutoff (verdict.StrictestCutoff of the whole change's time
// family, as the bench stage stops a series at).
func (g *run) compare(c counts, t timings, cutoff float64) (compared, string, error) {
	out := compared{metrics: t.notTimedMetrics()}
	var text [2]bytes.Buffer
	results := [2][]cpucost.Result{c.base, c.head}
	tool := ""
	if c.cpuCost != nil {
		tool = c.cpuCost.Tool
	}
	for i := range text {
		bench.Header(&text[i])
		if len(results[i]) > 0 && len(results[1-i]) > 0 { // a one-sided count compares nothing
			if err := cpucost.Write(&text[i], &cpucost.Counts{Tool: tool, Results: results[i]}); err != nil {
				return out, "", err
			}
		}
		text[i].Write(t.out[i])
		text[i].Write(t.allocs[i])
	}
	for i, name := range []string{"base.txt", "head.txt"} {
		if err := os.WriteFile(filepath.Join(g.o.Out, name), text[i].Bytes(), 0o644); err != nil {
			return out, "", err
		}
	}
	if len(results[0])+len(t.out[0])+len(t.allocs[0]) == 0 || len(results[1])+len(t.out[1])+len(t.allocs[1]) == 0 {
		return out, "", nil // one side has nothing: head-only sizes are still reported
	}
	res, err := compare.Files(bytes.NewReader(text[0].Bytes()), bytes.NewReader(text[1].Bytes()), "base", "head", g.cfg.Alpha)
	if err != nil {
		return out, "", err
	}
	out.benchstat = res.Text
	if err := os.WriteFile(filepath.Join(g.o.Out, "benchstat.txt"), []byte(res.Text), 0o644); err != nil {
		return out, "", err
	}
	var baseTimes map[string]map[string][]float64 // read once, when a message stopped with no slowdown
	for _, c := range res.Comparisons {
		if c.Message == "" || c.Unit == "B/msg" || c.Unit == cpucost.UnitInstructions {
			continue // sizes and counts are exact, reported by their own stages
		}
		m := c.Metric(c.Op)
		if c.Unit == timeUnit {
			m.MDE, m.MDEReason = c.MDE(cutoff)
			if n, ok := t.noSlowdown[c.Message]; ok {
				// Its decision had the rounds planned: a slowdown would
				// have kept it timed (judgeNoSlowdown).
				if baseTimes == nil {
					baseTimes = timeSamples(t.out[0])
				}
				m.MDE, m.MDEReason = plannedMDE(baseTimes[c.Message][c.Format+"/"+c.Op], cutoff, t.forecast.Rounds)
				m.StoppedNoSlowdown = n
			}
		}
		if floor, ok := allocFloors[c.Unit]; ok {
			exactMetric(&m, floor)
		}
		out.metrics = append(out.metrics, formatMetric{message: c.Message, format: c.Format, Metric: m})
	}
	return out, "", nil
}

// allocFloors are the bench's exact figures, each with its noise floor
// per op: counted once a side (the bench program's CountAllocs), compared
// as figures, not by a rank test.
var allocFloors = map[string]float64{"allocs/op": bench.AllocsFloor, "B/op": bench.BytesFloor}

// exactMetric makes m an exact comparison of its one figure a side: it
// moved when the figures differ by more than floor (a rank test of one
// sample a side could never say so).
func exactMetric(m *report.Metric, floor float64) {
	m.P, m.NoiseFloor = nil, nil
	if m.Base == nil || m.Head == nil {
		m.Significant = false
		return
	}
	if m.Base.Center > 0 {
		m.NoiseFloor = ptrTo(floor / m.Base.Center * 100)
	}
	m.Significant = math.Abs(m.Head.Center-m.Base.Center) > floor
	m.Delta = "~"
	if m.Significant && m.DeltaPct != nil {
		m.Delta = fmt.Sprintf("%+.2f%%", *m.DeltaPct)
	}
}

func ptrTo(f float64) *float64 { return &f }

// notTimedMetrics are the timings planned unable to fail and not run,
// each with its predicted MDE.
func (t timings) notTimedMetrics() []formatMetric {
	var out []formatMetric
	for _, m := range slices.Sorted(maps.Keys(t.notTimed)) {
		for _, key := range slices.Sorted(maps.Keys(t.notTimed[m])) {
			format, op, _ := strings.Cut(key, "/")
			mt := report.Metric{Name: op, Unit: timeUnit, Delta: "not timed", NotTimed: true, MDE: t.notTimed[m][key]}
			if mt.MDE == nil {
				mt.MDEReason = "the rounds the plan allows can never reach the cutoff at the noise the base's history point measured"
			}
			out = append(out, formatMetric{message: m, format: format, Metric: mt})
		}
	}
	return out
}

// compared is the compare stage's result: benchstat's text and each timed
// metric (sec/op, B/op, allocs/op) by message and format.
type compared struct {
	benchstat string
	metrics   []formatMetric
}

package gate

import (
	"bytes"
	"os"
	"path/filepath"
	"sort"

	"github.com/wiregate/wiregate/harness/parent/compare"
	"github.com/wiregate/wiregate/harness/program/bench"
	"github.com/wiregate/wiregate/harness/program/cpucost"
)

// compare turns what the cpu and bench stages returned into each side's
// benchfmt file (instruction counts first, one line per process, then
// every round's timings, so `benchstat base.txt head.txt` shows every unit
// the report does) and the bench rounds into the report's metrics,
// compared with benchmath as benchstat does. Instruction counts are the cpu
// stage's metrics (recordCounts): exact per process, so benchmath's
// distributions do not apply. Whatever was measured is compared, also when
// a later stage did not run.
func (g *run) compare(c counts, t timings) error {
	var text [2]bytes.Buffer
	results := [2][]cpucost.Result{c.base, c.head}
	tool := ""
	if c.cost != nil {
		tool = c.cost.Tool
	}
	for i := range text {
		bench.Header(&text[i])
		if len(results[i]) > 0 && len(results[1-i]) > 0 { // a one-sided count compares nothing
			if err := cpucost.Write(&text[i], &cpucost.Counts{Tool: tool, Results: results[i]}); err != nil {
				return err
			}
		}
		text[i].Write(t.out[i])
	}
	for i, name := range []string{"base.txt", "head.txt"} {
		if err := os.WriteFile(filepath.Join(g.o.Out, name), text[i].Bytes(), 0o644); err != nil {
			return err
		}
	}
	if len(results[0])+len(t.out[0]) == 0 || len(results[1])+len(t.out[1]) == 0 {
		return nil // one side has nothing: head-only sizes are still reported
	}
	res, err := compare.Files(bytes.NewReader(text[0].Bytes()), bytes.NewReader(text[1].Bytes()), "base", "head", g.cfg.Alpha)
	if err != nil {
		return err
	}
	g.r.Benchstat = res.Text
	if err := os.WriteFile(filepath.Join(g.o.Out, "benchstat.txt"), []byte(res.Text), 0o644); err != nil {
		return err
	}
	mdeAlpha := g.cfg.Alpha / float64(max(timedTests(res.Comparisons, g.unchangedSchemas()), 1))
	for _, c := range res.Comparisons {
		if c.Message == "" || c.Unit == "B/msg" || c.Unit == cpucost.UnitInstructions {
			continue // sizes and counts are exact, reported by their own stages
		}
		m := c.Metric(c.Op)
		if c.Unit == timeUnit {
			m.MDE, m.MDEReason = c.MDE(mdeAlpha)
		}
		g.r.Format(c.Message, c.Format).Metrics = append(g.r.Format(c.Message, c.Format).Metrics, m)
	}
	for i := range g.r.Messages {
		for j := range g.r.Messages[i].Formats {
			ms := g.r.Messages[i].Formats[j].Metrics
			sort.SliceStable(ms, func(a, b int) bool {
				if ms[a].Name != ms[b].Name {
					return ms[a].Name < ms[b].Name // decode, encode
				}
				return unitOrder[ms[a].Unit] < unitOrder[ms[b].Unit]
			})
		}
	}
	return nil
}

var unitOrder = map[string]int{"sec/op": 0, "B/op": 1, "allocs/op": 2, cpucost.UnitInstructions: 3}

const timeUnit = "sec/op"

// timedTests is how many timings of changed messages one run tests: the
// size of the Holm family whose strictest cutoff (alpha over it) a timed
// metric's minimum detectable effect is stated at.
func timedTests(cs []compare.Comparison, unchanged map[string]bool) int {
	n := 0
	for _, c := range cs {
		if c.Unit == timeUnit && c.Message != "" && !unchanged[c.Message] {
			n++
		}
	}
	return n
}

// unchangedSchemas are the report's messages whose schema is the same on
// both sides.
func (g *run) unchangedSchemas() map[string]bool {
	out := map[string]bool{}
	for _, m := range g.r.Messages {
		out[m.Name] = m.UnchangedSchema
	}
	return out
}

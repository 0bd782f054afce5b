package gate

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/wiregate/wiregate/harness/bench"
	"github.com/wiregate/wiregate/harness/compare"
	"github.com/wiregate/wiregate/harness/cpucost"
	"github.com/wiregate/wiregate/harness/report"
)

// benchFiles are the benchfmt files of each side: the cpu stage starts
// them with the instruction counts, the bench rounds append the timings,
// and compare reads both, so `benchstat base.txt head.txt` shows every
// unit the report does.
func (g *run) benchFiles() map[*side]string {
	return map[*side]string{g.base: filepath.Join(g.o.Out, "base.txt"), g.head: filepath.Join(g.o.Out, "head.txt")}
}

// countInstructions is the cpu stage: instructions per encode and decode,
// counted exactly under Valgrind (package cpucost), base then head — each
// count already keeps every CPU busy, and two at once was slower. Whether
// it counts is cpu-cost's decision (cpucost.Prepare); not counting is a
// reason in the report and the stage note, not an error, unless cpu-cost
// is on. Valgrind failing is the stage's error: one line.
func (g *run) countInstructions(ctx context.Context) error {
	files := g.benchFiles()
	for _, f := range files {
		os.Remove(f) // a previous run's, in the same --out
	}
	g.r.CPUCost = &report.CPUCost{Mode: string(g.s.CPUCost)}
	setup, err := cpucost.Prepare(ctx, g.s.CPUCost, cpucost.Env{CI: os.Getenv("GITHUB_ACTIONS") == "true"})
	if err != nil {
		return err
	}
	g.r.CPUCost.Installed = setup.Installed
	if setup.Valgrind == "" {
		g.r.CPUCost.Unavailable, g.note = setup.Reason, setup.Reason
		return nil
	}
	var notes []string
	if setup.Installed != "" {
		notes = append(notes, setup.Installed)
	}
	out := map[*side][]byte{}
	for _, s := range []*side{g.base, g.head} {
		if len(s.sel.Messages) == 0 {
			continue
		}
		c, err := cpucost.Count(ctx, s.prog.Binary, s.sel, cpucost.Options{Valgrind: setup.Valgrind})
		if err != nil {
			return s.wrap(err)
		}
		if c.Unavailable != "" { // Prepare found it; only a race can lose it
			g.r.CPUCost.Unavailable, g.note = c.Unavailable, c.Unavailable
			return nil
		}
		var b bytes.Buffer
		bench.Header(&b)
		if err := cpucost.Write(&b, c); err != nil {
			return err
		}
		out[s] = b.Bytes()
		g.r.CPUCost.Tool = c.Tool
		notes = append(notes, fmt.Sprintf("%s counted in %.1f s", s.name, c.Seconds))
	}
	// Written together: a side counted without the other would be a
	// one-sided table, not a comparison.
	for s, b := range out {
		if err := os.WriteFile(files[s], b, 0o644); err != nil {
			return err
		}
	}
	g.note = g.r.CPUCost.Tool + ": " + strings.Join(notes, ", ")
	return nil
}

// cpuMetric is an instruction count's report entry: the comparison of two
// exact numbers, so no p-value; the noise floor is that of the format's
// counts (cpucost.NoiseFloorPct) and a change is significant past it. The
// verdict gates a growth only above it.
func cpuMetric(c compare.Comparison) report.Metric {
	m := c.Metric(c.Op)
	floor := cpucost.NoiseFloorPct(c.Format, c.Base.Center)
	m.NoiseFloor, m.P = &floor, nil
	m.Significant = m.DeltaPct != nil && math.Abs(*m.DeltaPct) > floor
	return m
}

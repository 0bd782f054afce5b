package gate

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

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
	counts := map[*side]*cpucost.Counts{}
	count := func(messages []string) (bool, error) {
		for _, s := range []*side{g.base, g.head} {
			sel := s.sel
			if sel.Messages = timedOnly(s.sel.Messages, messages); len(sel.Messages) == 0 {
				continue
			}
			c, err := cpucost.Count(ctx, s.prog.Binary, sel, cpucost.Options{Valgrind: setup.Valgrind})
			if err != nil {
				return false, s.wrap(err)
			}
			if c.Unavailable != "" { // Prepare found it; only a race can lose it
				g.r.CPUCost.Unavailable, g.note = c.Unavailable, c.Unavailable
				return false, nil
			}
			if counts[s] == nil {
				counts[s] = &cpucost.Counts{Tool: c.Tool}
			}
			counts[s].Results = append(counts[s].Results, c.Results...)
			counts[s].Seconds += c.Seconds
			g.r.CPUCost.Tool = c.Tool
		}
		return true, nil
	}
	must, optional := g.countOrder()
	if ok, err := count(must); !ok {
		return err
	}
	// Unchanged-schema messages a few at a time, while the cpu stage is
	// within its share of the budget: their counts cannot differ (same
	// code, same records), and on 60 messages counting them all took most
	// of the budget.
	unchanged, deadline := len(optional), time.Now().Add(g.remaining()/cpuShare)
	// A chunk starts only when one like the last still ends in time.
	var last time.Duration
	for len(optional) > 0 && time.Now().Add(last).Before(deadline) {
		chunk, start := optional[:min(len(optional), runtime.NumCPU())], time.Now()
		if ok, err := count(chunk); !ok {
			return err
		}
		optional, last = optional[len(chunk):], time.Since(start)
	}
	if len(optional) > 0 {
		note := fmt.Sprintf("to fit the time budget: %d of %d unchanged-schema messages not counted (their counts cannot differ: same code, same records)", len(optional), unchanged)
		g.r.Plan.CPU = &report.CPUPlan{Uncounted: optional, Note: note}
		notes = append(notes, note)
	}
	// Written together: a side counted without the other would be a
	// one-sided table, not a comparison.
	for _, s := range []*side{g.base, g.head} {
		if counts[s] == nil {
			continue
		}
		var b bytes.Buffer
		bench.Header(&b)
		if err := cpucost.Write(&b, counts[s]); err != nil {
			return err
		}
		if err := os.WriteFile(files[s], b.Bytes(), 0o644); err != nil {
			return err
		}
		notes = append(notes, fmt.Sprintf("%s counted in %.1f s", s.name, counts[s].Seconds))
	}
	g.note = g.r.CPUCost.Tool + ": " + strings.Join(notes, ", ")
	return nil
}

// cpuShare: the cpu stage may spend up to 1/cpuShare of what is left of
// the budget on unchanged-schema messages; bench and pipeline rounds get
// the rest.
const cpuShare = 4

// countOrder splits head's messages into those always counted (changed
// schemas, and every message when the run records history: main's chart
// needs them all) and the unchanged ones, counted while the budget allows.
func (g *run) countOrder() (must, optional []string) {
	if g.o.RecordHistory {
		return g.head.sel.Messages, nil
	}
	return g.byChange(g.head.sel.Messages)
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

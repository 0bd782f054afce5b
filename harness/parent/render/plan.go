package render

import (
	md "github.com/wiregate/wiregate/harness/parent/render/markdown"
	"github.com/wiregate/wiregate/harness/parent/report"
)

// cutParts say what the time budget cut: the gate's one line per stage
// (a merged report's are every shard's, so they may go when the comment is
// full), then each list of what it cut as a count with the names folded.
func cutParts(r *report.Report) []Part {
	c := r.Cut
	var exact, cpu, bench, pipeline struct {
		note  string
		names []string
	}
	var fewer []string
	if c.Exact != nil {
		exact.note, exact.names = c.Exact.Note, c.Exact.Unmeasured
	}
	if c.CPU != nil {
		cpu.note, cpu.names, fewer = c.CPU.Note, c.CPU.Uncounted, c.CPU.FewerProcesses
	}
	if c.Bench != nil {
		bench.note, bench.names = c.Bench.Note, c.Bench.Untimed
	}
	if c.Pipeline != nil {
		pipeline.note, pipeline.names = c.Pipeline.Note, c.Pipeline.Untimed
	}
	var lines []md.Md
	for _, n := range []struct {
		stage md.Md
		note  string
	}{
		{md.F("Exact stage"), exact.note},
		{md.F("Instruction counts"), cpu.note},
		{md.F("Bench rounds"), bench.note},
		{md.F("Pipeline"), pipeline.note},
	} {
		if n.note != "" {
			lines = append(lines, md.F("> ⏱ {}, {}", n.stage, n.note))
		}
	}
	messages := func(n int) md.Md { return count(n, "message", "messages") }
	parts := []Part{
		{Md: md.Join(lines, md.F("\n>\n")), Cut: cutBudgetNotes},
		folded(md.F("⏱ {} not measured at all (no correctness check, no sizes): the time budget ran out", messages(len(exact.names))), exact.names),
		folded(md.F("⏱ {} whose instructions were not counted", messages(len(cpu.names))), cpu.names),
		folded(md.F("⏱ {} counted in fewer processes per side than planned (with one, each count's floor is its format's, not its own)", messages(len(fewer))), fewer),
		folded(md.F("⏱ {} not timed", messages(len(bench.names))), bench.names),
		folded(md.F("⏱ {} not timed", count(len(pipeline.names), "pipeline row", "pipeline rows")), pipeline.names),
		folded(md.F("⚖ {} could not fail: the smallest slowdown (or fall in records/s) their rounds could show at the Holm cutoff is above their threshold (their instruction counts still gate)", count(len(r.UnableToFail), "timed metric", "timed metrics")), r.UnableToFail),
	}
	kept := parts[:0]
	for _, p := range parts {
		if !p.Md.Empty() {
			kept = append(kept, p)
		}
	}
	return kept
}

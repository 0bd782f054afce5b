package merge

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/wiregate/wiregate/harness/parent/config"
	"github.com/wiregate/wiregate/harness/parent/report"
	"github.com/wiregate/wiregate/harness/parent/verdict"
	"github.com/wiregate/wiregate/harness/program/exitcode"
)

// plan is a 3-shard split of six changed messages, two a shard.
var plan = [][]string{{"a.M0", "a.M1"}, {"a.M2", "a.M3"}, {"a.M4", "a.M5"}}

func rules() *report.Rules {
	return &report.Rules{Config: config.Config{Alpha: 0.05, Thresholds: config.Thresholds{SizePct: 5, TimePct: 10, ThroughputPct: 10, CPUPct: 2}}}
}

// part is shard i's report: its two messages, each timed in protobuf with
// decode p-value p and a +20% slowdown (encode unchanged), sized, and one
// lint finding every shard reports alike (existing debt).
func part(i int, p float64) Part {
	r := report.New()
	r.Base, r.Head = report.Rev{Ref: "main", Sha: "aaaa"}, report.Rev{Ref: "pr", Sha: "bbbb"}
	r.Rules = rules()
	r.Change = &report.Change{Measure: "changed", Changed: []string{"a.M0", "a.M1", "a.M2", "a.M3", "a.M4", "a.M5"}, New: []string{}, Removed: []string{}, Unchanged: []string{}}
	r.Shard = &report.Shard{Index: i, Count: 3, Name: fmt.Sprintf("%d/3", i), Artifact: fmt.Sprintf("wiregate-part-%d-of-3", i), Parts: plan, Split: "s", Change: "c", Inputs: "in", Harness: "h"}
	r.Findings = []report.Finding{{Kind: report.KindLint, File: "a.proto", Line: 3, Rule: "R", Message: "lint", Existing: true}}
	r.Stages = []report.Stage{{Name: "sizes", Seconds: 1}}
	for _, m := range plan[i-1] {
		r.MeasuringTimes = append(r.MeasuringTimes, report.MeasuringTime{Message: m, SizesSeconds: 0.5, CountSeconds: float64(i)})
		d, pv := 20.0, p
		f := r.Format(m, "protobuf")
		zero := 0.0
		f.Size = &report.Size{Base: 100, Head: 100, DeltaPct: &zero}
		same, one := 0.0, 0.9
		f.Metrics = []report.Metric{{Name: "encode", Unit: "sec/op", Base: &report.Summary{Center: 1, N: 10}, Head: &report.Summary{Center: 1, N: 10},
			DeltaPct: &same, P: &one}, {Name: "decode", Unit: "sec/op", Base: &report.Summary{Center: 1, N: 10}, Head: &report.Summary{Center: 1.2, N: 10},
			DeltaPct: &d, P: &pv, Significant: pv <= 0.05}}
	}
	verdict.Decide(r)
	return Part{From: fmt.Sprintf("part%d", i), Report: r}
}

// A slowdown at p = 0.01 fails each shard on its own (a family of four
// tests: Holm's first cutoff 0.0125), but not the merged report, whose
// family is twelve (0.0042): Holm is applied to the union of the raw
// p-values, not to the shards' verdicts. At p = 0.001 the union fails too.
func TestHolmIsOverTheUnion(t *testing.T) {
	var parts []Part
	for i := 1; i <= 3; i++ {
		p := part(i, 0.01)
		if p.Report.Result != "fail" {
			t.Fatalf("shard %d alone: %s, want fail (p 0.01 in a family of 4)", i, p.Report.Result)
		}
		parts = append(parts, p)
	}
	r, err := Parts(parts)
	if err != nil {
		t.Fatal(err)
	}
	if r.Result != "pass" || r.ExitCode != exitcode.OK || len(r.Messages) != 6 || len(r.Findings) != 1 {
		t.Fatalf("merged: %s (exit %d), %d messages, %d findings, %+v", r.Result, r.ExitCode, len(r.Messages), len(r.Findings), r.Violations)
	}
	parts = []Part{part(1, 0.001), part(2, 0.01), part(3, 0.01)}
	if r, _ := Parts(parts); r.Result != "fail" || len(r.Violations) != 2 {
		t.Fatalf("p 0.001 is significant in a family of 12: %s %+v", r.Result, r.Violations)
	}
	if r.Merged == nil || r.Merged.Count != 3 || len(r.Merged.Parts) != 3 || r.Stages[0].Shard != "1/3" {
		t.Fatalf("merged block %+v, stages %+v", r.Merged, r.Stages)
	}
	// What measuring cost: each message's, from the shard that measured it.
	if len(r.MeasuringTimes) != 6 || r.MeasuringTimes[5].Message != "a.M5" || r.MeasuringTimes[5].CountSeconds != 3 {
		t.Fatalf("costs %+v", r.MeasuringTimes)
	}
	valid(t, r)
}

// A missing shard's messages are named as not measured: a warning, and the
// coverage says they were not sized or timed; with coverage required the
// merged report fails on it.
func TestAMissingShardIsNotMeasured(t *testing.T) {
	r, err := Parts([]Part{part(1, 0.5), part(3, 0.5)})
	if err != nil {
		t.Fatal(err)
	}
	if r.Merged.Missing == nil || r.Merged.Missing[0] != 2 || !slices.Equal(r.Merged.MissingNames, []string{"2/3"}) || len(r.Warnings) != 1 || !strings.Contains(r.Warnings[0], "shard 2/3 has no part: its 2 messages were not measured (a.M2, a.M3)") {
		t.Fatalf("missing %v %q, warnings %q", r.Merged.Missing, r.Merged.MissingNames, r.Warnings)
	}
	c := r.Coverage
	if c == nil || c.Changed != 6 || c.Sized != 4 || strings.Join(c.Cut[report.FigureSized], ",") != "a.M2,a.M3" || r.Result != "pass" {
		t.Fatalf("coverage %+v, result %s", c, r.Result)
	}
	parts := []Part{part(1, 0.5), part(3, 0.5)}
	for _, p := range parts {
		p.Report.Rules.CoverageRequired = true
	}
	r, _ = Parts(parts)
	if r.Result != "fail" || r.ExitCode != exitcode.Failed || r.Violations[0].Kind != report.KindCoverage {
		t.Fatalf("coverage required: %s %+v", r.Result, r.Violations)
	}
	valid(t, r)
}

// Parts of another base, head, change set, split, inputs or wiregate, a
// shard given twice, and a whole gate's report are refused, one line
// naming them.
func TestPartsOfDifferentGatesAreRefused(t *testing.T) {
	for _, c := range []struct {
		edit func(r *report.Report)
		want string
	}{
		{func(r *report.Report) { r.Base.Sha = "cccc" }, "their base differs"},
		{func(r *report.Report) { r.Head.Sha = "dddd" }, "their head differs"},
		{func(r *report.Report) { r.Shard.Change = "other" }, "their change set differs"},
		{func(r *report.Report) { r.Shard.Inputs = "other" }, "their inputs differs"},
		{func(r *report.Report) { r.Shard.Harness = "other" }, "their wiregate version differs"},
		{func(r *report.Report) {
			r.Shard.Index, r.Shard.Name, r.Shard.Artifact = 1, "1/3", "wiregate-part-1-of-3"
		}, "are both shard 1/3"},
		{func(r *report.Report) { r.Shard.Name = "1/3" }, `says it is shard "1/3" (artifact "wiregate-part-2-of-3") but holds shard 2 of 3`},
		{func(r *report.Report) { r.Shard.Artifact = "wiregate-part-3-of-3" }, "but holds shard 2 of 3"},
		{func(r *report.Report) { r.Shard = nil }, "part2 is not a shard's report"},
	} {
		p := part(2, 0.5)
		c.edit(p.Report)
		_, err := Parts([]Part{part(1, 0.5), p})
		if err == nil || !strings.Contains(err.Error(), c.want) || exitcode.Code(err) != exitcode.Unusable {
			t.Errorf("%s: %v", c.want, err)
		}
	}
	if _, err := Parts(nil); err == nil {
		t.Error("no parts merged")
	}
}

// valid checks that r, written, keeps report.json's contract.
func valid(t *testing.T, r *report.Report) {
	t.Helper()
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	if err := report.Validate(b); err != nil {
		t.Fatal(err)
	}
}

// Each message keeps its own profile through a merge: the functions that
// moved its count, as its shard found them, beside the cpu violation the
// merged verdict decides again.
func TestEachMessageKeepsItsProfile(t *testing.T) {
	var parts []Part
	for i := 1; i <= 3; i++ {
		p := part(i, 0.5)
		for _, m := range plan[i-1] {
			f := p.Report.Format(m, "protobuf")
			d, floor := 5.0, 0.5
			f.Metrics = append(f.Metrics, report.Metric{Name: "decode", Unit: "instr/op", Base: &report.Summary{Center: 1000, N: 1}, Head: &report.Summary{Center: 1050, N: 1},
				DeltaPct: &d, NoiseFloor: &floor, Significant: true, Functions: []report.FunctionCost{{Name: "fn." + m, Kind: report.FunctionKindFunction,
					SelfBase: 10, SelfHead: 60, InclusiveBase: 10, InclusiveHead: 60, SelfDelta: 50, InclusiveDelta: 50, ExplainsMost: true}}})
		}
		verdict.Decide(p.Report)
		// Through report.json, as the merge job reads the shards'.
		b, _ := json.Marshal(p.Report)
		var back report.Report
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		p.Report = &back
		parts = append(parts, p)
	}
	r, err := Parts(parts)
	if err != nil {
		t.Fatal(err)
	}
	cpu := 0
	for _, v := range r.Violations {
		if v.Kind == report.KindCPU {
			cpu++
		}
	}
	if cpu != 6 {
		t.Errorf("%d cpu violations, want 6: %+v", cpu, r.Violations)
	}
	for _, m := range r.Messages {
		var fns []report.FunctionCost
		for _, mt := range m.Formats[0].Metrics {
			if mt.Unit == "instr/op" {
				fns = mt.Functions
			}
		}
		if len(fns) != 1 || fns[0].Name != "fn."+m.Name || !fns[0].ExplainsMost {
			t.Errorf("%s: functions %+v, want its own", m.Name, fns)
		}
	}
	valid(t, r)
}

// A merged report's wall time is its parts' added up, as its stages are;
// one part without its own (a report written before wiregate ran) leaves
// it unknown, so the comment adds the stages up instead.
func TestMergedSecondsAddThePartsOnlyWhenEachHasIts(t *testing.T) {
	parts := []Part{part(1, 0.5), part(2, 0.5), part(3, 0.5)}
	for i, p := range parts {
		p.Report.Seconds = float64(10 * (i + 1))
	}
	if r, err := Parts(parts); err != nil || r.Seconds != 60 {
		t.Fatalf("seconds %v, err %v: want 60", r.Seconds, err)
	}
	parts[1].Report.Seconds = 0
	if r, err := Parts(parts); err != nil || r.Seconds != 0 {
		t.Fatalf("seconds %v with a part that has none, err %v: want 0", r.Seconds, err)
	}
}

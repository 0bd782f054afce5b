package gate

import (
	"fmt"
	"slices"
	"testing"

	"github.com/wiregate/wiregate/harness/parent/cpucost"
	"github.com/wiregate/wiregate/harness/parent/history"
	"github.com/wiregate/wiregate/harness/parent/inputs"
	"github.com/wiregate/wiregate/harness/parent/prepare"
	"github.com/wiregate/wiregate/harness/parent/report"
	"github.com/wiregate/wiregate/harness/program/benchprog"
)

// The history stage takes its figures from the measuring stages' typed
// results (exactOf), never from the report read back; what it takes must
// be what the report says once the same results entered it: the same
// figures (a push records them) and the same changed messages (a pull
// request charts them). The results hold each kind of exact figure: a
// size that grew, one that did not, a message new in head, an empty
// message (0 bytes on both sides: no base in the report's eyes), a count
// past its noise floor, a count within it, an allocs/op that moved, a
// sec/op (not exact), and a message whose head records hold added content
// (head's whole records are what a point records and a chart ends on).
func TestTheHistoryStageTakesWhatTheReportSaysWithoutReadingIt(t *testing.T) {
	size := func(b float64) *benchprog.Size { return &benchprog.Size{BytesMean: b} }
	count := func(op, message, format string, instructions uint64) cpucost.Result {
		return cpucost.Result{Name: fmt.Sprintf("Benchmark%s/%s/%s", op, message, format), Ops: 100, Instructions: instructions}
	}
	summary := func(c float64) *report.Summary { return &report.Summary{Center: c, N: 3} }
	m := stageResults{
		sch:   &schemas{head: &prepare.Schema{}, status: map[string]string{}, prints: map[string]string{}},
		list:  []string{"a.v1.Grown", "b.v1.New", "c.v1.Empty", "d.v1.Added"},
		sized: true,
		sizes: sizes{pairs: map[string][2]*benchprog.Size{
			"a.v1.Grown/protobuf": {size(30), size(33)},
			"a.v1.Grown/json":     {size(80), size(80)},
			"b.v1.New/protobuf":   {nil, size(12)},
			"c.v1.Empty/protobuf": {size(0), size(0)},
			"d.v1.Added/protobuf": {size(40), size(40)},
		}, added: map[string]*benchprog.Size{"d.v1.Added/protobuf": size(52)}},
		counts: counts{cpuCost: &report.CPUCost{},
			base:  []cpucost.Result{count("Encode", "a.v1.Grown", "protobuf", 300_000), count("Decode", "a.v1.Grown", "protobuf", 500_000)},
			head:  []cpucost.Result{count("Encode", "a.v1.Grown", "protobuf", 390_000), count("Decode", "a.v1.Grown", "protobuf", 500_010)},
			added: map[string][]addedCount{"d.v1.Added": {{op: "encode", format: "protobuf", without: 4000, with: 4400}}}},
		compared: compared{metrics: []formatMetric{
			{message: "a.v1.Grown", format: "json", Metric: report.Metric{Name: "decode", Unit: "allocs/op", Base: summary(4), Head: summary(5)}},
			{message: "a.v1.Grown", format: "json", Metric: report.Metric{Name: "decode", Unit: "sec/op", Base: summary(1e-6), Head: summary(2e-6)}},
		}},
	}
	r := report.New()
	set := inputs.Settings{Formats: []string{"json", "protobuf"}}
	enterResults(r, set, m, nil)

	exact, entered := exactOf(m, set.Formats), history.ExactIn(r)
	key := func(fs []history.Figure) []string {
		var out []string
		for _, f := range fs {
			out = append(out, fmt.Sprintf("%s/%s/%s %s %g", f.Message, f.Format, f.Metric, f.Unit, f.Value))
		}
		slices.Sort(out)
		return out
	}
	got, want := key(history.Figures(exact)), key(history.Figures(entered))
	if len(want) != 8 || !slices.Equal(got, want) || !slices.Contains(want, "d.v1.Added/protobuf/size B/msg 52") {
		t.Errorf("figures from the stages\n %q\nfrom the report\n %q (want 8: 5 sizes, 2 instr/op, 1 allocs/op, d's size its whole records')", got, want)
	}
	if got, want := history.ChangedMessages(exact), history.ChangedMessages(entered); got != want || want != 2 {
		t.Errorf("changed messages: %d from the stages, %d from the report, want 2 (a.v1.Grown, and d.v1.Added's whole records)", got, want)
	}
	if exactOf(stageResults{}, nil) != nil {
		t.Error("no schemas, yet figures")
	}
}

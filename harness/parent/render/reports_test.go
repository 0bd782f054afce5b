package render

import (
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	md "github.com/wiregate/wiregate/harness/parent/render/markdown"
	"github.com/wiregate/wiregate/harness/parent/report"
)

// Reports built in tests from the contract: the fixtures (test/fixtures)
// are real gate output, which only scripts/fixtures.sh writes; these
// builders add fields to a fixture, or make reports of a size no fixture
// has.

// fixture is a real gate run's report.json: pass, all, fail or allowed.
func fixture(t *testing.T, name string) *report.Report {
	return readReport(t, filepath.Join(repoRoot, "test", "fixtures", name+".json"))
}

// golden is one of test/golden's reports.
func golden(t *testing.T, name string) *report.Report {
	return readReport(t, filepath.Join(repoRoot, "test", "golden", name+".json"))
}

// reparse is r as wiregate render reads it: through JSON, checked against
// the contract.
func reparse(t *testing.T, r *report.Report) *report.Report {
	t.Helper()
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	if err := report.Validate(b); err != nil {
		t.Fatalf("the built report breaks the contract: %v", err)
	}
	var out report.Report
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return &out
}

func f64(x float64) *float64 { return &x }

// messageName is a message name as long as a real API's.
func messageName(i int) string {
	return fmt.Sprintf("org.example.api.v2.resources.Resource%04dRequest", i)
}

var testFormats = []string{"json", "protobuf", "avro"}

func schemaStages() []report.Stage {
	return []report.Stage{{Name: "buf lint", Seconds: 0.4}, {Name: "buf breaking", Seconds: 0.5}, {Name: "avro-compatibility", Seconds: 0.01}}
}

// aaReport is an identical base and head of n messages: no schema
// changed, nothing measured (the default measure: changed).
func aaReport(n int) *report.Report {
	names := make([]string, n)
	for i := range names {
		names[i] = messageName(i)
	}
	return &report.Report{
		Version: 1, Result: "pass", ExitCode: 0, ExitReason: "pass",
		Base: report.Rev{Ref: "main", Sha: strings.Repeat("a", 40)}, Head: report.Rev{Ref: "feature", Sha: strings.Repeat("b", 40)},
		Violations: []report.Violation{}, Messages: []report.Message{}, Pipeline: []report.Pipeline{}, Findings: []report.Finding{},
		Env:    report.Env{GoVersion: "go1.26.8", OS: "linux/amd64", Cores: 2, PeakRSSBytes: 180 << 20},
		Stages: append(schemaStages(), report.Stage{Name: "schemas", Seconds: 0.3}),
		Cut:    report.Cut{BudgetSeconds: 600},
		Change: &report.Change{Measure: "changed", Changed: []string{}, New: []string{}, Removed: []string{}, Unchanged: names, NoSchemaChanged: true},
	}
}

func summaryOf(center float64, n int) *report.Summary {
	return &report.Summary{Center: center, Lo: center * 0.99, Hi: center * 1.01, N: n}
}

func compared(name, unit string, base, head float64, n int) report.Metric {
	delta := (head - base) / base * 100
	var p *float64
	if n > 1 {
		p = f64(0.008)
	}
	return report.Metric{Name: name, Unit: unit, Base: summaryOf(base, n), Head: summaryOf(head, n), DeltaPct: f64(delta), P: p,
		Significant: math.Abs(delta) > 1, Delta: md.ToFixed(delta, 2) + "%", NoiseFloor: f64(1.2)}
}

// measuredMessage is message i with every figure the gate writes, head
// grown by grow (0: the same).
func measuredMessage(i int, grow float64, status string) report.Message {
	var formats []report.Format
	for f, format := range testFormats {
		b := float64(100 + i + f*50)
		var metrics []report.Metric
		for _, op := range []string{"encode", "decode"} {
			ff := float64(f)
			metrics = append(metrics,
				compared(op, "sec/op", 4e-7+ff*1e-7, (4e-7+ff*1e-7)*(1+grow), 10),
				compared(op, "B/op", 200+ff, (200+ff)*(1+grow), 10),
				compared(op, "allocs/op", 3+ff, (3+ff)*(1+grow), 10),
				compared(op, "instr/op", 3000+100*ff+float64(i), (3000+100*ff+float64(i))*(1+grow), 1))
		}
		formats = append(formats, report.Format{Format: format, Size: &report.Size{Base: b, Head: b * (1 + grow), DeltaPct: f64(grow * 100), VsJSON: 1},
			Metrics: metrics, Aliasing: format == "avro"})
	}
	return report.Message{Name: messageName(i), Formats: formats, Status: status}
}

func pipelineRows(i int, grow float64) []report.Pipeline {
	var rows []report.Pipeline
	for _, format := range testFormats {
		rows = append(rows, report.Pipeline{Message: messageName(i), Format: format, Broker: "embedded",
			Base: summaryOf(1e6, 5), Head: summaryOf(1e6/(1+grow), 5), DeltaPct: f64(-grow * 100), P: f64(0.008),
			Significant: grow > 0, NoiseFloor: f64(9.4), Backlog: &report.Backlog{N: 20000, MeanBytes: 250, Format: "json"}})
	}
	return rows
}

func historyOf(i, points int) report.HistoryMessage {
	var commits []report.HistoryCommit
	for c := 0; c < points; c++ {
		hex := strconv.FormatInt(int64(c), 16)
		commits = append(commits, report.HistoryCommit{Sha: strings.Repeat("c", 40-len(hex)) + hex, Ref: "main", Date: "2026-11-23T14:03:01+00:00"})
	}
	commits = append(commits, report.HistoryCommit{Sha: strings.Repeat("b", 40), Head: true})
	line := func(v float64) []*float64 {
		var out []*float64
		for c := 0; c < points; c++ {
			out = append(out, f64(v))
		}
		return append(out, f64(v*1.2))
	}
	var series []report.HistorySeries
	for _, format := range testFormats {
		series = append(series,
			report.HistorySeries{Format: format, Metric: "size", Unit: "B/msg", Values: line(float64(100 + i))},
			report.HistorySeries{Format: format, Metric: "decode", Unit: "allocs/op", Values: line(4)},
			report.HistorySeries{Format: format, Metric: "decode", Unit: "instr/op", Values: line(float64(3000 + i))})
	}
	return report.HistoryMessage{Name: messageName(i), Commits: commits, Series: series}
}

// benchstatText is benchstat's table for these messages: a line per case and unit.
func benchstatText(names []string) string {
	lines := []string{"goos: linux", "goarch: amd64", "pkg: wiregate"}
	for _, unit := range []string{"sec/op", "B/op", "allocs/op", "instr/op"} {
		lines = append(lines, "                                        │    base     │            head            │",
			"                                        │  "+unit+"   │  "+unit+"    vs base       │")
		for _, n := range names {
			for _, op := range []string{"Encode", "Decode"} {
				for _, f := range testFormats {
					lines = append(lines, op+"/"+n+"/"+f+"   10.02k ± 0%   12.47k ± 0%  +24.41% (p=0.008 n=10)")
				}
			}
		}
	}
	return strings.Join(lines, "\n")
}

// changedReport is n messages of which the first changed have a changed
// schema, every one measured (measure: all when the rest are measured
// too), with history of points commits, pipeline rows, violations for
// every fourth changed message and benchstat's text: the biggest comment
// a real run makes.
func changedReport(n, changed int, measureAll bool, points int) *report.Report {
	names := make([]string, n)
	for i := range names {
		names[i] = messageName(i)
	}
	count := changed
	if measureAll {
		count = n
	}
	r := aaReport(0)
	r.Messages, r.Pipeline = nil, nil
	var measuredNames []string
	for i := 0; i < count; i++ {
		grow, status := 0.0, report.StatusUnchanged
		if i < changed {
			grow, status = 0.08, report.StatusChanged
		}
		m := measuredMessage(i, grow, status)
		r.Messages = append(r.Messages, m)
		r.Pipeline = append(r.Pipeline, pipelineRows(i, grow)...)
		measuredNames = append(measuredNames, m.Name)
		if i < changed && i%4 == 0 {
			r.Violations = append(r.Violations, report.Violation{Kind: "size", Subject: m.Name + "/protobuf/size", Detail: "protobuf messages grew by more than the size threshold",
				Unit: "B/msg", Base: f64(100), Head: f64(108), DeltaPct: f64(8), ThresholdPct: f64(5)})
		}
	}
	if len(r.Violations) > 0 {
		r.Result, r.ExitCode, r.ExitReason = "fail", 1, fmt.Sprintf("fail: %d violations", len(r.Violations))
	}
	r.History = &report.History{Branch: "wiregate-data", Points: 20}
	for i := 0; i < changed; i++ {
		r.History.Messages = append(r.History.Messages, historyOf(i, points))
	}
	r.Benchstat = benchstatText(measuredNames)
	r.Env.Rounds, r.Env.Alpha, r.Env.Broker, r.Env.ConsumerCap = 10, 0.05, "embedded", "GOMAXPROCS=1"
	for _, name := range []string{"prepare", "records", "sizes", "cpu", "bench", "compare", "pipeline"} {
		r.Stages = append(r.Stages, report.Stage{Name: name, Seconds: 12.5, Note: "head built in 1.1 s"})
	}
	r.Stages = append(schemaStages(), r.Stages[4:]...)
	measure := "changed"
	if measureAll {
		measure = "all"
	}
	r.Change = &report.Change{Measure: measure, Changed: names[:changed], New: []string{}, Removed: []string{}, Unchanged: names[changed:]}
	return r
}

// profileOf is what a decode that grew by delta instr/op names: a
// function that explains most of it, allocation and a generated method,
// as the gate reports them (largest change first).
func profileOf(delta float64) []report.FunctionCost {
	fn := func(name, kind string, base, grew, extra float64) report.FunctionCost {
		return report.FunctionCost{Name: name, Kind: kind, SelfBase: base, SelfHead: base + grew, SelfDelta: grew,
			InclusiveBase: base + extra, InclusiveHead: base + extra + grew, InclusiveDelta: grew}
	}
	lead := fn("protowire.ConsumeVarint", "function", 120, md.Round(delta*0.55), 0)
	lead.ExplainsMost = true
	return []report.FunctionCost{lead, fn("allocation", "group", 300, md.Round(delta*0.3), 0), fn("v1.(*TelemetryEvent).ProtoReflect", "generated", 40, md.Round(delta*0.1), 12)}
}

// withCPURegressions is r with a cpu violation on the json decode count of
// each of its first k messages, the count grown 6% and the functions the
// gate names for it.
func withCPURegressions(r *report.Report, k int) *report.Report {
	for i := range r.Messages[:k] {
		m := &r.Messages[i]
		metric := metricOf(m.Formats[0], "decode", instrUnit) // json is the first format
		base := metric.Base.Center
		metric.Head.Center = base * 1.06
		metric.DeltaPct, metric.Significant, metric.Functions = f64(6), true, profileOf(base*0.06)
		r.Violations = append(r.Violations, report.Violation{Kind: "cpu", Subject: m.Name + "/json/decode/instr",
			Detail: "decode executes more instructions per operation, by more than the cpu threshold", Unit: "instr/op",
			Base: f64(base), Head: f64(base * 1.06), DeltaPct: f64(6), ThresholdPct: f64(2), NoiseFloor: f64(1)})
	}
	r.Result, r.ExitCode = "fail", 1
	return r
}

// metadataChange is n messages all changed through one shared message
// (the shape of a field added to resource metadata every message embeds),
// with changedReport's violations on every fourth.
func metadataChange(n int) *report.Report {
	r := changedReport(n, n, false, 20)
	r.Change.Groups = []report.Group{{Cause: []string{"org.example.api.v2.Metadata"}, Messages: r.Change.Changed}}
	return r
}

// lintDebt is n lint findings the base already has.
func lintDebt(n int) []report.Finding {
	var out []report.Finding
	for i := 0; i < n; i++ {
		out = append(out, report.Finding{Kind: "lint", File: fmt.Sprintf("proto/api/v2/resource%d.proto", i), Line: 10 + i, Column: 1,
			Rule: "FIELD_LOWER_SNAKE_CASE", Message: fmt.Sprintf(`Field name "fooBar%d" should be lower_snake_case, such as "foo_bar%d".`, i, i), Existing: true})
	}
	return out
}

// errorReport is the report of a run that stopped before it measured.
func errorReport(base, head report.Rev, message string) *report.Report {
	r := report.New()
	r.Base, r.Head = base, head
	r.Violations = []report.Violation{{Kind: report.KindError, Subject: "wiregate", Detail: message}}
	r.Errors = []string{message}
	r.ExitReason = "wiregate could not run: " + message
	return r
}

// commentOf is the comment gate mode posts for r.
func commentOf(t *testing.T, r *report.Report) string {
	return ReportComment(StickyMarker("wiregate", "gate"), reparse(t, r), Context{RunURL: "https://github.com/o/r/actions/runs/9"}, md.Empty)
}

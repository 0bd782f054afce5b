package render

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"

	md "github.com/wiregate/wiregate/harness/parent/render/markdown"
	"github.com/wiregate/wiregate/harness/parent/report"
)

// The fixtures are real `wiregate gate` output (scripts/fixtures.sh), so
// these tests read their expectations off the fixture rather than
// restating numbers a rerun would change.

func mustContain(t *testing.T, text string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(text, w) {
			t.Errorf("no %q in\n%.2000s", w, text)
		}
	}
}

func mustMatch(t *testing.T, text string, patterns ...string) {
	t.Helper()
	for _, p := range patterns {
		if !regexp.MustCompile(p).MatchString(text) {
			t.Errorf("no match for %s in\n%.2000s", p, text)
		}
	}
}

func TestMeasureAllFoldsUnchangedMessagesEachTableWithItsSizes(t *testing.T) {
	r := fixture(t, "all")
	out := Report(r, Context{RunURL: "https://example.test/run/1"})
	if first := strings.Split(out, "\n")[0]; first != "## ✅ wiregate: pass — no schema changed" {
		t.Error(first)
	}
	if len(r.Messages) < 2 {
		t.Fatal("the fixture measures fewer than 2 messages")
	}
	mustContain(t, out, fmt.Sprintf("\n<details><summary>%d messages unchanged (schema identical): measured (measure: all); their exact figures cannot differ and their timings cannot fail the gate</summary>\n", len(r.Messages)))
	for _, m := range r.Messages {
		for _, f := range m.Formats {
			mustMatch(t, out, `\| `+f.Format+`( \(aliasing\))? \| `+regexp.QuoteMeta(md.ToFixed(f.Size.Head, 1))+` \(=\) \|`)
		}
	}
}

// The fail and allowed fixtures were gated with breaking-against:
// latest-tag:v* on a repository whose v2 had a field the base no longer
// has (scripts/fixtures.sh).
func TestFailTheFirstLineGivesTheReasonsEveryViolationHasARow(t *testing.T) {
	r := fixture(t, "fail")
	out := Report(r, Context{})
	var size report.Violation
	for _, v := range r.Violations {
		if v.Kind == "size" {
			size = v
			break
		}
	}
	mustContain(t, strings.Split(out, "\n")[0], fmt.Sprintf("size %s on %s (limit %s)", pct(size.DeltaPct, true).Source(), size.Subject, pct(size.ThresholdPct, false).Source()))
	mustContain(t, out, fmt.Sprintf("%s → %s, %s, limit 5.0%%", measure(*size.Base, "B/msg").Source(), measure(*size.Head, "B/msg").Source(), pct(size.DeltaPct, true).Source()))
	for _, v := range r.Violations {
		kind := v.Kind
		switch {
		case v.Against != "":
			kind = v.Kind + ": breaks release `" + v.Against + "`"
		case v.Kind == "breaking":
			kind = "breaking: breaks the base"
		}
		var element *report.Element
		for i, e := range r.Elements {
			for _, id := range e.Violations {
				if id == v.ID {
					element = &r.Elements[i]
				}
			}
		}
		if element != nil {
			mustContain(t, out, "| ❌ | "+kind+" | `"+element.File+"`<br>", "`"+element.ID+"` |")
		} else {
			mustContain(t, out, "| ❌ | "+kind+" | `"+v.Subject+"`<br>`"+v.ID+"` |")
		}
	}
}

var historyChartShape = regexp.MustCompile("```mermaid\nxychart-beta\n {4}title \"telemetry\\.v1\\.TelemetryEvent ([^:]+): last (\\d+) commits of main, then this PR\"\n {4}x-axis \\[([^\\]]*)\\]\n {4}y-axis \"[^\"]+\" [\\d.]+ --> [\\d.]+\n((?: {4}line \\[[^\\]]*\\]\n)+)```\n<sub>Lines in order — ([^<]*)</sub>")

func TestAChangedMessageChartsItsHistoryThePRLast(t *testing.T) {
	r := fixture(t, "fail")
	var h report.HistoryMessage
	for _, m := range r.History.Messages {
		if m.Name == "telemetry.v1.TelemetryEvent" {
			h = m
		}
	}
	out := Report(r, Context{})
	charts := historyChartShape.FindAllStringSubmatch(out, -1)
	var units []string
	for _, c := range charts {
		units = append(units, c[1])
	}
	if strings.Join(units, ",") != "B/msg,allocs/op,instr/op" {
		t.Fatalf("charts of %v", units)
	}
	for _, c := range charts {
		var series []report.HistorySeries
		for _, s := range h.Series {
			if s.Unit == c[1] {
				series = append(series, s)
			}
		}
		labels := strings.Split(strings.ReplaceAll(c[3], `"`, ""), ", ")
		if labels[len(labels)-1] != "PR" {
			t.Error(labels)
		}
		var main []string
		for _, x := range h.Commits {
			if !x.Head {
				main = append(main, x.Sha[:7])
			}
		}
		if strings.Join(labels[:len(labels)-1], ",") != strings.Join(main, ",") || c[2] != strconv.Itoa(len(labels)-1) {
			t.Errorf("x %v, main %v, %s commits", labels, main, c[2])
		}
		lines := regexp.MustCompile(`line \[([^\]]*)\]`).FindAllStringSubmatch(c[4], -1)
		if len(lines) != len(series) {
			t.Fatalf("%d lines, %d series", len(lines), len(series))
		}
		moved := false
		for i, l := range lines {
			values := strings.Split(l[1], ", ")
			last := *series[i].Values[len(series[i].Values)-1]
			if values[len(values)-1] != md.NumberString(tenth(last)) {
				t.Errorf("the last point %s is not the PR head's %v", values[len(values)-1], last)
			}
			moved = moved || values[len(values)-1] != values[len(values)-2]
		}
		if !moved {
			t.Error("the PR moved none of them")
		}
		mustMatch(t, c[5], `^1\. `+series[0].Format+` `+series[0].Metric+`: `)
	}
}

func TestHistoryNotesAndWarningsAreOneLineEach(t *testing.T) {
	r := fixture(t, "all")
	r.History = &report.History{Branch: "wiregate-data", Points: 20, Note: "no branch wiregate-data on origin yet (a push to the default branch records it)"}
	r.Warnings = []string{`input 'breaking-against' is "latest-tag:v*": no tag matches v* in this clone`}
	out := Report(r, Context{})
	// Text is escaped: v\* shows as v*.
	mustContain(t, out, "\n> ⚠️ input 'breaking-against' is \"latest-tag:v\\*\": no tag matches v\\* in this clone\n",
		"<sub>History (`wiregate-data`): no branch wiregate-data on origin yet (a push to the default branch records it).</sub>")
	r.History = &report.History{Branch: "wiregate-data", Points: 20, Recorded: strings.Repeat("c", 40), Attempts: 2}
	mustContain(t, Report(r, Context{}), "<sub>History: recorded ccccccc on `wiregate-data` (2 attempts: other runs pushed first).</sub>")
}

func TestSkippedMessagesAreListedOneLineEach(t *testing.T) {
	r := fixture(t, "all")
	r.Skipped = []report.Skipped{
		{Message: "vault.v1.Envelope", File: "vault/v1/vault.proto", Reason: "a MessageSet (option message_set_wire_format): legacy", Side: "head"},
		{Message: "vault.v1.Old", File: "vault/v1/old.proto", Reason: "a message with weak field `w`", Side: "base"},
	}
	out := Report(r, Context{})
	mustContain(t, out, "\n#### Not measured (2)\n- `vault.v1.Envelope` in `vault/v1/vault.proto`: a MessageSet (option message_set_wire_format): legacy\n")
	mustMatch(t, out, "\n- `vault.v1.Old` in `vault/v1/old.proto` \\(the base only: [^\n]*\\): a message with weak field \\\\`w\\\\`\n")
}

func TestABacklogTheBudgetOrTheDrainCutSaysEachRowsNOnce(t *testing.T) {
	r := fixture(t, "fail")
	const name = "telemetry.v1.TelemetryEvent"
	// The failing message comes first, then the other changed one.
	other := r.Messages[0].Name
	if r.Messages[1].Name != name {
		t.Fatalf("messages %s, %s", r.Messages[0].Name, r.Messages[1].Name)
	}
	var piped *report.Pipeline
	for i := range r.Pipeline {
		if r.Pipeline[i].Message == name {
			piped = &r.Pipeline[i]
			break
		}
	}
	if piped == nil {
		t.Fatal("the fixture pipes no row of the message")
	}
	j, a := *piped, *piped
	j.Format, a.Format = "json", "avro"
	r.Pipeline = append(r.Pipeline, j, a)
	r.Sort()
	for i := range r.Pipeline {
		p := &r.Pipeline[i]
		if p.Message != name {
			continue
		}
		switch p.Format {
		case "json":
			p.Backlog = &report.Backlog{N: 11036, BudgetBytes: 128 << 20, MeanBytes: 12161, Format: "json"}
		case "protobuf":
			p.Backlog = &report.Backlog{N: 5000, MeanBytes: 300, Format: "protobuf", DrainSeconds: 0.25}
		default:
			p.Backlog = &report.Backlog{N: 20000, MeanBytes: 200, Format: p.Format}
		}
	}
	out := Report(r, Context{})
	note := "<sub>Pipeline backlogs, not the 20,000 records asked for: json N = 11,036 (byte budget 128 MiB / 12,161 B per record); protobuf N = 5,000 (a 250 ms drain).</sub>"
	if strings.Count(out, note) != 1 {
		t.Fatalf("the note %d times", strings.Count(out, note))
	}
	at := strings.Index(out, note)
	if !(strings.Index(out, "### `"+name+"`") < at && at < strings.Index(out, "### `"+other+"`")) {
		t.Error("the note is not in its message's section")
	}
}

func TestAViolationRowFormatsItsNumbersOnceAfterTheProse(t *testing.T) {
	r := errorReport(report.Rev{Ref: "main", Sha: "a"}, report.Rev{Ref: "f", Sha: "b"}, "x")
	r.Errors = nil
	r.Violations = []report.Violation{{Kind: "time", Subject: "a.B/protobuf/decode", Detail: "decode got slower, significantly and by more than the time threshold",
		Unit: "sec/op", Base: f64(4.1e-7), Head: f64(4.7e-7), DeltaPct: f64(14.63), ThresholdPct: f64(10), P: f64(0.0004), BaseN: 10, HeadN: 10}}
	mustContain(t, Report(r, Context{}), "| ❌ | time | `a.B/protobuf/decode` | decode got slower, significantly and by more than the time threshold (410 ns → 470 ns, +14.6%, limit 10.0%, p&lt;0.001, n=10+10) |")
}

func TestAnErrorReportRendersWithTheErrorFirst(t *testing.T) {
	out := Report(errorReport(report.Rev{Ref: "main", Sha: strings.Repeat("a", 40)}, report.Rev{Ref: "f", Sha: strings.Repeat("b", 40)}, "schemas/x.proto:3:7: syntax error"), Context{})
	if first := strings.Split(out, "\n")[0]; first != "## ⛔ wiregate could not run: schemas/x.proto:3:7: syntax error" {
		t.Error(first)
	}
	if strings.Contains(out, "mermaid") {
		t.Error("a chart")
	}
}

func TestAHugeReportStillFitsAComment(t *testing.T) {
	r := fixture(t, "all")
	r.Benchstat = strings.Repeat(strings.Repeat("x", 100)+"\n", 2000)
	out := Report(r, Context{})
	if md.UTF16Len(out) <= CommentLimit {
		t.Fatal("the report is not huge")
	}
	if got := Truncate(out, CommentLimit, md.Empty); md.UTF16Len(got) > CommentLimit {
		t.Errorf("%d characters", md.UTF16Len(got))
	}
}

func TestWhatTheBudgetCutIsSaidOneLineAStage(t *testing.T) {
	r := fixture(t, "all")
	r.Cut = report.Cut{
		BudgetSeconds: 60,
		Bench:         &report.BenchCut{Rounds: 7, Benchtime: "10ms", Untimed: []string{"a.B"}, Note: "to fit 21s: benchtime 300ms → 10ms, rounds 10 → 7, 1 of 3 messages not timed (a.B)"},
		Pipeline:      &report.PipelineCut{Untimed: []string{"a.B/json"}, Note: "to fit the time budget: 1 of 6 rows not timed (a.B/json)"},
		CPU:           &report.CPUCut{Uncounted: []string{"a.B"}, Note: "to fit the time budget: 1 of 2 unchanged-schema messages not counted (their counts cannot differ: same code, same records)"},
	}
	out := Report(reparse(t, r), Context{})
	// In the order the stages run, each list a count with the names folded.
	mustContain(t, out,
		"\n> ⏱ Instruction counts, to fit the time budget: 1 of 2 unchanged-schema messages not counted (their counts cannot differ: same code, same records)\n>\n> ⏱ Bench rounds, to fit 21s: benchtime 300ms → 10ms, rounds 10 → 7, 1 of 3 messages not timed (a.B)\n>\n> ⏱ Pipeline, to fit the time budget: 1 of 6 rows not timed (a.B/json)\n",
		"\n<details><summary>⏱ 1 message whose instructions were not counted</summary>\n\n```text\na.B\n```\n\n</details>\n",
		"<summary>⏱ 1 message not timed</summary>",
		"<summary>⏱ 1 pipeline row not timed</summary>\n\n```text\na.B/json\n```")
}

func TestStageTimingsTotalTheRunsWallTimeElseTheirSum(t *testing.T) {
	r := fixture(t, "fail")
	r.Stages = []report.Stage{{Name: "cpu", Seconds: 171.2, Note: "beside the bench rounds"}, {Name: "bench", Seconds: 120.5}, {Name: "pipeline", Seconds: 167.9}}
	total := func() string {
		return regexp.MustCompile(`\| \*\*total\*\* \| ([\d,.]+) s \|`).FindStringSubmatch(Report(r, Context{}))[1]
	}
	// The counts ran beside the rounds: 171.2 s of the run overlap them.
	if r.Seconds = 346.2; total() != "346.2" {
		t.Error(total())
	}
	// A report without its wall time (written before wiregate ran) adds its stages up.
	if r.Seconds = 0; total() != "459.6" {
		t.Error(total())
	}
}

func TestStoppedEarlyRowsAndTimingsSaySoBesideTheirMDE(t *testing.T) {
	r := fixture(t, "fail")
	row := r.Pipeline[0]
	row.MDE, row.StoppedNoFall = f64(7.5), 4
	r.Pipeline = []report.Pipeline{row}
	out := Report(r, Context{})
	mustContain(t, out, "| `"+row.Message+"/"+row.Format+"/pipeline` | records/s |", "7.5% (stopped after 4 rounds: no fall) |")

	r = fixture(t, "fail")
	for i := range r.Messages {
		if r.Messages[i].Name != "telemetry.v1.TelemetryEvent" {
			continue
		}
		f := &r.Messages[i].Formats[0]
		for j := range f.Metrics {
			if m := &f.Metrics[j]; m.Unit == "sec/op" && m.NoiseFloor != nil {
				m.MDE, m.StoppedNoSlowdown = f64(6.25), 4
				break
			}
		}
	}
	mustContain(t, Report(r, Context{}), "| 6.3% (timed 4 rounds: no slowdown) |")
}

func TestAFormatThePipelineDrainsSaysNotDrainedWithoutARow(t *testing.T) {
	r := fixture(t, "fail")
	const name = "telemetry.v1.TelemetryEvent"
	var piped []string
	for _, m := range r.Messages {
		if m.Name == name {
			for _, f := range m.Formats {
				if f.Piped {
					piped = append(piped, f.Format)
				}
			}
		}
	}
	if strings.Join(piped, ",") != "protobuf" {
		t.Fatalf("the fixture drains the message in %v", piped)
	}
	cell := func(out, format string) string {
		section := out[strings.Index(out, "### `"+name+"`"):]
		for _, l := range strings.Split(section, "\n") {
			if strings.HasPrefix(l, "| "+format+" |") || strings.HasPrefix(l, "| "+format+" (aliasing) |") {
				cells := strings.Split(strings.TrimSuffix(l, " |"), " | ")
				return cells[len(cells)-1]
			}
		}
		return ""
	}
	out := Report(r, Context{})
	if cell(out, "json") != "—" || cell(out, "protobuf") == "—" {
		t.Errorf("json %q, protobuf %q", cell(out, "json"), cell(out, "protobuf"))
	}
	var rows []report.Pipeline
	for _, p := range r.Pipeline {
		if p.Message != name {
			rows = append(rows, p)
		}
	}
	r.Pipeline = rows
	if got := cell(Report(r, Context{}), "protobuf"); got != "not drained" {
		t.Error(got)
	}
}

// A center written as null (benchmath could not compute one) renders as no figure.
func TestANullCenterRendersAsNoFigure(t *testing.T) {
	r := fixture(t, "fail")
	r.Messages[0].Formats[0].Metrics[0].Base = &report.Summary{Center: 0, N: 3}
	b := reparse(t, r)
	// Through JSON as the gate writes a center it could not compute: null.
	b.Messages[0].Formats[0].Metrics[0].Base.Center = math.NaN()
	if out := Report(b, Context{}); len(out) == 0 {
		t.Error("nothing rendered")
	}
}

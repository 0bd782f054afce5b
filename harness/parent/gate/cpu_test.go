package gate_test

import (
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/wiregate/wiregate/harness/parent/gate"
	"github.com/wiregate/wiregate/harness/parent/inputs"
	"github.com/wiregate/wiregate/harness/parent/report"
	"github.com/wiregate/wiregate/harness/program/pin"
)

// What identical counts may move between two processes is bounded by half
// their noise floor (cpucost.NoiseFloorPct, which the report carries):
// every spread measured so far is (cpucost.TestFloorsCoverTheMeasuredSpreads;
// over 10 A/A gates on a loaded machine protobuf and Avro moved by up to
// 0.191%, 4 instr/op of 2,138, JSON by up to 0.519%: docs/results/cpu-gate-aa.txt).
func aaBound(m report.Metric) float64 { return *m.NoiseFloor / 2 }

// counting says whether the gate will count instructions here: true with
// Valgrind installed; false without it only when WIREGATE_SKIP_VALGRIND=1
// (CI installs it, so a test that needs counts cannot silently pass).
func counting(t *testing.T) bool {
	t.Helper()
	t.Setenv("GITHUB_ACTIONS", "") // a test never installs anything
	if _, err := exec.LookPath("valgrind"); err != nil {
		if os.Getenv("WIREGATE_SKIP_VALGRIND") == "1" {
			return false
		}
		t.Fatal("valgrind not installed: apt-get install valgrind (.ci/run does), or set WIREGATE_SKIP_VALGRIND=1")
	}
	return true
}

func requireValgrind(t *testing.T) {
	t.Helper()
	if !counting(t) {
		t.Skip("valgrind not installed and WIREGATE_SKIP_VALGRIND=1")
	}
}

// instrs is every instr/op metric of a report: message/format/op → metric.
func instrs(r *report.Report) map[string]report.Metric {
	out := map[string]report.Metric{}
	for _, m := range r.Messages {
		for _, f := range m.Formats {
			for _, met := range f.Metrics {
				if met.Unit == "instr/op" {
					out[m.Name+"/"+f.Format+"/"+met.Name] = met
				}
			}
		}
	}
	return out
}

// benchLines are the result lines of a benchfmt file in unit.
func benchLines(b []byte, unit string) []string {
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "Benchmark") && strings.Contains(l, " "+unit) {
			out = append(out, l)
		}
	}
	return out
}

func pctOff(a, b float64) float64 { return 100 * math.Abs(b-a) / a }

// A/A through the whole gate, twice: each gate counts base and head in
// their own processes, and two gates count again, the first beside the
// bench rounds (where this machine can pin them apart), the second before
// them. Every metric of every count agrees within the documented bounds;
// nothing is a cpu violation; the counts are in base.txt and head.txt next
// to the timings the bench stage appended, and in benchstat's table.
func TestCPUAAGatesCountTheSame(t *testing.T) {
	requireValgrind(t)
	base, head := checkouts(t)
	var outs []string
	keep := func(in map[string]string, o *gate.Options) { in["measure"] = "all"; outs = append(outs, o.Out) }
	first := run(t, base, head, keep)
	second := run(t, base, head, func(in map[string]string, o *gate.Options) { keep(in, o); in["counts-beside"] = "false" })
	beside := len(pin.Others()) > 0
	for i, r := range []*report.Report{first, second} {
		var names []string
		for _, st := range r.Stages {
			names = append(names, st.Name)
		}
		// Beside, the counts end after the rounds: a journal kept in the
		// order stages end would list bench first.
		note := stageNote(r, "cpu")
		if strings.Contains(note, "beside the bench rounds") != (i == 0 && beside) || slices.Index(names, "cpu") > slices.Index(names, "bench") {
			t.Errorf("gate %d (beside: %t): stages %v, cpu note %q", i+1, i == 0 && beside, names, note)
		}
	}
	a, b := instrs(first), instrs(second)
	if len(a) != 6 || len(b) != 6 {
		t.Fatalf("instr/op metrics: %d and %d, want 6 (3 formats × encode, decode)", len(a), len(b))
	}
	for s, m := range a {
		if m.Base == nil || m.Head == nil || m.Base.Center < 500 || m.NoiseFloor == nil || m.P != nil {
			t.Fatalf("%s: %+v", s, m)
		}
		for what, pair := range map[string][2]float64{
			"base vs head":           {m.Base.Center, m.Head.Center},
			"first vs second gate":   {m.Head.Center, b[s].Head.Center},
			"first base vs 2nd head": {m.Base.Center, b[s].Head.Center},
		} {
			if d := pctOff(pair[0], pair[1]); d > aaBound(m) {
				t.Errorf("%s, %s: %.1f vs %.1f instr/op (%.3f%%, bound %.2f%%)", s, what, pair[0], pair[1], d, aaBound(m))
			}
		}
	}
	for _, r := range []*report.Report{first, second} {
		if r.Result != "pass" || len(r.Violations) != 0 || r.CPUCost == nil || !strings.HasPrefix(r.CPUCost.Tool, "callgrind") {
			t.Fatalf("A/A: %s %+v, cpu %+v", r.Result, r.Violations, r.CPUCost)
		}
		if !r.Messages[0].UnchangedSchema {
			t.Error("identical sides: the message is not marked unchanged")
		}
		if !strings.Contains(r.Benchstat, "instr/op") || !strings.Contains(r.Benchstat, "sec/op") {
			t.Errorf("benchstat lacks a unit:\n%s", r.Benchstat)
		}
	}
	in, _ := inputs.Lookup("cpu-processes")
	processes, _ := strconv.Atoi(in.Default)
	for _, out := range outs {
		for _, side := range []string{"base.txt", "head.txt"} {
			b, _ := os.ReadFile(filepath.Join(out, side))
			if len(benchLines(b, "instr/op")) != processes*6 || len(benchLines(b, "ns/op")) != 12 {
				t.Errorf("%s: want %d processes × 6 instr/op lines and 2 rounds × 6 ns/op lines:\n%s", side, processes, b)
			}
		}
	}
}

// A JSON-only change: a renamed field keeps every protobuf and Avro byte
// (records are keyed by field number, Avro by position), so their counts
// stay within the A/A bound; JSON decode matches every key by name, and a
// longer key costs it more than its noise floor. The message is changed,
// so it is not marked unchanged.
func TestJSONOnlyRenameMovesOnlyJSON(t *testing.T) {
	requireValgrind(t)
	base, head := checkouts(t)
	// Still a region (the records' values follow the name's shape).
	replaceIn(t, filepath.Join(head, telemetryProto), "string region = 12;", "string configured_deployment_zone_of_the_fleet_region = 12;")
	r := run(t, base, head, func(in map[string]string, o *gate.Options) {
		in["avro-schemas"] = "no-such-dir/*.avsc" // derived from the proto on both sides: it follows the rename
	})
	if r.Messages[0].UnchangedSchema {
		t.Fatal("a renamed field left the message marked unchanged")
	}
	ms := instrs(r)
	if len(ms) != 6 {
		t.Fatalf("instr/op metrics %v", ms)
	}
	for s, m := range ms {
		d := 100 * (m.Head.Center/m.Base.Center - 1)
		t.Logf("%s: %.1f → %.1f instr/op (%+.3f%%)", s, m.Base.Center, m.Head.Center, d)
		switch {
		case strings.Contains(s, "/json/"):
			if strings.HasSuffix(s, "/decode") && (d <= *m.NoiseFloor || !m.Significant) {
				t.Errorf("%s: a longer JSON key moved decode by %+.3f%%, want more than its floor %.2f%%", s, d, *m.NoiseFloor)
			}
		case math.Abs(d) > aaBound(m):
			t.Errorf("%s: a JSON-only rename moved %+.3f%% (bound %.2f%%)", s, d, aaBound(m))
		}
	}
	for _, v := range r.Violations {
		if v.Kind == "cpu" && !strings.Contains(v.Subject, "/json/") {
			t.Errorf("cpu violation on a format the rename does not touch: %+v", v)
		}
	}
}

// pathWithout is PATH with each directory replaced by one of links to its
// entries, leaving out the named tools: the machine as if they were not
// installed.
func pathWithout(t *testing.T, tools ...string) string {
	t.Helper()
	var dirs []string
	for i, d := range filepath.SplitList(os.Getenv("PATH")) {
		entries, err := os.ReadDir(d)
		if err != nil {
			continue
		}
		shadow := filepath.Join(t.TempDir(), fmt.Sprint(i))
		os.MkdirAll(shadow, 0o755)
		for _, e := range entries {
			if !slices.Contains(tools, e.Name()) {
				os.Symlink(filepath.Join(d, e.Name()), filepath.Join(shadow, e.Name()))
			}
		}
		dirs = append(dirs, shadow)
	}
	return strings.Join(dirs, string(os.PathListSeparator))
}

// timeOnly checks a report that did not count: it passes on time and size
// alone, says why in one line (report and stage note), and has no
// instruction metrics.
func timeOnly(t *testing.T, r *report.Report, why string) {
	t.Helper()
	if r.Result != "pass" || len(r.Violations) != 0 {
		t.Fatalf("%s: %s %+v", why, r.Result, r.Violations)
	}
	if r.CPUCost == nil || !strings.Contains(r.CPUCost.Unavailable, why) || !strings.Contains(r.CPUCost.Unavailable, "time only") ||
		strings.Contains(r.CPUCost.Unavailable, "\n") || r.CPUCost.Tool != "" {
		t.Fatalf("cpu cost %+v, want the reason %q", r.CPUCost, why)
	}
	for _, st := range r.Stages {
		if st.Name == "cpu" && (st.Note != r.CPUCost.Unavailable || st.Error != "") {
			t.Errorf("cpu stage %+v", st)
		}
	}
	if ms := instrs(r); len(ms) != 0 {
		t.Errorf("instr/op metrics without counting: %v", ms)
	}
	if m := r.Messages[0].Formats[0].Metrics; len(m) == 0 || m[0].Unit != "sec/op" {
		t.Errorf("no timings: %+v", m)
	}
}

// cpu-cost off, and auto without Valgrind on a developer's machine: the
// gate goes on with time only and says why; cpu-cost on without Valgrind
// stops it (exit 2) with one line naming the input.
func TestWithoutCountsTheGateSaysWhy(t *testing.T) {
	base, head := checkouts(t)
	t.Setenv("GITHUB_ACTIONS", "")
	all := func(in map[string]string, o *gate.Options) { in["measure"] = "all" }
	timeOnly(t, run(t, base, head, func(in map[string]string, o *gate.Options) { in["cpu-cost"], in["measure"] = "off", "all" }), "cpu-cost is off")

	t.Setenv("PATH", pathWithout(t, "valgrind"))
	if _, err := exec.LookPath("valgrind"); err == nil {
		t.Fatal("valgrind still on PATH")
	}
	timeOnly(t, run(t, base, head, all), "install valgrind to count instructions")

	on := run(t, base, head, func(in map[string]string, o *gate.Options) { in["cpu-cost"], in["measure"] = "on", "all" })
	if on.ExitCode != 2 || len(on.Errors) != 1 || !strings.HasPrefix(on.Errors[0], "cpu: cpu-cost is on, but valgrind is not installed") {
		t.Fatalf("cpu-cost on without valgrind: exit %d, errors %q", on.ExitCode, on.Errors)
	}
	if k := kinds(on); k["error"] != 1 || on.Violations[0].Subject != "cpu" {
		t.Fatalf("violations %+v", on.Violations)
	}
}

// Valgrind itself failing (a crash at start-up with its multi-line
// advice, or killed) is one error line in the report naming the stage and
// the side; the gate still measures the rest and exits 2.
func TestValgrindFailingIsOneErrorLine(t *testing.T) {
	base, head := checkouts(t)
	t.Setenv("GITHUB_ACTIONS", "")
	path := os.Getenv("PATH")
	for name, c := range map[string]struct{ script, says string }{
		"missing symbols": {`echo "valgrind:  Fatal error at startup: a function redirection" >&2
echo "valgrind:  which is mandatory for this platform-tool combination" >&2
echo "valgrind:  cannot be set up.  Details of the redirection are:" >&2
exit 1`, "valgrind exited with 1: valgrind: Fatal error at startup: a function redirection which is mandatory"},
		"killed": {`kill -9 $$`, "valgrind was killed by signal 9"},
	} {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, "valgrind"), []byte("#!/bin/sh\n"+c.script+"\n"), 0o755)
		t.Setenv("PATH", dir+string(os.PathListSeparator)+path)
		r := run(t, base, head, func(in map[string]string, o *gate.Options) { in["measure"] = "all" })
		if r.ExitCode != 2 || len(r.Errors) != 1 || strings.Contains(r.Errors[0], "\n") ||
			!(strings.HasPrefix(r.Errors[0], "cpu: base: instruction count: ") || strings.HasPrefix(r.Errors[0], "cpu: head: instruction count: ")) ||
			!strings.Contains(r.Errors[0], c.says) { // a message's base and head processes start together: either fails first
			t.Errorf("%s: exit %d, errors %q", name, r.ExitCode, r.Errors)
		}
		if len(instrs(r)) != 0 || len(r.Messages[0].Formats[0].Metrics) == 0 {
			t.Errorf("%s: instr metrics %v; the timings still run: %+v", name, instrs(r), r.Messages[0].Formats[0].Metrics)
		}
	}
}

// addRSSI adds one int32 field to telemetry.v1.TelemetryEvent in head,
// in the .proto and the .avsc: the smallest change the cpu check was
// measured to catch.
func addRSSI(t *testing.T, head string) {
	t.Helper()
	replaceIn(t, filepath.Join(head, telemetryProto), "string region = 12;", "string region = 12;\n  int32 rssi = 13;")
	replaceIn(t, filepath.Join(head, "schemas/telemetry/v1/telemetry_event.avsc"),
		`{"name": "region", "type": "string"}`, `{"name": "region", "type": "string"},
    {"name": "rssi", "type": "int", "default": 0}`)
}

// With measure: all, an unchanged message next to a changed one is
// measured for information: the report marks it, and nothing about it
// fails the gate; the changed one (one int32 field added) is an addition:
// its cost is stated, counted where Valgrind is, and fails nothing at the
// defaults. An .avsc-only change is a change too.
func TestUnchangedMessageNextToAChangedOne(t *testing.T) {
	counts := counting(t)
	base, head := checkouts(t)
	addRSSI(t, head)
	r := run(t, base, head, func(in map[string]string, o *gate.Options) {
		in["measure"] = "all"
		in["messages"], in["count"], in["unchanged-rounds"] = "telemetry.v1.TelemetryEvent,orders.v1.Order", "4", "2"
		in["pipeline"], in["broker"], in["pipeline-messages"] = "true", "embedded", "2000"
	})
	marked := map[string]bool{}
	for _, m := range r.Messages {
		marked[m.Name] = m.UnchangedSchema
	}
	if !marked["orders.v1.Order"] || marked["telemetry.v1.TelemetryEvent"] || len(marked) != 2 {
		t.Fatalf("unchanged: %v", marked)
	}
	// The unchanged message is timed 2 rounds, for information; the changed
	// one the 4 asked for, in the bench and in the pipeline.
	rounds := map[bool]int{true: 2, false: 4}
	for _, m := range r.Messages {
		for _, f := range m.Formats {
			for _, x := range f.Metrics {
				if x.Unit == "sec/op" && (x.Base == nil || x.Base.N != rounds[m.UnchangedSchema] || x.Head.N != rounds[m.UnchangedSchema]) {
					t.Errorf("%s/%s/%s sec/op: base %+v head %+v, want %d rounds", m.Name, f.Format, x.Name, x.Base, x.Head, rounds[m.UnchangedSchema])
				}
			}
		}
	}
	if len(r.Pipeline) != 2 { // each message in protobuf (pipeline-formats auto)
		t.Fatalf("pipeline rows %+v (errors %v)", r.Pipeline, r.Errors)
	}
	for _, p := range r.Pipeline {
		if want := rounds[marked[p.Message]]; p.Base == nil || p.Base.N != want || p.Head.N != want {
			t.Errorf("pipeline %s/%s: base %+v head %+v, want %d rounds", p.Message, p.Format, p.Base, p.Head, want)
		}
	}
	if len(r.Violations) != 0 {
		t.Errorf("violations %+v: the unchanged message cannot fail, the addition fails nothing at the defaults", r.Violations)
	}
	for _, m := range r.Messages {
		if (m.AddedContent != nil) != (m.Name == "telemetry.v1.TelemetryEvent") {
			t.Errorf("%s: added content %+v", m.Name, m.AddedContent)
		}
		if m.Name == "telemetry.v1.TelemetryEvent" && counts && addedFigure(m, "protobuf", report.AddedDecode) == nil {
			t.Errorf("the addition's protobuf decode is not counted: %+v", m.AddedContent)
		}
	}

	base, head = checkouts(t)
	replaceIn(t, filepath.Join(head, "schemas/telemetry/v1/telemetry_event.avsc"), `"doc": "One reading`, `"doc": "A single reading`)
	r = run(t, base, head, func(in map[string]string, o *gate.Options) { in["formats"], in["cpu-cost"] = "avro", "off" })
	if r.Messages[0].UnchangedSchema {
		t.Error("an .avsc edit left the message marked unchanged")
	}
}

// With the budget spent before the counts, nothing is counted (the
// budget is a promise), the plan names every message it did not count, and
// the exact sizes are still measured.
func TestOutOfBudgetCountsNothingAndSaysSo(t *testing.T) {
	requireValgrind(t)
	base, head := checkouts(t)
	addRSSI(t, head)
	r := run(t, base, head, func(in map[string]string, o *gate.Options) {
		in["messages"], in["time-budget"], in["formats"], in["measure"] = "telemetry.v1.TelemetryEvent,orders.v1.Order,pingpong.v1.PingPong", "1m", "protobuf", "all"
		o.StagesBefore = []report.Stage{{Name: "cache restore", Seconds: 60}} // the budget is spent
	})
	if len(r.Errors) != 0 {
		t.Fatalf("errors %v", r.Errors)
	}
	if n := len(instrs(r)); n != 0 {
		t.Errorf("%d instr/op metrics with no budget left", n)
	}
	p := r.Cut.CPU
	if p == nil || !slices.Equal(p.Uncounted, []string{"telemetry.v1.TelemetryEvent", "orders.v1.Order", "pingpong.v1.PingPong"}) || !strings.Contains(p.Note, "3 messages not counted") {
		t.Fatalf("cpu plan %+v", p)
	}
	for _, m := range r.Messages {
		if fig := addedFigure(m, "protobuf", report.AddedSize); m.Name == "telemetry.v1.TelemetryEvent" && (m.Formats[0].Size == nil || fig == nil || fig.With <= fig.Without) {
			t.Fatalf("telemetry's size %+v, its added content %+v", m.Formats[0].Size, fig)
		}
	}
}

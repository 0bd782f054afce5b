package gate_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/wiregate/wiregate/harness/parent/gate"
	"github.com/wiregate/wiregate/harness/parent/inputs"
	"github.com/wiregate/wiregate/harness/parent/report"
)

// checkouts makes a base and a head copy of the repo's schemas; change
// edits head (and base, for wiregate.yaml) before the run.
func checkouts(t *testing.T) (base, head string) {
	t.Helper()
	root := t.TempDir()
	for _, d := range []string{"base", "head"} {
		dir := filepath.Join(root, d)
		os.MkdirAll(dir, 0o755)
		if out, err := exec.Command("cp", "-r", "../../../schemas", "../../../buf.yaml", dir).CombinedOutput(); err != nil {
			t.Fatalf("%v %s", err, out)
		}
	}
	return filepath.Join(root, "base"), filepath.Join(root, "head")
}

func replaceIn(t *testing.T, file, old, new string) {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil || !strings.Contains(string(b), old) {
		t.Fatalf("%s: no %q (%v)", file, old, err)
	}
	os.WriteFile(file, []byte(strings.Replace(string(b), old, new, 1)), 0o644)
}

// run gates head against base with the inputs a test needs: one message,
// two rounds of 5ms, no pipeline, unless edit says otherwise.
// labeled gives the run these labels, each applied by a maintainer with
// write permission: a label counts only when its applier may approve.
func labeled(o *gate.Options, labels ...string) {
	o.Labels = labels
	o.Approvals = &report.Approvals{Authors: []report.Author{{Login: "maintainer", Permission: "write"}}, PRAuthor: "author"}
	for _, l := range labels {
		o.Approvals.Labeled = append(o.Approvals.Labeled, report.Labeled{Label: l, By: "maintainer"})
	}
}

func run(t *testing.T, base, head string, edit func(in map[string]string, o *gate.Options)) *report.Report {
	t.Helper()
	if testing.Short() {
		t.Skip("runs the whole gate")
	}
	in := map[string]string{"working-directory": head, "messages": "telemetry.v1.TelemetryEvent",
		"count": "2", "benchtime": "5ms", "pipeline": "false"}
	o := gate.Options{HarnessDir: "../..", BaseDir: base, Out: t.TempDir()}
	if edit != nil {
		edit(in, &o)
	}
	o.Inputs = inputs.Map(in)
	r, err := gate.Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(o.Out, "report.json"))
	if err != nil {
		t.Fatal("no report.json written")
	}
	if err := report.Validate(b); err != nil {
		t.Fatalf("report.json breaks its contract: %v", err)
	}
	return r
}

func kinds(r *report.Report) map[string]int {
	k := map[string]int{}
	for _, v := range r.Violations {
		k[v.Kind]++
	}
	return k
}

const telemetryProto = "schemas/telemetry/v1/telemetry_event.proto"

// costMore makes telemetry's same content cost more in head, adding
// nothing: sequence_num and timestamp become sfixed64 (8 bytes each
// instead of a varint: protobuf bytes/msg +7%) and status gains explicit
// presence (its .avsc a ["null", "string"] union: a pointer to allocate
// on every decode, more instructions). What a pull request makes worse,
// not what it adds; buf breaking reports the type changes.
func costMore(t *testing.T, head string) {
	t.Helper()
	proto := filepath.Join(head, telemetryProto)
	replaceIn(t, proto, "int64 sequence_num = 11;", "sfixed64 sequence_num = 11;")
	replaceIn(t, proto, "int64 timestamp = 2;", "sfixed64 timestamp = 2;")
	replaceIn(t, proto, "string status = 10;", "optional string status = 10;")
	replaceIn(t, filepath.Join(head, "schemas/telemetry/v1/telemetry_event.avsc"),
		`{"name": "status", "type": "string"}`, `{"name": "status", "type": ["null", "string"], "default": null}`)
}

// A pull request that changes no schema runs the schema checks and stops:
// nothing is built, sized, counted, timed or drained, and the report says
// so. What runs after buf breaking is loading both sides' schemas (buf
// build) to find that out.
func TestNoSchemaChangedStopsAfterTheSchemaChecks(t *testing.T) {
	base, head := checkouts(t)
	replaceIn(t, filepath.Join(head, telemetryProto), "// Degrees Celsius.", "// Degrees Celsius, as the device reports them.")
	r := run(t, base, head, func(in map[string]string, o *gate.Options) { in["messages"], in["pipeline"] = "", "true" })
	if r.Result != "pass" || len(r.Violations) != 0 || len(r.Errors) != 0 || r.ExitCode != 0 {
		t.Fatalf("no schema changed: %s %+v %v", r.Result, r.Violations, r.Errors)
	}
	c := r.Change
	if c == nil || !c.NoSchemaChanged || len(c.Changed)+len(c.New)+len(c.Removed) != 0 || len(c.Unchanged) != 3 || c.Measure != "changed" {
		t.Fatalf("change %+v", c)
	}
	if len(r.Messages) != 0 || len(r.Pipeline) != 0 || r.CPUCost != nil {
		t.Fatalf("measured %d messages, %d pipeline rows, cpu %+v", len(r.Messages), len(r.Pipeline), r.CPUCost)
	}
	after, seconds := false, 0.0
	for _, st := range r.Stages {
		switch st.Name {
		case "prepare", "records", "sizes", "cpu", "bench", "compare", "pipeline":
			t.Errorf("stage %s ran", st.Name)
		}
		if after {
			seconds += st.Seconds
		}
		after = after || st.Name == "buf breaking"
	}
	t.Logf("after buf breaking: %.2f s", seconds)
	if seconds > 2 {
		t.Errorf("%.2f s after buf breaking to find that nothing changed", seconds)
	}
}

// measure: all measures identical sides as today: every figure, equal.
func TestIdenticalSidesPassWithMeasureAll(t *testing.T) {
	base, head := checkouts(t)
	r := run(t, base, head, func(in map[string]string, o *gate.Options) { in["measure"] = "all" })
	if r.Result != "pass" || len(r.Violations) != 0 || len(r.Errors) != 0 {
		t.Fatalf("A/A run: %s %+v %v", r.Result, r.Violations, r.Errors)
	}
	if len(r.Messages) != 1 || len(r.Messages[0].Formats) != 3 || r.Messages[0].Status != "unchanged" {
		t.Fatalf("messages %+v", r.Messages)
	}
	for _, f := range r.Messages[0].Formats {
		if f.Size == nil || *f.Size.DeltaPct != 0 || len(f.Metrics) == 0 {
			t.Errorf("%s: size %+v, %d metrics", f.Format, f.Size, len(f.Metrics))
		}
	}
	if !strings.Contains(r.Benchstat, "Decode/telemetry.v1.TelemetryEvent/protobuf") {
		t.Error("no benchstat table in the report")
	}
}

// One message of three changed: only its cases are built, sized, counted
// and timed (base.txt and head.txt hold nothing else); the other two are
// listed as unchanged.
func TestOnlyTheChangedMessageIsMeasured(t *testing.T) {
	base, head := checkouts(t)
	addRSSI(t, head)
	var out string
	r := run(t, base, head, func(in map[string]string, o *gate.Options) { in["messages"], out = "", o.Out })
	if len(r.Errors) != 0 {
		t.Fatalf("errors %v", r.Errors)
	}
	c := r.Change
	if c == nil || c.NoSchemaChanged || strings.Join(c.Changed, ",") != "telemetry.v1.TelemetryEvent" ||
		strings.Join(c.Unchanged, ",") != "orders.v1.Order,pingpong.v1.PingPong" {
		t.Fatalf("change %+v", c)
	}
	if len(r.Messages) != 1 || r.Messages[0].Name != "telemetry.v1.TelemetryEvent" || r.Messages[0].Status != "changed" {
		t.Fatalf("messages %+v", r.Messages)
	}
	runs := map[string]map[string]int{} // benchmark → N → timed lines
	for _, side := range []string{"base.txt", "head.txt"} {
		b, err := os.ReadFile(filepath.Join(out, side))
		if err != nil {
			t.Fatal(err)
		}
		lines := benchLines(b, "ns/op")
		if len(lines) == 0 {
			t.Fatalf("%s has no timings", side)
		}
		for _, l := range append(lines, benchLines(b, "instr/op")...) {
			if !strings.Contains(l, "/telemetry.v1.TelemetryEvent/") {
				t.Errorf("%s: %s", side, l)
			}
		}
		// Every timed round ran each benchmark the operations its warm-up
		// speeds gave the benchtime, the same on both sides (the same
		// records): one N every round and side, where testing's own
		// calibration would pick one a run.
		for _, l := range lines {
			f := strings.Fields(l)
			if runs[f[0]] == nil {
				runs[f[0]] = map[string]int{}
			}
			runs[f[0]][f[1]]++
		}
	}
	for name, ns := range runs {
		for _, lines := range ns {
			if len(ns) != 1 || lines < 4 { // count 2: two rounds a side
				t.Errorf("%s ran %v operations (N: timed lines over both sides), want one N in every round of each side", name, ns)
			}
		}
	}
}

// A lint finding the base already has is existing debt: listed, marked,
// not failing; one the pull request adds fails. lint-findings: all fails
// on both.
func TestOnlyNewLintFindingsFail(t *testing.T) {
	base, head := checkouts(t)
	for _, dir := range []string{base, head} {
		replaceIn(t, filepath.Join(dir, telemetryProto), "string region = 12;", "string region = 12;\n  string zoneName = 13;")
	}
	r := run(t, base, head, func(in map[string]string, o *gate.Options) { in["formats"] = "protobuf" })
	existing := 0
	for _, f := range r.Findings {
		if f.Kind == "lint" && f.Existing {
			existing++
		}
	}
	if existing != 1 || kinds(r)["lint"] != 0 || r.Result != "pass" {
		t.Fatalf("debt only: %d existing, violations %+v", existing, r.Violations)
	}
	replaceIn(t, filepath.Join(head, telemetryProto), "string zoneName = 13;", "string zoneName = 13;\n  string rackName = 14;")
	r = run(t, base, head, func(in map[string]string, o *gate.Options) { in["formats"] = "protobuf" })
	if k := kinds(r); k["lint"] != 1 || !strings.Contains(r.Violations[0].Detail+fmt.Sprint(r.Violations), "rackName") {
		t.Fatalf("the new finding: %+v", r.Violations)
	}
	r = run(t, base, head, func(in map[string]string, o *gate.Options) { in["formats"], in["lint-findings"] = "protobuf", "all" })
	if k := kinds(r); k["lint"] != 2 {
		t.Fatalf("lint-findings all: %+v", r.Violations)
	}
}

// What makes the same content cost more fails on its exact figures:
// bytes/message (size), every count past the cpu threshold and its floor
// (cpu), and every decode's allocations (time: exact, one count a side, so
// they fail at any count of rounds); the regression label allows all of
// them, and the schema findings are breaking's, not these.
func TestASameContentRegressionIsASizeCPUAndAllocsViolationUnlessAllowed(t *testing.T) {
	counts := counting(t)
	base, head := checkouts(t)
	costMore(t, head)
	r := run(t, base, head, func(in map[string]string, o *gate.Options) { in["breaking"] = "false" })
	k := kinds(r)
	if k["size"] != 1 || k["time"] != 3 || counts && k["cpu"] < 2 || r.Result != "fail" || k["avro"]+k["error"]+k["added-content"] != 0 {
		t.Fatalf("result %s, violations %+v, errors %v", r.Result, r.Violations, r.Errors)
	}
	for _, v := range r.Violations {
		if v.DeltaPct != nil {
			t.Logf("%s %s %+.1f%%", v.Kind, v.Subject, *v.DeltaPct)
		}
		if v.DeltaPct == nil || *v.DeltaPct <= *v.ThresholdPct || !strings.HasPrefix(v.Subject, "telemetry.v1.TelemetryEvent/") ||
			v.Base == nil || v.Head == nil || *v.Head <= *v.Base {
			t.Errorf("violation %+v", v)
		}
		if v.Kind == "cpu" && (v.Unit != "instr/op" || !strings.HasSuffix(v.Subject, "/instr") || *v.ThresholdPct != 2) {
			t.Errorf("cpu violation %+v", v)
		}
		if v.Kind == "time" && (v.Unit != "allocs/op" || !strings.HasSuffix(v.Subject, "/decode/allocs") || v.P != nil || v.BaseN != 0) {
			t.Errorf("allocation violation %+v, want an exact decode allocs/op", v)
		}
	}
	allowed := run(t, base, head, func(in map[string]string, o *gate.Options) {
		in["breaking"] = "false"
		labeled(o, "wiregate allow regression")
	})
	if allowed.Result != "pass" || len(allowed.Violations) != len(r.Violations) {
		t.Fatalf("allow regression: %s %+v", allowed.Result, allowed.Violations)
	}
	for _, v := range allowed.Violations {
		if !v.Allowed {
			t.Errorf("not allowed: %+v", v)
		}
	}
}

func TestBaseWiregateYamlRaisesTheSizeAndCPUThresholds(t *testing.T) {
	counts := counting(t)
	base, head := checkouts(t)
	costMore(t, head)
	// time covers allocations: explicit presence is one more on decode (4 → 5).
	loose := []byte("thresholds:\n  size: 50%\n  compressed-size: 50%\n  cpu: 50%\n  time: 50%\n")
	os.WriteFile(filepath.Join(base, "wiregate.yaml"), loose, 0o644)
	r := run(t, base, head, func(in map[string]string, o *gate.Options) { in["formats"], in["breaking"] = "protobuf", "false" })
	if r.Result != "pass" || len(r.Violations) != 0 {
		t.Fatalf("with size, compressed-size, cpu, time: 50%% in base wiregate.yaml: %s %+v", r.Result, r.Violations)
	}
	// The same file in head only is not trusted.
	os.Remove(filepath.Join(base, "wiregate.yaml"))
	os.WriteFile(filepath.Join(head, "wiregate.yaml"), loose, 0o644)
	r = run(t, base, head, func(in map[string]string, o *gate.Options) { in["formats"], in["breaking"] = "protobuf", "false" })
	if k := kinds(r); k["size"] != 1 || counts && k["cpu"] != 1 || k["time"] != 1 {
		t.Fatalf("a head-only wiregate.yaml loosened the gate: %+v", r.Violations)
	}
}

func TestAvroFieldWithoutDefaultBreaksBackward(t *testing.T) {
	base, head := checkouts(t)
	replaceIn(t, filepath.Join(head, "schemas/telemetry/v1/telemetry_event.avsc"),
		`{"name": "region", "type": "string"}`, `{"name": "region", "type": "string"},
    {"name": "site", "type": "string"}`)
	r := run(t, base, head, func(in map[string]string, o *gate.Options) { in["formats"] = "protobuf" })
	k := kinds(r)
	if k["avro"] != 1 || r.Result != "fail" {
		t.Fatalf("violations %+v", r.Violations)
	}
	for _, v := range r.Violations {
		if v.Kind == "avro" && (!strings.Contains(v.Detail, "site") || !strings.Contains(v.Subject, "telemetry_event.avsc")) {
			t.Errorf("avro violation does not name file and field: %+v", v)
		}
	}
}

func TestBrokenHeadSchemaIsAnErrorWithTheReportWritten(t *testing.T) {
	base, head := checkouts(t)
	replaceIn(t, filepath.Join(head, telemetryProto), "int64 timestamp = 2;", "int64 timestamp = ;")
	r := run(t, base, head, nil)
	if kinds(r)["error"] == 0 || r.Result != "fail" || len(r.Errors) == 0 {
		t.Fatalf("result %s violations %+v", r.Result, r.Violations)
	}
	if !strings.Contains(r.Errors[0], "telemetry_event.proto:") {
		t.Errorf("error does not name the file: %v", r.Errors)
	}
}

func TestBadWiregateYamlStopsBeforeMeasuring(t *testing.T) {
	base, head := checkouts(t)
	os.WriteFile(filepath.Join(base, "wiregate.yaml"), []byte("thresholds:\n  size: lots\n"), 0o644)
	r := run(t, base, head, nil)
	if kinds(r)["error"] == 0 || len(r.Messages) != 0 || !strings.Contains(strings.Join(r.Errors, " "), "wiregate.yaml") {
		t.Fatalf("errors %v, messages %d", r.Errors, len(r.Messages))
	}
}

// broker auto takes Redpanda where Docker answers (GitHub's runners) and
// falls back to the embedded broker elsewhere; either way the report says
// which and why, and the pipeline rows carry both sides' records/s
// samples from that broker.
func TestPipelineStageWithAutoBroker(t *testing.T) {
	base, head := checkouts(t)
	addRSSI(t, head)
	r := run(t, base, head, func(in map[string]string, o *gate.Options) {
		in["formats"], in["pipeline"], in["pipeline-messages"], in["broker"], in["count"] = "protobuf,json", "true", "5000", "auto", "3"
	})
	// pipeline-formats auto: each message drains in the format it travels
	// in, protobuf for a proto message; the report marks that format.
	if len(r.Errors) != 0 || len(r.Pipeline) != 1 || r.Pipeline[0].Format != "protobuf" {
		t.Fatalf("errors %v, pipeline %+v", r.Errors, r.Pipeline)
	}
	for _, m := range r.Messages {
		for _, f := range m.Formats {
			if f.Piped != (f.Format == "protobuf") {
				t.Errorf("%s/%s marked piped %v", m.Name, f.Format, f.Piped)
			}
		}
	}
	if r.Coverage == nil || r.Coverage.Piped != 1 {
		t.Errorf("coverage %+v: the message drained in protobuf is not piped", r.Coverage)
	}
	t.Logf("broker %s: %s", r.Env.Broker, r.Env.BrokerReason)
	switch r.Env.Broker {
	case "embedded":
		if !strings.Contains(r.Env.BrokerReason, "auto") || !strings.Contains(r.Env.BrokerReason, "embedded") {
			t.Errorf("broker reason %q does not say auto fell back to embedded", r.Env.BrokerReason)
		}
	case "redpanda":
		if r.Env.BrokerReason == "" {
			t.Error("no broker reason for redpanda")
		}
	default:
		t.Fatalf("broker auto gave %q", r.Env.Broker)
	}
	for _, p := range r.Pipeline {
		if p.Base == nil || p.Head == nil || p.Base.N != 3 || p.Head.N != 3 || p.P == nil || p.RawNsPerMsg <= 0 || p.Broker != r.Env.Broker {
			t.Errorf("pipeline row %+v", p)
		}
	}
	if !strings.Contains(r.Env.ConsumerCap, "GOMAXPROCS=1") {
		t.Errorf("consumer cap %q", r.Env.ConsumerCap)
	}
}

// A budget too small for the timing asked for: the plan cuts it, the
// report says what, and the exact checks still decide the gate. 25 s of
// the minute went to the caller's stages before the gate (the action's
// cache restore and harness build count against the budget).
func TestTinyBudgetCutsTimingNotTheExactChecks(t *testing.T) {
	base, head := checkouts(t)
	replaceIn(t, filepath.Join(head, "schemas/orders/v1/order.proto"), "double price = 2;", "double price = 12;")
	replaceIn(t, filepath.Join(head, "schemas/orders/v1/order.proto"), "map<string, string> meta = 7;", "map<string, string> meta = 7;\n  repeated string tags = 8;")
	start := time.Now()
	r := run(t, base, head, func(in map[string]string, o *gate.Options) {
		in["messages"], in["time-budget"], in["count"], in["benchtime"] = "orders.v1.Order", "1m", "30", "300ms"
		in["pipeline"], in["broker"], in["formats"], in["pipeline-formats"] = "true", "embedded", "json,protobuf", "all"
		in["added-content-threshold"] = "1%" // the added tags' bytes: an exact figure that decides
		o.StagesBefore = []report.Stage{{Name: "cache restore", Seconds: 25}}
	})
	if took := time.Since(start); took > 50*time.Second {
		t.Errorf("a 1m budget, 25 s spent before, took %s more", took)
	}
	// The pipeline is cut, or its rows stopped on their own first (at
	// their power, or futile with head showing no fall: the stage note
	// says so), or it fitted whole: every row drained its planned rounds
	// on both sides (a drain starts no process, so two rows can fit).
	note := stageNote(r, "pipeline")
	cut := r.Cut.Pipeline != nil && r.Cut.Pipeline.Note != ""
	whole := len(r.Pipeline) == 2 && !slices.ContainsFunc(r.Pipeline, func(p report.Pipeline) bool {
		return p.Base == nil || p.Head == nil || p.Base.N != r.Pipeline[0].Base.N || p.Head.N != p.Base.N || p.Base.N < 5
	})
	if !cut && !strings.Contains(note, "drained") && !whole {
		t.Errorf("the pipeline was neither cut, stopped nor whole: %+v, %d rows, note %q", r.Cut.Pipeline, len(r.Pipeline), note)
	}
	t.Logf("pipeline: %+v; %s", r.Cut.Pipeline, note)
	if r.Cut.Bench == nil || r.Cut.Bench.Note == "" || r.Cut.Bench.Benchtime == "300ms" && r.Cut.Bench.Rounds == 30 {
		t.Fatalf("nothing was cut: %+v", r.Cut.Bench)
	}
	t.Logf("plan: %s", r.Cut.Bench.Note)
	k := kinds(r)
	if k["added-content"] == 0 || k["breaking"] == 0 || k["error"] != 0 {
		t.Fatalf("the exact checks did not decide: %+v %v", r.Violations, r.Errors)
	}
}

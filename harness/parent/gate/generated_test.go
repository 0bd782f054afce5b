package gate_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protojson"

	telemetryv1 "github.com/wiregate/wiregate/harness/internal/fixture/gen/telemetry/v1"
	"github.com/wiregate/wiregate/harness/parent/gate"
	"github.com/wiregate/wiregate/harness/parent/report"
	"github.com/wiregate/wiregate/harness/parent/verdict"
	"github.com/wiregate/wiregate/harness/program/record"
)

// Issue 44 through the gate: what new bytes compress to is the data's, so
// compressed size fails only on the user's samples (or beside raw size).

// addEventName adds a string field to head's telemetry event: a log
// record's event name, whose real values are a handful of names.
func addEventName(t *testing.T, head string) {
	t.Helper()
	replaceIn(t, filepath.Join(head, telemetryProto), "string region = 12;", "string region = 12;\n  string event_name = 13;")
}

// eventNameRun gates it with every codec and a raw size threshold the
// field's tag and text stay within (50%), and returns report.json as
// written.
func eventNameRun(t *testing.T, base, head string, edit func(in map[string]string)) *report.Report {
	t.Helper()
	out := t.TempDir()
	run(t, base, head, func(in map[string]string, o *gate.Options) {
		in["messages"], in["avro-schemas"], in["breaking"] = "telemetry.v1.TelemetryEvent", "no-such-dir/*.avsc", "false"
		in["cpu-cost"], in["compression"], in["size-threshold"] = "off", "gzip,snappy,lz4,zstd", "50%"
		if edit != nil {
			edit(in)
		}
		o.Out = out
	})
	return readReport(t, filepath.Join(out, "report.json"))
}

// readReport is the report.json at path.
func readReport(t *testing.T, path string) *report.Report {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var r report.Report
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	return &r
}

func violationsOf(r *report.Report, kind string) []report.Violation {
	var out []report.Violation
	for _, v := range r.Violations {
		if v.Kind == kind {
			out = append(out, v)
		}
	}
	return out
}

// A string field added with generated values: raw size grows within its
// threshold and no compressed size fails, while every codec's figure is
// still in report.json, with its reading where raw and compressed
// disagree, and a growth past the compressed-size threshold says it was
// not gated.
func TestAddedStringOnGeneratedRecordsDoesNotFailCompressedSize(t *testing.T) {
	base, head := checkouts(t)
	addEventName(t, head)
	r := eventNameRun(t, base, head, nil)
	if v := violationsOf(r, report.KindCompressedSize); len(v) != 0 || len(violationsOf(r, report.KindSize)) != 0 || len(r.Errors) != 0 {
		t.Fatalf("violations %+v, errors %v", r.Violations, r.Errors)
	}
	if rec := r.Messages[0].Records; rec == nil || rec.FromSamples || len(rec.NewFields) != 1 {
		t.Fatalf("records %+v", rec)
	}
	readings := 0
	for f, s := range sizesOf(t, r) {
		if *s.DeltaPct <= 0 || *s.DeltaPct > 50 {
			t.Fatalf("%s raw %+.1f%%", f, *s.DeltaPct)
		}
		for c, z := range byCodec(t, f, s) {
			t.Logf("%s %s: raw %+.1f%%, compressed %+.1f%% %q %q", f, c, *s.DeltaPct, *z.DeltaPct, z.Reading, z.Ungated)
			if z.DeltaPct == nil || (*z.DeltaPct > 5) != (z.Ungated == verdict.UngatedGenerated) {
				t.Errorf("%s/%s: %+v", f, c, z)
			}
			if z.Reading != "" {
				readings++
			}
		}
	}
	if readings == 0 {
		t.Error("no codec's figure has a reading")
	}
}

// The same change with samples whose new field holds random ids: the
// data says the new bytes do not compress, and compressed size fails in
// protobuf and Avro for every codec, raw size passing.
func TestAddedStringOfRandomIDsInSamplesFailsCompressedSize(t *testing.T) {
	base, head := checkouts(t)
	addEventName(t, head)
	samples := t.TempDir()
	r := rand.New(rand.NewPCG(1, 2))
	var lines strings.Builder
	for _, m := range record.Generate((&telemetryv1.TelemetryEvent{}).ProtoReflect().Type(), 128, record.Seed) {
		b, err := protojson.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&lines, "%s,\"eventName\":\"%016x%016x\"}\n", strings.TrimSuffix(string(b), "}"), r.Uint64(), r.Uint64())
	}
	os.WriteFile(filepath.Join(samples, "telemetry.v1.TelemetryEvent.jsonl"), []byte(lines.String()), 0o644)
	rep := eventNameRun(t, base, head, func(in map[string]string) { in["samples"] = samples })
	if rec := rep.Messages[0].Records; rec == nil || !rec.FromSamples || len(rep.Errors) != 0 || len(violationsOf(rep, report.KindSize)) != 0 {
		t.Fatalf("records %+v, errors %v, violations %+v", rec, rep.Errors, rep.Violations)
	}
	failed := map[string]bool{}
	for _, v := range violationsOf(rep, report.KindCompressedSize) {
		failed[v.Subject] = true
	}
	for _, f := range []string{"protobuf", "avro"} {
		for _, c := range everyCodec {
			if subject := "telemetry.v1.TelemetryEvent/" + f + "/compressed-size/" + c; !failed[subject] {
				t.Errorf("%s did not fail: %+v", subject, sizesOf(t, rep)[f].Compressed)
			}
		}
	}
	if rep.Result != "fail" {
		t.Fatalf("result %s", rep.Result)
	}
}

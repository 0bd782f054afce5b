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
	"github.com/wiregate/wiregate/harness/program/record"
)

// What new bytes compress to is the data's, so compressed size fails only
// on the user's samples (or beside raw size): for the added content too,
// by its own thresholds.

// addEventName adds a string field to head's telemetry event: a log
// record's event name, whose real values are a handful of names.
func addEventName(t *testing.T, head string) {
	t.Helper()
	replaceIn(t, filepath.Join(head, telemetryProto), "string region = 12;", "string region = 12;\n  string event_name = 13;")
}

// eventNameRun gates it with every codec, an added-content threshold for
// raw size the field's tag and text stay within (50%) and one of 5% for
// compressed size (the base's wiregate.yaml), and returns report.json as
// written.
func eventNameRun(t *testing.T, base, head string, edit func(in map[string]string)) *report.Report {
	t.Helper()
	out := t.TempDir()
	if err := os.WriteFile(filepath.Join(base, "wiregate.yaml"), []byte("thresholds:\n  added-size: 50%\n  added-compressed-size: 5%\n"), 0o644); err != nil {
		t.Fatal(err)
	}
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

// A string field added with generated values: its added content grows
// raw size within its threshold, and no compressed size fails, while every
// codec's figure is in report.json, some past 5%.
func TestAddedStringOnGeneratedRecordsDoesNotFailCompressedSize(t *testing.T) {
	base, head := checkouts(t)
	addEventName(t, head)
	r := eventNameRun(t, base, head, nil)
	if len(r.Violations) != 0 || len(r.Errors) != 0 {
		t.Fatalf("violations %+v, errors %v", r.Violations, r.Errors)
	}
	if rec := r.Messages[0].Records; rec == nil || rec.FromSamples || len(rec.NewFields) != 1 {
		t.Fatalf("records %+v", rec)
	}
	past := 0
	for _, f := range []string{"json", "protobuf", "avro"} {
		raw, byCodec := addedByCodec(t, r, f)
		if raw <= 0 {
			t.Fatalf("%s raw %+.1f B/msg", f, raw)
		}
		for _, af := range r.Messages[0].AddedContent.Formats {
			for _, fig := range af.Figures {
				if af.Format == f && fig.Metric == report.AddedCompressedSize && *fig.DeltaPct > 5 {
					past++
				}
			}
		}
		t.Logf("%s: raw %+.2f B, compressed %v", f, raw, byCodec)
	}
	if past == 0 {
		t.Error("no codec's added content grew past 5%: the test shows nothing")
	}
}

// The same change with samples whose new field holds random ids: the
// data says the added bytes do not compress, and the added content's
// compressed size fails in protobuf and Avro for every codec, its raw size
// passing.
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
	if rec := rep.Messages[0].Records; rec == nil || !rec.FromSamples || len(rep.Errors) != 0 {
		t.Fatalf("records %+v, errors %v, violations %+v", rec, rep.Errors, rep.Violations)
	}
	failed := map[string]bool{}
	for _, v := range violationsOf(rep, report.KindAddedContent) {
		failed[v.Subject] = true
		if strings.Contains(v.Subject, "/size/") {
			t.Errorf("raw size failed: %+v", v)
		}
	}
	for _, f := range []string{"protobuf", "avro"} {
		for _, c := range everyCodec {
			if subject := "telemetry.v1.TelemetryEvent/" + f + "/compressed-size/" + c + "/added"; !failed[subject] {
				t.Errorf("%s did not fail: %+v", subject, rep.Messages[0].AddedContent)
			}
		}
	}
	if rep.Result != "fail" {
		t.Fatalf("result %s", rep.Result)
	}
}

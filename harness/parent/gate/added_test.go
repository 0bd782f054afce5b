package gate_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wiregate/wiregate/harness/parent/gate"
	"github.com/wiregate/wiregate/harness/parent/report"
)

// What a release adds is stated; what it makes worse fails. These gate
// the telemetry message through every stage but the pipeline, counting
// instructions where Valgrind is.

// addedFigure is a message's added-content figure of format and metric.
func addedFigure(m report.Message, format, metric string) *report.AddedFigure {
	if m.AddedContent == nil {
		return nil
	}
	for _, f := range m.AddedContent.Formats {
		for i, fig := range f.Figures {
			if f.Format == format && fig.Metric == metric {
				return &f.Figures[i]
			}
		}
	}
	return nil
}

// One int32 field added to a small message, no samples: at the defaults
// nothing fails. The same content (rssi unset) is counted like any change,
// in the processes a changed message always has; its deltas are what the
// field costs unset (Avro and JSON write it, every codec checks it), the
// addition's cost. The added content, rssi filled, is stated with its
// figures. With added-content-threshold 1% both fail, naming the field.
func TestAnAddedFieldIsStatedNotFailed(t *testing.T) {
	counts := counting(t)
	base, head := checkouts(t)
	addRSSI(t, head)
	r := run(t, base, head, nil)
	if len(r.Violations) != 0 {
		t.Fatalf("an added field failed at the defaults: %+v", r.Violations)
	}
	m := r.Messages[0]
	if m.Records == nil || !m.Records.OnlyAdded || len(m.Records.NewFields) != 1 || m.Records.NewFields[0].To != "int32" {
		t.Fatalf("records %+v", m.Records)
	}
	for _, f := range []string{"json", "protobuf", "avro"} {
		size := addedFigure(m, f, report.AddedSize)
		if size == nil || size.With <= size.Without || size.ThresholdPct != nil {
			t.Errorf("%s added size %+v: want stated (no threshold), with rssi larger", f, size)
		}
		if !counts {
			continue
		}
		for _, op := range []string{report.AddedEncode, report.AddedDecode} {
			if fig := addedFigure(m, f, op); fig == nil || fig.Unit != "instr/op" || fig.Without <= 0 || fig.With <= 0 {
				t.Errorf("%s %s: added content not counted: %+v", f, op, fig)
			}
		}
	}
	if counts {
		// The same content is counted as any change is: 3 processes a side.
		for s, x := range instrs(r) {
			if x.Base.N != 3 || x.Head.N != 3 {
				t.Errorf("%s: %d and %d processes, want 3 a side", s, x.Base.N, x.Head.N)
			}
		}
		if note := stageNote(r, "cpu"); !strings.Contains(note, "1 message counted in 6 processes") {
			t.Errorf("cpu stage: %q, want the 6 processes a changed message always has", note)
		}
	}

	strict := run(t, base, head, func(in map[string]string, o *gate.Options) { in["added-content-threshold"] = "1%" })
	got := kinds(strict)
	if got[report.KindAddedContent] == 0 || len(got) != 1 {
		t.Fatalf("added-content-threshold 1%%: violations %v, want added-content only", got)
	}
	for _, v := range strict.Violations {
		if !strings.Contains(v.Detail, "`rssi` (new int32)") || !(strings.HasSuffix(v.Subject, "/added") || strings.HasSuffix(v.Subject, "/unset")) {
			t.Errorf("%s: %q does not name the field", v.Subject, v.Detail)
		}
	}
	if fig := addedFigure(strict.Messages[0], "protobuf", report.AddedSize); fig == nil || fig.ThresholdPct == nil || *fig.ThresholdPct != 1 {
		t.Errorf("the threshold applied is not on the figure: %+v", fig)
	}
}

// A large addition, on the user's samples: a repeated string of 40
// entries in every sample. Its values are the added content: stated at the
// defaults, failing at added-content-threshold 10%, naming it. The base
// reads the same samples without it.
func TestALargeAddedFieldFailsOnlyPastItsThreshold(t *testing.T) {
	base, head := checkouts(t)
	replaceIn(t, filepath.Join(head, telemetryProto), "string region = 12;", "string region = 12;\n  repeated string tags = 13;")
	samples := t.TempDir()
	var lines []string
	for i := range 16 {
		tags := make([]string, 40)
		for j := range tags {
			tags[j] = fmt.Sprintf("%q", fmt.Sprintf("tag-%02d-%03d", j, i))
		}
		lines = append(lines, fmt.Sprintf(`{"deviceId":"device-%04d","timestamp":"%d","temperature":21.5,"region":"eu-west-1","tags":[%s]}`,
			i, 1764000000000+int64(i), strings.Join(tags, ",")))
	}
	if err := os.WriteFile(filepath.Join(samples, "telemetry.v1.TelemetryEvent.jsonl"), []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gateAt := func(threshold string) *report.Report {
		return run(t, base, head, func(in map[string]string, o *gate.Options) {
			in["samples"], in["formats"], in["avro-schemas"], in["cpu-cost"] = samples, "json,protobuf", "no-such-dir/*.avsc", "off"
			if threshold != "" {
				in["added-content-threshold"] = threshold
			}
		})
	}
	r := gateAt("")
	m := r.Messages[0]
	if len(r.Violations) != 0 || m.Records == nil || !m.Records.FromSamples || !m.Records.OnlyAdded {
		t.Fatalf("violations %+v, records %+v", r.Violations, m.Records)
	}
	n := m.Records.NewFields
	if len(n) != 1 || n[0].Field != "tags" || n[0].Entries == nil || *n[0].Entries != 40 {
		t.Fatalf("new fields %+v, want tags with 40 entries a record", n)
	}
	if words := m.Records.AddedWords(); len(words) != 1 || words[0] != "`tags` (new repeated string, 40.0 entries a record in the samples)" {
		t.Errorf("added words %q", words)
	}
	pb := addedFigure(m, "protobuf", report.AddedSize)
	if pb == nil || pb.DeltaPct == nil || *pb.DeltaPct < 100 {
		t.Fatalf("protobuf added size %+v, want 40 tags to more than double a record", pb)
	}
	if s := m.Formats[0].Size; s == nil || s.Base != s.Head && m.Formats[0].Format == "protobuf" {
		t.Errorf("the same content moved protobuf bytes: %+v", s)
	}
	strict := gateAt("10%")
	var named int
	for _, v := range strict.Violations {
		if v.Kind != report.KindAddedContent {
			t.Errorf("violation %+v at added-content-threshold 10%%", v)
		}
		if strings.HasSuffix(v.Subject, "/added") && strings.Contains(v.Detail, "`tags`") {
			named++
		}
	}
	if named == 0 {
		t.Errorf("added-content-threshold 10%%: no violation names tags: %+v", strict.Violations)
	}
}

// The same addition beside a change that costs the same content more with
// no protobuf byte moved (region moved into a oneof: protobuf decodes it
// into a wrapper it allocates): the cpu rows of the same content fail, at
// the usual thresholds, and the addition is stated apart, failing nothing.
func TestASameContentRegressionFailsBesideAnAddition(t *testing.T) {
	requireValgrind(t)
	base, head := checkouts(t)
	addRSSI(t, head)
	replaceIn(t, filepath.Join(head, telemetryProto), "  string region = 12;\n", "  oneof place {\n    string region = 12;\n  }\n")
	r := run(t, base, head, func(in map[string]string, o *gate.Options) {
		in["formats"], in["avro-schemas"], in["breaking"] = "json,protobuf", "no-such-dir/*.avsc", "false"
	})
	m := r.Messages[0]
	if m.Records == nil || m.Records.OnlyAdded {
		t.Fatalf("records %+v: a field moved into a oneof is not an addition", m.Records)
	}
	if s := sizesOf(t, r)["protobuf"]; s.Base != s.Head {
		t.Fatalf("protobuf %.2f → %.2f B/msg: the oneof moved a byte", s.Base, s.Head)
	}
	failed := map[string]bool{}
	for _, v := range r.Violations {
		if v.Kind == report.KindAddedContent {
			t.Errorf("the addition failed at the defaults: %+v", v)
		}
		failed[v.Subject] = v.Kind == report.KindCPU
	}
	for _, s := range []string{"telemetry.v1.TelemetryEvent/protobuf/decode/instr", "telemetry.v1.TelemetryEvent/protobuf/encode/instr"} {
		if !failed[s] {
			t.Errorf("%s did not fail on the same content: %+v", s, r.Violations)
		}
	}
	if fig := addedFigure(m, "protobuf", report.AddedDecode); fig == nil || fig.With <= fig.Without {
		t.Errorf("the addition is not stated apart: %+v", fig)
	}
}

package gate_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/wiregate/wiregate/harness/parent/gate"
	"github.com/wiregate/wiregate/harness/parent/report"
)

// Through the gate: one changed message in one format is a family of two
// timings, which 5 rounds a side can decide at alpha/2; at a time
// threshold of 900% any spread of real samples is power enough, so the
// 12 rounds asked for stop after the first whole ABBA pair past 5 (6),
// both sides alike, and the stage says why. The sizes still gate.
func TestBenchStopsAtThePowerItsThresholdNeeds(t *testing.T) {
	base, head := checkouts(t)
	replaceIn(t, filepath.Join(head, telemetryProto), "string region = 12;", "string region = 12;\n  string zone = 13;")
	r := run(t, base, head, func(in map[string]string, o *gate.Options) {
		in["formats"], in["count"], in["time-threshold"], in["cpu-cost"] = "protobuf", "12", "900%", "off"
	})
	n := 0
	for _, m := range r.Messages {
		for _, f := range m.Formats {
			for _, x := range f.Metrics {
				if x.Unit != "sec/op" {
					continue
				}
				n++
				if x.Base == nil || x.Head == nil || x.Base.N != 6 || x.Head.N != 6 {
					t.Errorf("%s/%s/%s: base %+v head %+v, want 6 rounds a side", m.Name, f.Format, x.Name, x.Base, x.Head)
				}
				if x.MDE == nil || *x.MDE > 900 {
					t.Errorf("%s/%s/%s: MDE %v, want at or under the threshold it stopped for", m.Name, f.Format, x.Name, x.MDE)
				}
			}
		}
	}
	if n != 2 {
		t.Fatalf("%d timings, want encode and decode", n)
	}
	if note := benchNote(r); !strings.Contains(note, "1 after 6 rounds") {
		t.Errorf("bench stage note %q", note)
	}
	if kinds(r)["size"] != 1 {
		t.Errorf("the size still gates: %+v", r.Violations)
	}
}

func benchNote(r *report.Report) string {
	for _, st := range r.Stages {
		if st.Name == "bench" {
			return st.Note
		}
	}
	return ""
}

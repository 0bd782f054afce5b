package gate_test

import (
	"strings"
	"testing"

	"github.com/wiregate/wiregate/harness/parent/gate"
	"github.com/wiregate/wiregate/harness/parent/report"
)

// Through the gate: one changed message in one format is a family of two
// timings, which 5 rounds a side can decide at alpha/2; at a time
// threshold of 900% any spread of real samples gives the 12 rounds asked
// for that power, and head shows no slowdown of a quarter of it, so the
// rounds stop after the first whole ABBA pair read for it (4), both sides
// alike, before a test could even reach the cutoff (which the powered
// stop waits for). Each timing's MDE is the 12 planned rounds' and under
// the threshold, nothing is named unable to fail, and the stage says why.
// The sizes still gate.
func TestBenchStopsAtThePowerItsThresholdNeeds(t *testing.T) {
	r, timings := gateTwelveRounds(t, "900%")
	for _, x := range timings {
		if x.Base == nil || x.Head == nil || x.Base.N != 4 || x.Head.N != 4 || x.StoppedNoSlowdown != 4 {
			t.Errorf("%s: base %+v head %+v stopped %d, want 4 rounds a side", x.Name, x.Base, x.Head, x.StoppedNoSlowdown)
		}
		if x.MDE == nil || *x.MDE > 900 {
			t.Errorf("%s: MDE %v, want at or under the threshold it stopped for", x.Name, x.MDE)
		}
	}
	if n := len(timings); n != 2 || len(r.UnableToFail) != 0 {
		t.Fatalf("%d timings, unable to fail %v: want encode and decode, neither named", n, r.UnableToFail)
	}
	if note := stageNote(r, "bench"); !strings.Contains(note, "head showed no slowdown of 1/4 of it: 1 after 4 rounds") {
		t.Errorf("bench stage note %q", note)
	}
	if kinds(r)["size"] != 1 {
		t.Errorf("the size still gates: %+v", r.Violations)
	}
}

// gateTwelveRounds gates TelemetryEvent made to cost more (costMore), in
// protobuf, at most 12 rounds at this time threshold, counting off; it
// returns the report and its timings.
func gateTwelveRounds(t *testing.T, threshold string) (*report.Report, []report.Metric) {
	base, head := checkouts(t)
	costMore(t, head)
	r := run(t, base, head, func(in map[string]string, o *gate.Options) {
		in["formats"], in["count"], in["time-threshold"], in["cpu-cost"] = "protobuf", "12", threshold, "off"
	})
	var timings []report.Metric
	for _, m := range r.Messages {
		for _, f := range m.Formats {
			for _, x := range f.Metrics {
				if x.Unit == "sec/op" {
					timings = append(timings, x)
				}
			}
		}
	}
	return r, timings
}

// stageNote is the note of the report's stage of that name.
func stageNote(r *report.Report, name string) string {
	for _, st := range r.Stages {
		if st.Name == name {
			return st.Note
		}
	}
	return ""
}

// At a time threshold no real timing's spread can resolve (0.001%), the
// rounds stop as soon as the spread is read (4 rounds of the 12 asked
// for): every timing is named unable to fail, and the stage says why.
func TestBenchStopsWhatCannotReachItsThreshold(t *testing.T) {
	r, timings := gateTwelveRounds(t, "0.001%")
	for _, x := range timings {
		if x.Base == nil || x.Base.N != 4 || x.Head == nil || x.Head.N != 4 {
			t.Errorf("%s: base %+v head %+v, want 4 rounds a side", x.Name, x.Base, x.Head)
		}
	}
	if n := len(timings); n != 2 || len(r.UnableToFail) != 2 {
		t.Fatalf("%d timings, unable to fail %v: want encode and decode, both named", n, r.UnableToFail)
	}
	if note := stageNote(r, "bench"); !strings.Contains(note, "even 12 rounds") || !strings.Contains(note, "1 after 4 rounds") {
		t.Errorf("bench stage note %q", note)
	}
}

package gate_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/wiregate/wiregate/harness/parent/gate"
	"github.com/wiregate/wiregate/harness/parent/piperounds"
	"github.com/wiregate/wiregate/harness/parent/report"
)

// pipeTwelveRounds gates TelemetryEvent made to cost more (costMore), in
// protobuf, through the embedded broker, at most 12 decoded rounds at this
// throughput threshold; it returns the report and its one pipeline row.
func pipeTwelveRounds(t *testing.T, threshold string) (*report.Report, report.Pipeline) {
	base, head := checkouts(t)
	costMore(t, head)
	r := run(t, base, head, func(in map[string]string, o *gate.Options) {
		in["formats"], in["count"], in["throughput-threshold"], in["cpu-cost"] = "protobuf", "12", threshold, "off"
		in["pipeline"], in["broker"], in["pipeline-messages"] = "true", "embedded", "2000"
	})
	if len(r.Pipeline) != 1 || r.Pipeline[0].Base == nil || r.Pipeline[0].Head == nil {
		t.Fatalf("pipeline %+v, errors %v", r.Pipeline, r.Errors)
	}
	return r, r.Pipeline[0]
}

// A row is drained as a message is timed: at a throughput threshold of
// 900% any spread of real drains is power enough once a test can reach
// the cutoff (4 rounds for a family of one), so the rounds planned stop
// there, both sides alike; its MDE is stated and is under the threshold
// it stopped for.
func TestPipelineRowsStopAtThePowerTheirThresholdNeeds(t *testing.T) {
	r, row := pipeTwelveRounds(t, "900%")
	if row.Base.N != 4 || row.Head.N != 4 {
		t.Errorf("base %d, head %d rounds: want 4 a side", row.Base.N, row.Head.N)
	}
	if row.MDE == nil || *row.MDE > 900 {
		t.Errorf("MDE %v (%s), want at or under 900%%", row.MDE, row.MDEReason)
	}
	if note := stageNote(r, "pipeline"); !strings.Contains(note, "rows drained to the power") || !strings.Contains(note, "1 after 4 rounds") {
		t.Errorf("pipeline stage note %q", note)
	}
	if slices.Contains(r.UnableToFail, "telemetry.v1.TelemetryEvent/protobuf/pipeline") {
		t.Errorf("a powered row is named unable to fail: %v", r.UnableToFail)
	}
}

// At a throughput threshold no real drain's spread can resolve (0.001%),
// a row is futile after 4 rounds. It drains every round planned
// (piperounds.Rounds: the fewest a family of one can clear its cutoff with)
// while head shows a fall of its threshold — a row has no exact figure
// behind it, and a fall far past its threshold could still clear the
// cutoff in the rounds left — and stops at 4 when head shows none, the
// stage note saying so. Either way it is named unable to fail unless it
// failed.
func TestPipelineRowsThatCannotReachTheirThresholdStopOnlyWithoutAFall(t *testing.T) {
	r, row := pipeTwelveRounds(t, "0.001%")
	planned := piperounds.Rounds(1, 12, 0.05)
	if row.Base.N != row.Head.N || planned <= 4 {
		t.Fatalf("base %d, head %d rounds (%d planned)", row.Base.N, row.Head.N, planned)
	}
	note := stageNote(r, "pipeline")
	fell := row.Head.Center < row.Base.Center*(1-0.001/100)
	switch row.Base.N {
	case planned:
		if strings.Contains(note, "drained no further") {
			t.Errorf("all %d rounds drained, yet the note %q says it stopped", planned, note)
		}
	case 4:
		// The median of its 4 rounds showed no fall; the whole row's centre
		// is that median.
		if fell || !strings.Contains(note, "head showed no fall of it (unable to fail): 1 after 4 rounds") {
			t.Errorf("stopped at 4 rounds: head %v, base %v; note %q", row.Head.Center, row.Base.Center, note)
		}
	default:
		t.Errorf("base %d rounds: want 4 or all %d planned", row.Base.N, planned)
	}
	if strings.Contains(note, "drained to the power") {
		t.Errorf("pipeline stage note %q", note)
	}
	// Head adds a field, so its drain is really slower: a run that happens
	// to show that fall significant fails on it, and a failing row is
	// never named unable to fail; any other run names it.
	failed := slices.ContainsFunc(r.Violations, func(v report.Violation) bool {
		return v.Kind == report.KindThroughput && strings.HasPrefix(v.Subject, "telemetry.v1.TelemetryEvent/protobuf")
	})
	if named := slices.Contains(r.UnableToFail, "telemetry.v1.TelemetryEvent/protobuf/pipeline"); named == failed {
		t.Errorf("row failed %v, unable to fail %v: want the row named exactly when it did not fail", failed, r.UnableToFail)
	}
}

// Two rows (one message in json and protobuf; its Avro schema no longer
// agrees) make a family whose cutoff (0.025) 4 rounds a side cannot clear
// (0.029 at best): 5 are planned. At a throughput threshold of
// 200% every real drain's spread gives 5 rounds that power, so a row whose
// head shows no fall of 50% stops after 4 rounds, its MDE stated at the 5
// planned (the power its decision had), never named unable to fail; a row
// whose head did fall that far drains all 5. Either way no row is left
// unable to fail, and the note names the rows that stopped. (At 60% it
// failed 1 run in 3 here: this machine's drains spread to an MDE of 4–76%
// at 4–5 rounds.)
func TestPipelineRowsStopEarlyWhenPoweredAndHeadShowsNoFall(t *testing.T) {
	base, head := checkouts(t)
	costMore(t, head)
	r := run(t, base, head, func(in map[string]string, o *gate.Options) {
		in["count"], in["throughput-threshold"], in["cpu-cost"] = "12", "200%", "off"
		// Backlogs a 250 ms drain needs (budget.DrainTarget), not a short
		// count: 2,000 records drained in 2–7 ms spread so wide that a JSON
		// row's MDE at 5 rounds read 63–80%.
		in["pipeline"], in["broker"] = "true", "embedded"
		in["pipeline-formats"], in["formats"] = "all", "json,protobuf" // two rows: a family of two
	})
	planned := piperounds.Rounds(2, 12, 0.05)
	if len(r.Pipeline) != 2 || planned != 5 {
		t.Fatalf("%d rows, %d rounds planned; errors %v", len(r.Pipeline), planned, r.Errors)
	}
	stopped := 0
	for _, row := range r.Pipeline {
		subject := row.Message + "/" + row.Format + "/pipeline"
		if slices.Contains(r.UnableToFail, subject) {
			t.Errorf("%s named unable to fail (MDE %v)", subject, row.MDE)
		}
		switch row.Base.N {
		case 4:
			stopped++
			if row.StoppedNoFall != 4 || row.MDE == nil || *row.MDE > 200 || row.Head.Center < row.Base.Center*(1-0.5) {
				t.Errorf("%s stopped at 4: stopped_no_fall %d, MDE %v, head %v base %v", subject, row.StoppedNoFall, row.MDE, row.Head.Center, row.Base.Center)
			}
		case planned:
			if row.StoppedNoFall != 0 {
				t.Errorf("%s drained all %d rounds, yet stopped_no_fall %d", subject, planned, row.StoppedNoFall)
			}
		default:
			t.Errorf("%s: %d rounds, want 4 or %d", subject, row.Base.N, planned)
		}
	}
	if note := stageNote(r, "pipeline"); stopped > 0 != strings.Contains(note, fmt.Sprintf("head showed no fall of 1/4 of it: %d after 4 rounds", stopped)) {
		t.Errorf("%d rows stopped; pipeline stage note %q", stopped, note)
	}
	if stopped == 0 {
		t.Errorf("no row stopped early: at a 200%% threshold every row's spread has the power")
	}
}

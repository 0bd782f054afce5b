package gate_test

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/wiregate/wiregate/harness/parent/gate"
	"github.com/wiregate/wiregate/harness/parent/report"
)

// The time budget is a ceiling, not a target: a run whose
// budget is ten times what it needs ends near its need. The same change
// is gated at a budget that fits it whole and at ten times that: neither
// cuts anything, no stage of the larger takes much longer than the same
// stage of the smaller (a stage that grew into the time left would take
// several times as long), and the larger ends far inside its budget. The
// bounds are loose on purpose: this machine's speed moves 2–40% between
// runs, a stage that fills its budget moves tenfold.
func TestABudgetTenTimesItsNeedEndsNearItsNeed(t *testing.T) {
	base, head := checkouts(t)
	replaceIn(t, filepath.Join(head, "schemas/orders/v1/order.proto"), "map<string, string> meta = 7;", "map<string, string> meta = 7;\n  repeated string tags = 8;")
	gateAt := func(budget string) (*report.Report, time.Duration) {
		t.Helper()
		start := time.Now()
		r := run(t, base, head, func(in map[string]string, o *gate.Options) {
			in["messages"], in["time-budget"], in["count"], in["benchtime"] = "orders.v1.Order", budget, "6", "20ms"
			in["pipeline"], in["broker"], in["formats"], in["cpu-cost"] = "true", "embedded", "json,protobuf", "off"
		})
		if r.Cut.Bench != nil && r.Cut.Bench.Note != "" || r.Cut.Pipeline != nil && (r.Cut.Pipeline.Note != "" || len(r.Cut.Pipeline.Untimed) > 0) {
			t.Fatalf("time-budget %s cut something: bench %+v, pipeline %+v", budget, r.Cut.Bench, r.Cut.Pipeline)
		}
		if len(r.Errors) > 0 || len(r.Pipeline) != 1 { // protobuf: pipeline-formats auto
			t.Fatalf("time-budget %s: errors %v, %d pipeline rows", budget, r.Errors, len(r.Pipeline))
		}
		return r, time.Since(start)
	}
	need, needWall := gateAt("4m")
	roomy, roomyWall := gateAt("40m")
	t.Logf("wall: %s at 4m, %s at 40m", needWall.Round(time.Second), roomyWall.Round(time.Second))
	if roomyWall > 8*time.Minute {
		t.Errorf("a 40m budget took %s: a fifth of it or more", roomyWall)
	}
	seconds := map[string]float64{}
	for _, st := range need.Stages {
		seconds[st.Name] = st.Seconds
	}
	for _, st := range roomy.Stages {
		if limit := 3*seconds[st.Name] + 20; st.Seconds > limit {
			t.Errorf("stage %s took %.1f s at ten times the budget, %.1f s at its need: it grew into the time left", st.Name, st.Seconds, seconds[st.Name])
		}
	}
}

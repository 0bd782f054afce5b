package gate_test

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/wiregate/wiregate/harness/parent/gate"
	"github.com/wiregate/wiregate/harness/parent/history"
	"github.com/wiregate/wiregate/harness/parent/prepare"
	"github.com/wiregate/wiregate/harness/parent/report"
)

// A timing the base's history point says cannot reach its threshold (its
// samples there spread by half either way) is not timed at all: no round
// runs it, its metrics say "not timed" with the MDE predicted from that
// noise, it is named unable to fail, and the stage says why. Its counts
// and sizes still come. With quiet noise in the point, it is timed.
func TestATimingPlannedFutileIsNotTimed(t *testing.T) {
	counting(t)
	head, origin := withOrigin(t)
	first := gitIn(t, head, "rev-parse", "HEAD")
	costMore(t, head)
	gateWith := func(noise []float64) (*report.Report, string) {
		t.Helper()
		store := history.Store{Dir: head, Branch: "wiregate-data"}
		harness, err := prepare.HarnessHash("../..") // this wiregate's point: another's prices nothing
		if err != nil {
			t.Fatal(err)
		}
		p := history.Point{Sha: first, Ref: "main", Date: "2026-11-26T00:00:00Z", Wiregate: harness, Go: runtime.Version(),
			Figures: []history.Figure{{Message: "telemetry.v1.TelemetryEvent", Format: "protobuf", Metric: "size", Unit: "B/msg", Value: 100}},
			MeasuringTimes: []report.MeasuringTime{{Message: "telemetry.v1.TelemetryEvent", RoundSeconds: 0.1,
				Noise: map[string][]float64{"protobuf/encode": noise, "protobuf/decode": noise}}}}
		if _, err := store.Append(context.Background(), p); err != nil {
			t.Fatal(err)
		}
		var out string
		r := run(t, "", head, func(in map[string]string, o *gate.Options) {
			in["formats"], in["count"] = "protobuf", "6"
			o.BaseDir, o.BaseRef, out = "", first, o.Out
		})
		base, _ := os.ReadFile(filepath.Join(out, "base.txt"))
		return r, string(base)
	}

	r, base := gateWith([]float64{0.5, 1.5, 0.6, 1.4, 1, 0.55, 1.45, 1})
	metrics := 0
	for _, f := range r.Messages[0].Formats {
		for _, m := range f.Metrics {
			// Not timed, its exact figures still judged: one round a side
			// gave them.
			if m.Unit == "allocs/op" && (m.Base == nil || m.Head == nil || m.Name == "decode" && (m.Head.Center <= m.Base.Center || !m.Significant || m.P != nil)) {
				t.Errorf("%s allocs/op %+v: want both sides, head's decode more (a string field), exactly (moved, no p)", m.Name, m)
			}
			if m.Unit != "sec/op" {
				continue
			}
			metrics++
			if !m.NotTimed || m.Base != nil || m.Delta != "not timed" || m.MDE == nil || *m.MDE <= 20 {
				t.Errorf("%s: %+v, want not timed with an MDE past twice the 10%% threshold", m.Name, m)
			}
		}
	}
	allocs := 0
	for _, f := range r.Messages[0].Formats {
		for _, m := range f.Metrics {
			if m.Unit == "allocs/op" {
				allocs++
			}
		}
	}
	if metrics != 2 || allocs != 2 || strings.Contains(base, " ns/op") || !strings.Contains(base, " allocs/op") {
		t.Fatalf("%d sec/op and %d allocs/op metrics; base.txt:\n%s", metrics, allocs, base)
	}
	if want := "telemetry.v1.TelemetryEvent/protobuf/encode"; !strings.Contains(strings.Join(r.UnableToFail, " "), want) {
		t.Errorf("unable to fail %q, want %s", r.UnableToFail, want)
	}
	if note := stageNote(r, "bench"); !strings.Contains(note, "not timed: at the noise the base's history point measured") {
		t.Errorf("bench note %q", note)
	}
	if len(instrs(r)) == 0 && r.CPUCost.Unavailable == "" {
		t.Error("the counts did not run")
	}

	// The base's point says its timings are quiet: timed.
	gitIn(t, origin, "update-ref", "-d", "refs/heads/wiregate-data")
	r, base = gateWith([]float64{0.99, 1, 1.01, 1, 0.995, 1.005})
	if !strings.Contains(base, " ns/op") || strings.Contains(stageNote(r, "bench"), "not timed") {
		t.Errorf("quiet noise: bench note %q, base.txt:\n%s", stageNote(r, "bench"), base)
	}
	// Timed: every round has its time, but allocations are counted once a
	// side (the warm-up round's), and still judged exactly.
	if timed, counted := strings.Count(base, " ns/op"), strings.Count(base, " allocs/op"); counted != 2 || timed < 2*counted {
		t.Errorf("quiet noise: %d timed lines, %d allocation counts, want 2 counts and a line a round; base.txt:\n%s", timed, counted, base)
	}
	for _, f := range r.Messages[0].Formats {
		for _, m := range f.Metrics {
			if m.Unit == "allocs/op" && m.Name == "decode" && (!m.Significant || m.P != nil || m.Head.Center <= m.Base.Center) {
				t.Errorf("quiet noise: decode allocs/op %+v, want head's more, exactly", m)
			}
		}
	}
}

package gate_test

import (
	"context"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/wiregate/wiregate/harness/parent/gate"
	"github.com/wiregate/wiregate/harness/parent/history"
	"github.com/wiregate/wiregate/harness/parent/inputs"
	"github.com/wiregate/wiregate/harness/parent/prepare"
	"github.com/wiregate/wiregate/harness/parent/report"
)

// plan is `wiregate plan` of head's working tree against baseRef, this
// repo's telemetry message in protobuf.
func plan(t *testing.T, head, baseRef string, edit func(in map[string]string)) *gate.ShardSplit {
	t.Helper()
	in := map[string]string{"working-directory": head, "messages": "telemetry.v1.TelemetryEvent", "formats": "protobuf",
		"pipeline": "false", "time-budget": "10m", "max-shards": "8"}
	if edit != nil {
		edit(in)
	}
	p, err := gate.Plan(context.Background(), gate.Options{HarnessDir: "../..", BaseRef: baseRef, Out: t.TempDir(), Inputs: inputs.Map(in)})
	if err != nil {
		t.Fatalf("plan: %v", err)
	}
	return p
}

// A plan prices a message by what the base's history point measured of it,
// and says so; without a point it prices from the schemas and says why.
// The point is the base's own, not the branch's newest: a plan and its
// shards read the branch at different times.
func TestAPlanPricesByWhatTheBasesPointMeasured(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the whole gate")
	}
	head, _ := withOrigin(t)
	replaceIn(t, filepath.Join(head, telemetryProto), "string region = 12;", "string region = 12;\n  string zone = 13;")

	first := gitIn(t, head, "rev-parse", "HEAD")
	none := plan(t, head, first, nil)
	if !strings.Contains(none.Note, "static prices: no history branch wiregate-data") || none.Shards != 1 {
		t.Fatalf("no branch: %+v", none)
	}
	off := plan(t, head, first, func(in map[string]string) { in["history"] = "false" })
	if !strings.Contains(off.Note, "static prices: history: false") || off.PriceSeconds != none.PriceSeconds {
		t.Fatalf("history off: %+v (no branch: %v s)", off, none.PriceSeconds)
	}

	// The base's point says counting telemetry takes 500 s a process: the
	// plan needs several shards of 10 minutes for what it priced at
	// seconds.
	store := history.Store{Dir: head, Branch: "wiregate-data"}
	harness, err := prepare.HarnessHash("../..") // the wiregate that measures here
	if err != nil {
		t.Fatal(err)
	}
	dear := history.Point{Sha: first, Ref: "main", Date: "2026-11-26T00:00:00Z", Wiregate: harness, Go: runtime.Version(),
		Figures:        []history.Figure{{Message: "telemetry.v1.TelemetryEvent", Format: "protobuf", Metric: "size", Unit: "B/msg", Value: 100}},
		MeasuringTimes: []report.MeasuringTime{{Message: "telemetry.v1.TelemetryEvent", CountSeconds: 500}}}
	if _, err := store.Append(context.Background(), dear); err != nil {
		t.Fatal(err)
	}
	measured := plan(t, head, first, nil)
	if !strings.Contains(measured.Note, "prices measured on wiregate-data at "+first[:7]) || measured.PriceSeconds < 6*500/4 || measured.Needed < 2 {
		t.Fatalf("measured: %+v", measured)
	}

	// A newer point of a commit the base does not have prices nothing: the
	// base's point still does.
	cheap := dear
	cheap.Sha, cheap.MeasuringTimes = strings.Repeat("ab", 20), []report.MeasuringTime{{Message: "telemetry.v1.TelemetryEvent", CountSeconds: 0.001}}
	if _, err := store.Append(context.Background(), cheap); err != nil {
		t.Fatal(err)
	}
	if again := plan(t, head, first, nil); again.PriceSeconds != measured.PriceSeconds {
		t.Fatalf("a point past the base moved the price: %v s, was %v s", again.PriceSeconds, measured.PriceSeconds)
	}

	// A base after the point: the newest point of its ancestors.
	gitIn(t, head, "commit", "-qam", "zone")
	second := gitIn(t, head, "rev-parse", "HEAD")
	replaceIn(t, filepath.Join(head, telemetryProto), "string zone = 13;", "string zone = 13;\n  string rack = 14;")
	if later := plan(t, head, second, nil); !strings.Contains(later.Note, "at "+first[:7]) || later.PriceSeconds < 6*500/4 {
		t.Fatalf("a base past the point: %+v", later)
	}

	// The base's own point, measured by another wiregate (or Go), prices
	// nothing: what a stage costs is the harness's.
	other := dear
	other.Sha, other.Wiregate = second, "another"
	if _, err := store.Append(context.Background(), other); err != nil {
		t.Fatal(err)
	}
	if p := plan(t, head, second, nil); !strings.Contains(p.Note, "static prices: the base's point on wiregate-data was measured by another wiregate or Go") || p.PriceSeconds >= 6*500/4 {
		t.Fatalf("another wiregate's point: %+v", p)
	}
}

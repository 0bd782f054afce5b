package gate_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/wiregate/wiregate/harness/parent/bufcheck"
	"github.com/wiregate/wiregate/harness/parent/prepare"
	"github.com/wiregate/wiregate/harness/parent/report"
	"github.com/wiregate/wiregate/harness/parent/verdict"
)

// golden holds the golden comments' reports: the renderer turns each into
// a committed report.md (test/golden.test.ts). They are derived from the
// fail fixture (a real gate run) and real buf runs, and decided by this
// verdict; regenerate them with scripts/golden.sh.
const golden = "../../../test/golden"

// goldenReports are the golden reports by name:
//
//   - release: the fail fixture plus buf breaking on testdata/golden (a
//     release's worth of findings on few fields of two files);
//   - fail-cuts: the fail fixture whose TelemetryEvent the budget left
//     untimed and undrained: a failure next to cut figures;
//   - pass-cuts: the same without its schema findings and with thresholds
//     its deltas fit: a pass that rests on what was measured.
func goldenReports(t *testing.T) map[string]*report.Report {
	t.Helper()
	fail := func() *report.Report {
		b, err := os.ReadFile(filepath.Join(fixtures, "fail.json"))
		if err != nil {
			t.Fatal(err)
		}
		var r report.Report
		if err := json.Unmarshal(b, &r); err != nil {
			t.Fatal(err)
		}
		return &r
	}
	release := fail()
	release.Findings = append(release.Findings, goldenFindings(t)...)
	verdict.Decide(release)

	failCuts := fail()
	cutTimings(failCuts, "telemetry.v1.TelemetryEvent")
	verdict.Decide(failCuts)

	passCuts := fail()
	cutTimings(passCuts, "telemetry.v1.TelemetryEvent")
	passCuts.Findings = []report.Finding{}
	th := &passCuts.Rules.Config.Thresholds
	th.SizePct, th.CompressedSizePct, th.CPUPct = 100, 100, 100
	verdict.Decide(passCuts)
	return map[string]*report.Report{"release": release, "fail-cuts": failCuts, "pass-cuts": passCuts}
}

// goldenFindings are buf breaking's findings on testdata/golden, as if the
// module sat under schemas/.
func goldenFindings(t *testing.T) []report.Finding {
	t.Helper()
	buf, err := prepare.FindBuf("", ".")
	if err != nil {
		t.Skip("buf not found:", err)
	}
	dir, err := filepath.Abs("testdata/golden")
	if err != nil {
		t.Fatal(err)
	}
	c := bufcheck.Check{Buf: buf, Dir: filepath.Join(dir, "head"), BufInput: ".", FileRoot: "schemas"}
	fs, err := c.Breaking(context.Background(), filepath.Join(dir, "base"))
	if err != nil {
		t.Fatal(err)
	}
	if len(fs) < 10 {
		t.Fatalf("buf found %d breaking changes on testdata/golden, want a release's worth", len(fs))
	}
	return fs
}

// cutTimings leaves message untimed and undrained, as the budget does
// when it runs short: no sec/op, no pipeline rows, the plan saying so.
func cutTimings(r *report.Report, message string) {
	for i := range r.Messages {
		if r.Messages[i].Name != message {
			continue
		}
		for j := range r.Messages[i].Formats {
			f := &r.Messages[i].Formats[j]
			f.Metrics = slices.DeleteFunc(f.Metrics, func(m report.Metric) bool { return m.Unit == "sec/op" })
		}
	}
	var untimed []string
	r.Pipeline = slices.DeleteFunc(r.Pipeline, func(p report.Pipeline) bool {
		if p.Message == message {
			untimed = append(untimed, p.Message+"/"+p.Format)
		}
		return p.Message == message
	})
	r.Plan.Bench.Untimed = []string{message}
	r.Plan.Bench.Note = "to fit 10m0s: 1 of 2 messages not timed"
	r.Plan.Pipeline = &report.PipelinePlan{Untimed: untimed, Note: "to fit 10m0s: 3 rows not timed"}
}

// The golden reports must be what the fixture and this verdict make.
func TestGoldenReportsAreFresh(t *testing.T) {
	for name, r := range goldenReports(t) {
		out, err := json.MarshalIndent(r, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, '\n')
		path := filepath.Join(golden, name+".json")
		if *update {
			if err := os.WriteFile(path, out, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if b, err := os.ReadFile(path); err != nil || !bytes.Equal(b, out) {
			t.Errorf("%s is not what the fail fixture and this verdict make: run scripts/golden.sh", path)
		}
	}
}

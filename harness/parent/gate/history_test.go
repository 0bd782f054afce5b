package gate_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/wiregate/wiregate/harness/parent/gate"
	"github.com/wiregate/wiregate/harness/parent/history"
	"github.com/wiregate/wiregate/harness/parent/report"
)

// withOrigin makes head a clone-like repository: one commit, pushed to a
// bare origin, as actions/checkout leaves it.
func withOrigin(t *testing.T) (head, origin string) {
	t.Helper()
	_, head = checkouts(t)
	origin = filepath.Join(t.TempDir(), "origin.git")
	gitIn(t, head, "init", "-q", "--bare", "-b", "main", origin)
	gitIn(t, head, "init", "-q", "-b", "main")
	gitIn(t, head, "add", ".")
	gitIn(t, head, "commit", "-qm", "first")
	gitIn(t, head, "remote", "add", "origin", origin)
	gitIn(t, head, "push", "-q", "origin", "main")
	return head, origin
}

// gateGit gates head's working tree against baseRef, protobuf only.
func gateGit(t *testing.T, head, baseRef string, record bool) *report.Report {
	return run(t, "", head, func(in map[string]string, o *gate.Options) {
		in["formats"] = "protobuf"
		o.BaseDir, o.BaseRef, o.RecordHistory = "", baseRef, record
	})
}

// Two pushes to main record two points; a PR that grows the message then
// carries both, then its own head, in report.json.
func TestPushesRecordAndAPullRequestReadsTheHistory(t *testing.T) {
	counts := counting(t)
	head, origin := withOrigin(t)
	first := gitIn(t, head, "rev-parse", "HEAD")
	r := gateGit(t, head, "HEAD", true)
	if r.History == nil || r.History.Recorded != first || r.History.Attempts != 1 || len(r.Warnings) != 0 {
		t.Fatalf("first push: history %+v, warnings %q", r.History, r.Warnings)
	}
	replaceIn(t, filepath.Join(head, telemetryProto), "string region = 12;", "string region = 12;\n  string zone = 13;")
	gitIn(t, head, "commit", "-qam", "zone")
	second := gitIn(t, head, "rev-parse", "HEAD")
	if r := gateGit(t, head, first, true); r.History.Recorded != second {
		t.Fatalf("second push: %+v %q", r.History, r.Warnings)
	}
	lines := strings.Split(gitIn(t, origin, "cat-file", "blob", "wiregate-data:history.jsonl"), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], first) || !strings.Contains(lines[1], second) {
		t.Fatalf("history.jsonl:\n%s", strings.Join(lines, "\n"))
	}

	// The PR: a working-tree change on top of the second commit.
	replaceIn(t, filepath.Join(head, telemetryProto), "string zone = 13;", "string zone = 13;\n  string rack = 14;")
	pr := gateGit(t, head, second, false)
	h := pr.History
	if h == nil || len(h.Messages) != 1 || h.Messages[0].Name != "telemetry.v1.TelemetryEvent" || h.Recorded != "" {
		t.Fatalf("PR history %+v, warnings %q", h, pr.Warnings)
	}
	m := h.Messages[0]
	if len(m.Commits) != 3 || m.Commits[0].Sha != first || m.Commits[1].Sha != second || !m.Commits[2].Head ||
		m.Commits[2].Sha != pr.Head.Sha || m.Commits[0].Date == "" {
		t.Fatalf("commits %+v", m.Commits)
	}
	// Each commit adds a string field: what a point records, and the chart's
	// head, is head's records whole (the added content filled): bytes/msg
	// grew twice, and so did the instructions of both ops. Allocations are
	// counted on the same content only, which an addition leaves alone.
	size := pr.Messages[0].Formats[0].Size
	whole := addedFigure(pr.Messages[0], "protobuf", report.AddedSize)
	units := map[string][]float64{}
	for _, s := range m.Series {
		for _, v := range s.Values {
			units[s.Metric+" "+s.Unit] = append(units[s.Metric+" "+s.Unit], *v)
		}
	}
	var grew []string
	if counts {
		grew = append(grew, "decode instr/op", "encode instr/op")
	}
	if b := units["size B/msg"]; len(units) != 1+len(grew) || len(b) != 3 || whole == nil || b[1] != size.Base || b[2] != whole.With || !(b[0] < b[1]) {
		t.Fatalf("series %v (size %+v, whole %+v)", units, size, whole)
	}
	for _, u := range grew {
		if a := units[u]; len(a) != 3 || !(a[0] < a[1] && a[1] < a[2]) {
			t.Fatalf("%s %v", u, a)
		}
	}
	if lines := strings.Split(gitIn(t, origin, "cat-file", "blob", "wiregate-data:history.jsonl"), "\n"); len(lines) != 2 {
		t.Fatalf("a PR run wrote history: %d lines", len(lines))
	}
}

func TestNoHistoryBranchIsANoteNotAFailure(t *testing.T) {
	head, _ := withOrigin(t)
	replaceIn(t, filepath.Join(head, telemetryProto), "string region = 12;", "string region = 12;\n  string zone = 13;")
	r := gateGit(t, head, "HEAD", false)
	if r.History == nil || !strings.Contains(r.History.Note, "no branch wiregate-data on origin") || len(r.Warnings) != 0 || len(r.Errors) != 0 {
		t.Fatalf("history %+v warnings %q errors %q", r.History, r.Warnings, r.Errors)
	}
	if r.Result != "pass" || len(r.Violations) != 0 {
		t.Fatalf("an added field, no history: the verdict changed: %s %+v", r.Result, r.Violations)
	}
}

// pushAll gates a push of head against baseRef: every message, protobuf,
// no counting (figures enough to carry).
func pushAll(t *testing.T, head, baseRef string) *report.Report {
	return run(t, "", head, func(in map[string]string, o *gate.Options) {
		in["messages"], in["formats"], in["cpu-cost"] = "", "protobuf", "off"
		o.BaseDir, o.BaseRef, o.RecordHistory = "", baseRef, true
	})
}

// lastPoint is the history branch's last line, decoded.
func lastPoint(t *testing.T, origin string) history.Point {
	t.Helper()
	lines := strings.Split(gitIn(t, origin, "cat-file", "blob", "wiregate-data:history.jsonl"), "\n")
	var p history.Point
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &p); err != nil {
		t.Fatal(err)
	}
	return p
}

// costOf is a point's cost of one message; nil when it has none.
func costOf(p history.Point, message string) *report.MeasuringTime {
	for _, c := range p.MeasuringTimes {
		if c.Message == message {
			return &c
		}
	}
	return nil
}

// figuresOf is a point's figures of one message, by format/metric/unit.
func figuresOf(p history.Point, message string) map[string]float64 {
	out := map[string]float64{}
	for _, f := range p.Figures {
		if f.Message == message {
			out[f.Format+"/"+f.Metric+"/"+f.Unit] = f.Value
		}
	}
	return out
}

// A push that changes one message measures that one and carries the
// others' figures from the last point (the same figures, listed as
// carried), so every point stays whole; a point recorded by another
// wiregate carries nothing, and the next push measures every message.
func TestPushesMeasureWhatChangedAndCarryTheRest(t *testing.T) {
	head, origin := withOrigin(t)
	first := pushAll(t, head, "HEAD")
	if first.History == nil || first.History.Recorded == "" || len(first.History.Carried) != 0 || len(first.Messages) != 3 {
		t.Fatalf("first push: history %+v, %d messages measured, warnings %q", first.History, len(first.Messages), first.Warnings)
	}
	p1 := lastPoint(t, origin)

	firstSha := gitIn(t, head, "rev-parse", "HEAD")
	replaceIn(t, filepath.Join(head, telemetryProto), "string region = 12;", "string region = 12;\n  string zone = 13;")
	gitIn(t, head, "commit", "-qam", "zone")
	second := pushAll(t, head, firstSha)
	if len(second.Messages) != 1 || second.Messages[0].Name != "telemetry.v1.TelemetryEvent" {
		t.Fatalf("second push measured %d messages: %+v", len(second.Messages), second.Messages)
	}
	if h := second.History; h == nil || strings.Join(h.Carried, ",") != "orders.v1.Order,pingpong.v1.PingPong" || len(h.Unreached) != 0 {
		t.Fatalf("second push: history %+v, warnings %q", h, second.Warnings)
	}
	p2 := lastPoint(t, origin)
	for _, m := range []string{"orders.v1.Order", "pingpong.v1.PingPong"} {
		if a, b := figuresOf(p1, m), figuresOf(p2, m); len(a) == 0 || !reflect.DeepEqual(a, b) {
			t.Errorf("%s carried %v, was %v", m, b, a)
		}
	}
	if a, b := figuresOf(p1, "telemetry.v1.TelemetryEvent"), figuresOf(p2, "telemetry.v1.TelemetryEvent"); !(b["protobuf/size/B/msg"] > a["protobuf/size/B/msg"]) {
		t.Errorf("telemetry's size %v → %v", a, b)
	}
	// What measuring cost goes with the figures: measured where measured,
	// carried where carried.
	if c := costOf(p1, "orders.v1.Order"); c == nil || c.SizesSeconds <= 0 || c.RoundSeconds <= 0 || len(p1.MeasuringTimes) != 3 {
		t.Errorf("first point's costs %+v", p1.MeasuringTimes)
	}
	for _, m := range []string{"orders.v1.Order", "pingpong.v1.PingPong"} {
		if a, b := costOf(p1, m), costOf(p2, m); a == nil || b == nil || !reflect.DeepEqual(a, b) {
			t.Errorf("%s's cost carried %+v, was %+v", m, b, a)
		}
	}
	if a, b := costOf(p1, "telemetry.v1.TelemetryEvent"), costOf(p2, "telemetry.v1.TelemetryEvent"); a == nil || b == nil || reflect.DeepEqual(a, b) {
		t.Errorf("telemetry's cost was not measured again: %+v, %+v", a, b)
	}

	// The points were recorded by another wiregate: nothing carries.
	clone := filepath.Join(t.TempDir(), "clone")
	gitIn(t, head, "clone", "-q", "-b", "wiregate-data", origin, clone)
	data, _ := os.ReadFile(filepath.Join(clone, history.File))
	os.WriteFile(filepath.Join(clone, history.File), []byte(strings.ReplaceAll(string(data), `"wiregate":"`, `"wiregate":"older-`)), 0o644)
	gitIn(t, clone, "commit", "-qam", "an older wiregate's points")
	gitIn(t, clone, "push", "-q", "origin", "wiregate-data")
	secondSha := gitIn(t, head, "rev-parse", "HEAD")
	replaceIn(t, filepath.Join(head, telemetryProto), "// Degrees Celsius.", "// Degrees Celsius, as reported.")
	gitIn(t, head, "commit", "-qam", "a comment")
	third := pushAll(t, head, secondSha)
	if len(third.Messages) != 3 || len(third.History.Carried) != 0 {
		t.Fatalf("after a wiregate change: %d messages measured, carried %v", len(third.Messages), third.History.Carried)
	}
}

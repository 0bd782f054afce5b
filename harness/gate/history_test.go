package gate_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/wiregate/wiregate/harness/gate"
	"github.com/wiregate/wiregate/harness/report"
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
	// bytes/msg grew twice; a new string field also allocates once more on
	// decode, and costs instructions in both ops.
	size := pr.Messages[0].Formats[0].Size
	units := map[string][]float64{}
	for _, s := range m.Series {
		for _, v := range s.Values {
			units[s.Metric+" "+s.Unit] = append(units[s.Metric+" "+s.Unit], *v)
		}
	}
	grew := []string{"decode allocs/op"}
	if counts {
		grew = append(grew, "decode instr/op", "encode instr/op")
	}
	if b := units["size B/msg"]; len(units) != 1+len(grew) || len(b) != 3 || b[1] != size.Base || b[2] != size.Head || !(b[0] < b[1]) {
		t.Fatalf("series %v (size %+v)", units, size)
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
	if k := kinds(r); r.Result != "fail" || k["size"] != 1 || k["size"]+k["cpu"] != len(r.Violations) {
		t.Fatalf("the size (and cpu) verdict changed: %+v", r.Violations)
	}
}

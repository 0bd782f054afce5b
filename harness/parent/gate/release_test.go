package gate_test

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wiregate/wiregate/harness/parent/gate"
	"github.com/wiregate/wiregate/harness/parent/report"
	"github.com/wiregate/wiregate/harness/program/exitcode"
)

const orderProto = "schemas/orders/v1/order.proto"
const telemetryAvsc = "schemas/telemetry/v1/telemetry_event.avsc"

// gitIn runs git in dir for a test.
func gitIn(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@wiregate.test"}, args...)...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// releases makes head a repository whose history is the story the input
// is for: v1; v2 adds Order.note; then a PR (merged with the allow label)
// deletes note again and adds an Avro field without a default. The base is
// that last commit and head is the same: nothing breaks the base, both
// changes break v2, and v1 had no note to delete.
func releases(t *testing.T) (head, v2 string) {
	t.Helper()
	_, head = checkouts(t)
	gitIn(t, head, "init", "-q", "-b", "main")
	gitIn(t, head, "add", ".")
	gitIn(t, head, "commit", "-qm", "v1")
	gitIn(t, head, "tag", "v1")
	replaceIn(t, filepath.Join(head, orderProto), "map<string, string> meta = 7;", "map<string, string> meta = 7;\n  string note = 8;")
	gitIn(t, head, "commit", "-qam", "v2: Order.note")
	gitIn(t, head, "tag", "v2")
	v2 = gitIn(t, head, "rev-parse", "HEAD")
	replaceIn(t, filepath.Join(head, orderProto), "\n  string note = 8;", "")
	replaceIn(t, filepath.Join(head, telemetryAvsc), `{"name": "region", "type": "string"}`, `{"name": "region", "type": "string"},
    {"name": "site", "type": "string"}`)
	gitIn(t, head, "commit", "-qam", "drop note, add site")
	return head, v2
}

// against gates head against HEAD with breaking-against set; protobuf only
// (the .avsc no longer follows the proto, which the Avro codec checks).
func against(t *testing.T, head, input string, labels ...string) *report.Report {
	return run(t, "", head, func(in map[string]string, o *gate.Options) {
		in["breaking-against"], in["formats"] = input, "protobuf"
		o.BaseDir, o.BaseRef = "", "HEAD"
		labeled(o, labels...)
	})
}

func TestBreakingAgainstLatestTagChecksTheNewestRelease(t *testing.T) {
	head, v2 := releases(t)
	r := against(t, head, "latest-tag:v*")
	if a := r.BreakingAgainst; a == nil || a.Ref != "v2" || a.Sha != v2 || a.Input != "latest-tag:v*" || a.SameAsBase {
		t.Fatalf("breaking_against %+v", r.BreakingAgainst)
	}
	byAgainst := map[string][]string{}
	for _, v := range r.Violations {
		byAgainst[v.Against] = append(byAgainst[v.Against], v.Kind+" "+v.Subject)
	}
	if len(byAgainst[""]) != 0 || len(r.Errors) != 0 {
		t.Fatalf("the base is not broken, yet: %v (errors %v)", byAgainst[""], r.Errors)
	}
	if got := strings.Join(byAgainst["v2"], ", "); got != "avro "+telemetryAvsc+", breaking "+orderProto {
		t.Fatalf("against v2: %q", got)
	}
	for _, v := range r.Violations {
		if v.Kind == "breaking" && !strings.Contains(v.Detail, "note") {
			t.Errorf("the breaking violation does not name the deleted field: %+v", v)
		}
	}
	if r.Result != "fail" || r.ExitCode != exitcode.Failed {
		t.Fatalf("result %s", r.Result)
	}
	for _, st := range []string{"release checkout", "buf breaking (release)", "avro-compatibility (release)"} {
		if !hasStage(r, st) {
			t.Errorf("no %q stage in %+v", st, r.Stages)
		}
	}
	if out := gitIn(t, head, "worktree", "list"); strings.Count(out, "\n") != 0 {
		t.Errorf("worktrees left behind:\n%s", out)
	}

	// The label allows a release's breaking changes as it does the base's.
	allowed := against(t, head, "latest-tag:v*", "wiregate allow breaking")
	if allowed.Result != "pass" || len(allowed.Violations) != 2 || !allowed.Violations[0].Allowed || !allowed.Violations[1].Allowed {
		t.Fatalf("allowed: %s %+v", allowed.Result, allowed.Violations)
	}
	// v1 had no note to delete: only the Avro field breaks it.
	v1 := against(t, head, "v1")
	if len(v1.Violations) != 1 || v1.Violations[0].Kind != "avro" || v1.Violations[0].Against != "v1" {
		t.Fatalf("against v1: %+v", v1.Violations)
	}
}

func TestBreakingAgainstWithoutAMatchingTagIsAWarning(t *testing.T) {
	head, _ := releases(t)
	r := against(t, head, "latest-tag:release-*")
	if r.Result != "pass" || len(r.Violations) != 0 || r.BreakingAgainst != nil {
		t.Fatalf("%s %+v %+v", r.Result, r.Violations, r.BreakingAgainst)
	}
	if len(r.Warnings) != 1 || !strings.Contains(r.Warnings[0], "--breaking-against") || !strings.Contains(r.Warnings[0], "release-*") ||
		strings.Contains(r.Warnings[0], "\n") {
		t.Fatalf("warnings %q", r.Warnings)
	}
}

func TestBreakingAgainstAnUnknownRefNamesTheInput(t *testing.T) {
	head, _ := releases(t)
	r := against(t, head, "v9")
	if r.ExitCode != exitcode.Unusable || len(r.Errors) != 1 || !strings.HasPrefix(r.Errors[0], `release checkout: --breaking-against is "v9": v9 is no tag`) {
		t.Fatalf("exit %d, errors %q", r.ExitCode, r.Errors)
	}
}

// A release that is the base commit is not checked twice.
func TestBreakingAgainstTheBaseCommitRunsOnce(t *testing.T) {
	head, _ := releases(t)
	gitIn(t, head, "tag", "v3")
	r := against(t, head, "latest-tag:v*")
	if a := r.BreakingAgainst; a == nil || a.Ref != "v3" || !a.SameAsBase || hasStage(r, "buf breaking (release)") {
		t.Fatalf("%+v, stages %+v", r.BreakingAgainst, r.Stages)
	}
}

func hasStage(r *report.Report, name string) bool {
	for _, s := range r.Stages {
		if s.Name == name {
			return true
		}
	}
	return false
}

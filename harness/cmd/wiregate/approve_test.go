package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wiregate/wiregate/harness/parent/config"
	"github.com/wiregate/wiregate/harness/parent/inputs"
	"github.com/wiregate/wiregate/harness/parent/report"
	"github.com/wiregate/wiregate/harness/program/exitcode"
)

// approveWith runs `wiregate approve` on r with these approvals and the
// base's wiregate.yaml (baseYAML; nil: no --base-config), and returns the
// decided report and the command's error.
func approveWith(t *testing.T, r *report.Report, a report.Approvals, baseYAML *string, extra ...string) (*report.Report, error) {
	t.Helper()
	dir := t.TempDir()
	write := func(name string, v any) string {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	args := []string{"--report", write("in.json", r), "--approvals", write("approvals.json", a), "--out", filepath.Join(dir, "out")}
	if baseYAML != nil {
		p := filepath.Join(dir, "base.yaml")
		if err := os.WriteFile(p, []byte(*baseYAML), 0o644); err != nil {
			t.Fatal(err)
		}
		args = append(args, "--base-config", p)
	}
	err := cmdApprove(context.Background(), append(args, extra...))
	out, rerr := readReport(filepath.Join(dir, "out", "report.json"))
	if rerr != nil && err == nil {
		t.Fatal(rerr)
	}
	return out, err
}

// forged is a report a fork's run could upload: a size regression of 20%
// with its violations removed and "pass", under rules that allow 50%, name
// the pull request's author an approver and let them approve themselves.
func forged() *report.Report {
	r := report.New()
	d := 20.0
	r.Messages = []report.Message{{Name: "orders.v1.Order", Formats: []report.Format{{Format: "protobuf", Size: &report.Size{Base: 100, Head: 120, DeltaPct: &d}, Metrics: []report.Metric{}}}}}
	r.Findings = []report.Finding{{Kind: report.KindBreaking, File: "a/order.proto", Line: 3, Rule: "FIELD_SAME_TYPE", Message: `Field "2" changed type.`}}
	defaults, err := inputs.Parse(inputs.Map(nil))
	if err != nil {
		panic(err)
	}
	cfg, err := config.Parse([]byte("thresholds: {size: 50%}\napprovers: [author]\nself-approve: true\n"), config.FileName, defaults.Config())
	if err != nil {
		panic(err)
	}
	r.Rules = &report.Rules{Config: cfg}
	r.Result, r.ExitReason = "pass", "pass"
	return r
}

// A forged report is decided again by the base's rules: its figures past
// the base's threshold fail, the author's own approval is refused, and the
// comment names each rule the report changed. Without --base-config the
// report's own rules still decide (a gate's or a merge's report).
func TestApproveDecidesByTheBasesRules(t *testing.T) {
	none := ""
	r := forged()
	mine := "/wiregate approve " + report.ViolationID(report.Violation{Kind: report.KindBreaking, Subject: "a/order.proto", Detail: `Field "2" changed type. (FIELD_SAME_TYPE)`, File: "a/order.proto"})
	own := report.Approvals{Comments: []report.Comment{{ID: 1, URL: "u", Author: "author", Body: mine, CreatedAt: "2026-11-24T10:00:00Z", UpdatedAt: "2026-11-24T10:00:00Z"}},
		Authors: []report.Author{{Login: "author", Permission: "read"}}, PRAuthor: "author"}
	if trusting, err := approveWith(t, forged(), own, nil); err != nil || trusting.Result != "pass" {
		t.Fatalf("the report's own rules (50%%, self-approve) pass it; got %v", err)
	}
	got, err := approveWith(t, r, own, &none)
	if exitcode.Code(err) != exitcode.Failed || got.Result != "fail" || got.ExitCode != exitcode.Failed {
		t.Fatalf("decided by the base: %v, %s", err, got.Result)
	}
	kinds := map[string]bool{}
	for _, v := range got.Violations {
		kinds[v.Kind] = v.Approved == nil
	}
	if !kinds[report.KindSize] || !kinds[report.KindBreaking] {
		t.Errorf("want an unapproved size and breaking violation: %+v", got.Violations)
	}
	if len(got.Approvals) != 1 || got.Approvals[0].Status != report.ApprovalRefused || !strings.Contains(got.Approvals[0].Why, "cannot approve its own change") {
		t.Errorf("the author's approval: %+v", got.Approvals)
	}
	w := strings.Join(got.Warnings, "\n")
	for _, want := range []string{"not the base's wiregate.yaml", `approvers: ["author"], not none`, "self_approve: true, not false", `"size_pct":50`} {
		if !strings.Contains(w, want) {
			t.Errorf("warnings %q lack %q", w, want)
		}
	}
	// The base's own wiregate.yaml, the same as the report's: no warning.
	same := "thresholds: {size: 50%}\napprovers: [author]\nself-approve: true\n"
	if got, _ := approveWith(t, forged(), own, &same); len(got.Warnings) != 0 || got.Result != "pass" {
		t.Errorf("same rules: %s %q", got.Result, got.Warnings)
	}
	// Labels come from the flag, not the report.
	r = forged()
	r.Rules.Labels = []string{"wiregate allow regression", "wiregate allow breaking"}
	if got, _ := approveWith(t, r, report.Approvals{}, &none, "--labels", "[]"); got.Result != "fail" {
		t.Errorf("the report's labels counted: %s", got.Result)
	}
}

// A base wiregate.yaml that does not parse stops the approval with one
// line naming it: exit 2.
func TestApproveBadBaseConfig(t *testing.T) {
	bad := "thresholds: {size: lots}\n"
	_, err := approveWith(t, forged(), report.Approvals{}, &bad)
	if exitcode.Code(err) != exitcode.Unusable || !strings.Contains(err.Error(), "the base's wiregate.yaml line 1: thresholds.size") {
		t.Fatalf("%v", err)
	}
}

package render

import (
	"testing"

	md "github.com/wiregate/wiregate/harness/parent/render/markdown"
	"github.com/wiregate/wiregate/harness/parent/report"
)

// A check's row and its violations' row say one state: one violation
// approved and another only allowed by a label is allowed in both, not
// approved (markState).
func TestACheckRowSaysItsViolationsState(t *testing.T) {
	approvedOne := report.Violation{Kind: report.KindBreaking, Detail: "a", Approved: &report.Approval{By: "x", At: "2024-01-01T00:00:00Z", URL: "https://example.com/1"}}
	allowedOne := report.Violation{Kind: report.KindBreaking, Detail: "b", Allowed: true}
	r := &report.Report{Stages: []report.Stage{{Name: "buf breaking"}}, Violations: []report.Violation{approvedOne, allowedOne}}
	status := checkRow(r, report.KindBreaking, md.F("buf breaking"), "buf breaking", "")[1].Source()
	if status != "⚠️ 2 (allowed)" || mark(r.Violations).Source() != "⚠️ allowed" {
		t.Errorf("check %q, row %q", status, mark(r.Violations).Source())
	}
	r.Violations[1] = report.Violation{Kind: report.KindBreaking, Detail: "b", Approved: approvedOne.Approved}
	if status := checkRow(r, report.KindBreaking, md.F("buf breaking"), "buf breaking", "")[1].Source(); status != "✅ 2 (approved)" {
		t.Error(status)
	}
}

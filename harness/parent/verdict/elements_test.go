package verdict

import (
	"strings"
	"testing"

	"github.com/wiregate/wiregate/harness/parent/report"
)

// release is buf's findings (buf 1.75, FILE and WIRE_JSON) on one pull
// request: field 7 of Sample renamed and retyped in one commit (four
// rules), field 1 renamed (two), field 3 deleted (three), an enum value
// renamed, and a field retyped in another file.
func release() *report.Report {
	r := report.New()
	f := func(file, rule, message string) report.Finding {
		return report.Finding{Kind: report.KindBreaking, File: file, Line: 3, Rule: rule, Message: message}
	}
	const a, b = "schemas/profiles/v1/profile.proto", "schemas/profiles/v1/other.proto"
	r.Findings = []report.Finding{
		f(a, "FIELD_NO_DELETE", `Previously present field "3" with name "gone" on message "Sample" was deleted.`),
		f(a, "FIELD_NO_DELETE_UNLESS_NAME_RESERVED", `Previously present field "3" with name "gone" on message "Sample" was deleted without reserving the name "gone".`),
		f(a, "FIELD_NO_DELETE_UNLESS_NUMBER_RESERVED", `Previously present field "3" with name "gone" on message "Sample" was deleted without reserving the number "3".`),
		f(a, "FIELD_SAME_JSON_NAME", `Field "7" with name "profile_id" on message "Sample" changed option "json_name" from "commentStrindices" to "profileId".`),
		f(a, "FIELD_SAME_TYPE", `Field "7" with name "profile_id" on message "Sample" changed type from "int32" to "bytes".`),
		f(a, "FIELD_WIRE_JSON_COMPATIBLE_TYPE", `Field "7" with name "profile_id" on message "Sample" changed type from "int32" to "bytes". See https://developers.google.com/protocol-buffers/docs/proto3#updating for wire compatibility rules.`),
		f(a, "FIELD_SAME_NAME", `Field "7" on message "Sample" changed name from "comment_strindices" to "profile_id".`),
		f(a, "FIELD_SAME_JSON_NAME", `Field "1" with name "samples" on message "Sample" changed option "json_name" from "sample" to "samples".`),
		f(a, "FIELD_SAME_NAME", `Field "1" on message "Sample" changed name from "sample" to "samples".`),
		f(a, "ENUM_VALUE_SAME_NAME", `Enum value "1" on enum "Color" changed name from "COLOR_RED" to "COLOR_CRIMSON".`),
		f(b, "FIELD_SAME_TYPE", `Field "1" with name "a" on message "Other" changed type from "string" to "int64".`),
		f(b, "FIELD_WIRE_JSON_COMPATIBLE_TYPE", `Field "1" with name "a" on message "Other" changed type from "string" to "int64". See https://developers.google.com/protocol-buffers/docs/proto3#updating for wire compatibility rules.`),
	}
	return r
}

func element(r *report.Report, container, number string) report.Element {
	for _, e := range r.Elements {
		if e.Container == container && e.Number == number {
			return e
		}
	}
	return report.Element{}
}

// A field renamed and retyped in one commit is one element: one id, the
// words for both changes, its four rules; every other element its own.
func TestAFieldRenamedAndRetypedIsOneElement(t *testing.T) {
	r := decide(release(), "")
	if len(r.Violations) != 12 || len(r.Elements) != 5 {
		t.Fatalf("%d violations, %d elements: %+v", len(r.Violations), len(r.Elements), r.Elements)
	}
	e := element(r, "Sample", "7")
	want := []report.ElementChange{{What: "json_name", From: "commentStrindices", To: "profileId"}, {What: "type", From: "int32", To: "bytes"},
		{What: "name", From: "comment_strindices", To: "profile_id"}}
	if len(e.Violations) != 4 || e.Name != "profile_id" || e.Member != "field" || len(e.Rules) != 4 || !equalChanges(e.Changes, want) {
		t.Fatalf("field 7: %+v", e)
	}
	if e.ID == e.Violations[0] || !strings.HasPrefix(e.ID, "wg-") || e.ApproveWith != "/wiregate approve "+e.ID {
		t.Errorf("field 7's id %q approve %q", e.ID, e.ApproveWith)
	}
	// A lone finding's element is the finding: its id does not change.
	if c := element(r, "Color", "1"); len(c.Violations) != 1 || c.ID != c.Violations[0] {
		t.Errorf("enum value: %+v", c)
	}
	// The same findings in another order make the same element id.
	again := release()
	for i, j := 0, len(again.Findings)-1; i < j; i, j = i+1, j-1 {
		again.Findings[i], again.Findings[j] = again.Findings[j], again.Findings[i]
	}
	if got := element(decide(again, ""), "Sample", "7").ID; got != e.ID {
		t.Errorf("reordered: %s, want %s", got, e.ID)
	}
}

func equalChanges(a, b []report.ElementChange) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// The comment's approve-all line names every blocking finding (by its
// elements); posting it approves all N, each approval recorded on its
// finding, and the gate passes. A line per file comes with it.
func TestTheApproveAllLineApprovesEveryBlockingFinding(t *testing.T) {
	r := decide(release(), "")
	if r.Result != "fail" || len(r.ApproveAll) != 1 {
		t.Fatalf("%s, approve all %q", r.Result, r.ApproveAll)
	}
	if words := strings.Fields(r.ApproveAll[0]); len(words) != 2+len(r.Elements) {
		t.Errorf("one id per element: %q", r.ApproveAll[0])
	}
	if len(r.ApproveFiles) != 2 || r.ApproveFiles[1].File != "schemas/profiles/v1/profile.proto" || len(strings.Fields(r.ApproveFiles[1].Line)) != 2+4 {
		t.Errorf("per file: %+v", r.ApproveFiles)
	}
	posted := decide(release(), "", comment(1, "writer", "looks right\n"+r.ApproveAll[0]+" the v2 release", "2026-11-24T10:00:00Z"))
	if posted.Result != "pass" || posted.ExitCode != 0 {
		t.Fatalf("after posting: %s %d", posted.Result, posted.ExitCode)
	}
	for _, v := range posted.Violations {
		if v.Approved == nil || v.Approved.By != "writer" || v.Approved.Reason != "the v2 release" {
			t.Errorf("%s not approved: %+v", v.ID, v.Approved)
		}
	}
	for _, n := range posted.Approvals {
		if n.Status != report.ApprovalCounted {
			t.Errorf("note %+v", n)
		}
	}
	if len(posted.ApproveAll) != 0 {
		t.Errorf("nothing left to approve: %q", posted.ApproveAll)
	}
	// A file's line approves that file's findings and no other.
	one := decide(release(), "", comment(1, "writer", r.ApproveFiles[0].Line, "2026-11-24T10:00:00Z"))
	for _, v := range one.Violations {
		if (v.File == r.ApproveFiles[0].File) != (v.Approved != nil) {
			t.Errorf("%s in %s approved: %v", v.ID, v.File, v.Approved != nil)
		}
	}
}

// An element's approval covers its findings as they stood: a rule that
// fires on it later is a new finding, and the approved ones stay approved.
func TestAnElementApprovalDoesNotCoverALaterRule(t *testing.T) {
	before := release()
	before.Findings = before.Findings[:6] // field 7 without FIELD_SAME_NAME
	id := element(decide(before, ""), "Sample", "7").ID
	r := decide(release(), "", comment(1, "writer", "/wiregate approve "+id, "2026-11-24T10:00:00Z"))
	if element(r, "Sample", "7").ID == id {
		t.Fatal("a new rule hit must change the element's id")
	}
	approved, blocking := 0, 0
	for _, v := range r.Violations {
		if !strings.Contains(v.Detail, `Field "7"`) {
			continue
		}
		if v.Approved != nil {
			approved++
		} else {
			blocking++
		}
	}
	if approved != 3 || blocking != 1 || r.Result != "fail" {
		t.Errorf("approved %d, blocking %d, %s", approved, blocking, r.Result)
	}
	if len(r.Approvals) != 1 || r.Approvals[0].Status != report.ApprovalCounted {
		t.Errorf("notes %+v", r.Approvals)
	}
}

// Measured regressions approve up to their own amounts, one command each:
// the block carries their lines after the schema line, and posting the
// whole block approves every one.
func TestTheApproveAllBlockCoversMeasuredRegressions(t *testing.T) {
	both := func() *report.Report {
		r := release()
		r.Messages = sizeReport(12).Messages
		return r
	}
	r := decide(both(), "")
	if len(r.ApproveAll) != 2 || !strings.Contains(r.ApproveAll[1], " up to 12.0%") {
		t.Fatalf("approve all %q", r.ApproveAll)
	}
	posted := decide(both(), "", comment(1, "writer", strings.Join(r.ApproveAll, "\n"), "2026-11-24T10:00:00Z"))
	if posted.Result != "pass" {
		t.Fatalf("after posting: %s, notes %+v", posted.Result, posted.Approvals)
	}
	for _, v := range posted.Violations {
		if v.Approved == nil {
			t.Errorf("%s %s not approved", v.Kind, v.ID)
		}
	}
}

package verdict

import (
	"strings"
	"testing"

	"github.com/wiregate/wiregate/harness/parent/report"
)

// An allow label answers to the rules a comment does: it counts when the
// person who last applied it may approve, and says why not otherwise.
func TestALabelCountsOnlyByWhoAppliedIt(t *testing.T) {
	price := `Field "2" with name "price" on message "Order" changed type from "double" to "int64".`
	labeledBy := func(yaml string, labeled ...report.Labeled) *report.Report {
		r := breakingReport(price)
		r.Rules = &report.Rules{Config: cfgWith(yaml), Labels: []string{"bug", "Wiregate Allow Breaking"},
			Approvals: report.Approvals{Labeled: labeled, Authors: append(people, report.Author{Login: "labeler[bot]", Permission: "write", Bot: true}), PRAuthor: "author"}}
		Decide(r)
		return r
	}
	by := func(login string) report.Labeled { return report.Labeled{Label: "wiregate allow breaking", By: login} }
	for _, c := range []struct {
		name    string
		yaml    string
		labeled []report.Labeled
		allowed bool
		why     string
	}{
		{"a writer", "", []report.Labeled{by("writer")}, true, ""},
		{"the pull request's author, self-approve false", "", []report.Labeled{by("author")}, false, "cannot approve its own change"},
		{"the pull request's author, self-approve true", "self-approve: true\n", []report.Labeled{by("author")}, true, ""},
		{"a reader", "", []report.Labeled{by("reader")}, false, "@reader has read permission"},
		{"a reader in an approver team", "approvers: [acme/schema-owners]\n", []report.Labeled{by("teamed")}, true, ""},
		{"a bot", "", []report.Labeled{by("labeler[bot]")}, false, "is a bot"},
		{"nobody known", "", nil, false, "who applied it is not known"},
		{"a writer, then the author last", "", []report.Labeled{by("writer"), by("author")}, false, "cannot approve its own change"},
	} {
		r := labeledBy(c.yaml, c.labeled...)
		v := r.Violations[0]
		var note *report.ApprovalNote
		for i := range r.Approvals {
			if r.Approvals[i].Action == "label" {
				note = &r.Approvals[i]
			}
		}
		if v.Allowed != c.allowed || (r.Result == "pass") != c.allowed || note == nil || note.ID != "Wiregate Allow Breaking" ||
			(note.Status == report.ApprovalCounted) != c.allowed || !strings.Contains(note.Why, c.why) {
			t.Errorf("%s: allowed %v, result %s, notes %+v", c.name, v.Allowed, r.Result, r.Approvals)
		}
	}
}

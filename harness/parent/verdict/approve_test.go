package verdict

import (
	"fmt"
	"strings"
	"testing"

	"github.com/wiregate/wiregate/harness/parent/report"
)

// breakingReport is one breaking finding; sizeReport one size regression
// of grow percent (5% threshold).
func breakingReport(message string) *report.Report {
	r := report.New()
	r.Findings = []report.Finding{{Kind: report.KindBreaking, File: "a/order.proto", Line: 12, Column: 3, Rule: "FIELD_SAME_TYPE", Message: message}}
	return r
}

func sizeReport(grow float64) *report.Report {
	return withFormat("protobuf", size(100, 100+grow))
}

// people are three authors: a writer, a reader, and the PR's author (who
// also has write permission).
var people = []report.Author{{Login: "writer", Permission: "write"}, {Login: "reader", Permission: "read"},
	{Login: "author", Permission: "write"}, {Login: "teamed", Permission: "read", Teams: []string{"acme/schema-owners"}}}

func comment(id int64, author, body, at string) report.Comment {
	return report.Comment{ID: id, URL: "https://github.example/o/r/pull/1#issuecomment-" + string(rune('0'+id)), Author: author, Body: body, CreatedAt: at, UpdatedAt: at}
}

// decide applies the verdict with these comments.
func decide(r *report.Report, yaml string, comments ...report.Comment) *report.Report {
	r.Rules = &report.Rules{Config: cfgWith(yaml), Approvals: report.Approvals{Comments: comments, Authors: people, PRAuthor: "author"}}
	Decide(r)
	return r
}

// A writer's approval turns the one violation approved and the check
// green; a reader's, an unknown id and the author's own (self-approve off)
// change nothing, each saying why.
func TestAWritersApprovalPassesTheGate(t *testing.T) {
	id := decide(breakingReport(`Field "2" with name "price" on message "Order" changed type from "double" to "int64".`), "").Violations[0].ID
	r := decide(breakingReport(`Field "2" with name "price" on message "Order" changed type from "double" to "int64".`), "",
		comment(1, "writer", "/wiregate approve "+id+" intended: prices are cents now", "2026-11-24T10:00:00Z"))
	v := r.Violations[0]
	if r.Result != "pass" || r.ExitCode != 0 || v.Approved == nil || v.Approved.By != "writer" || v.Approved.Reason != "intended: prices are cents now" {
		t.Fatalf("%s %d, %+v", r.Result, r.ExitCode, v.Approved)
	}
	if len(r.Approvals) != 1 || r.Approvals[0].Status != report.ApprovalCounted {
		t.Fatalf("notes %+v", r.Approvals)
	}
	for _, c := range []struct {
		comment report.Comment
		yaml    string
		status  string
		why     string
	}{
		{comment(1, "reader", "/wiregate approve "+id, "2026-11-24T10:00:00Z"), "", report.ApprovalRefused, "@reader has read permission"},
		{comment(1, "writer", "/wiregate approve wg-0000000000000000", "2026-11-24T10:00:00Z"), "", report.ApprovalUnknown, "no violation of this run is wg-0000000000000000"},
		{comment(1, "author", "/wiregate approve "+id, "2026-11-24T10:00:00Z"), "", report.ApprovalRefused, "cannot approve its own change"},
	} {
		r := decide(breakingReport(`Field "2" with name "price" on message "Order" changed type from "double" to "int64".`), c.yaml, c.comment)
		if r.Result != "fail" || r.Violations[0].Approved != nil || len(r.Approvals) != 1 || r.Approvals[0].Status != c.status || !strings.Contains(r.Approvals[0].Why, c.why) {
			t.Errorf("%s: %s, notes %+v", c.comment.Body, r.Result, r.Approvals)
		}
	}
	// The author may with self-approve; a team wiregate.yaml names may.
	if r := decide(breakingReport(`Field "2" with name "price" on message "Order" changed type from "double" to "int64".`), "self-approve: true\n",
		comment(1, "author", "/wiregate approve "+id, "2026-11-24T10:00:00Z")); r.Result != "pass" {
		t.Errorf("self-approve: %s %+v", r.Result, r.Approvals)
	}
	if r := decide(breakingReport(`Field "2" with name "price" on message "Order" changed type from "double" to "int64".`), "approvers: [acme/schema-owners]\n",
		comment(1, "teamed", "/wiregate approve "+id, "2026-11-24T10:00:00Z")); r.Result != "pass" {
		t.Errorf("an approver team's member: %s %+v", r.Result, r.Approvals)
	}
}

// A measured regression's approval covers it up to the approved amount
// plus the metric's noise floor; past that, or without an amount, it
// fails again; a later revoke withdraws an approval.
func TestAMeasuredApprovalCoversUpToItsAmount(t *testing.T) {
	id := decide(sizeReport(7.3), "").Violations[0].ID
	approve := comment(1, "writer", "/wiregate approve "+id+" up to 7.3% new field, planned", "2026-11-24T10:00:00Z")
	if r := decide(sizeReport(7.3), "", approve); r.Result != "pass" || *r.Violations[0].Approved.UpToPct != 7.3 {
		t.Fatalf("at the approved amount: %s %+v", r.Result, r.Approvals)
	}
	r := decide(sizeReport(9), "", approve)
	if r.Result != "fail" || r.Approvals[0].Status != report.ApprovalExceeded || r.Violations[0].ID != id {
		t.Fatalf("grown past it: %s %+v", r.Result, r.Approvals)
	}
	// instr/op, approved at +7.3%, now +7.5% within a 0.5% floor.
	cpu := func(grow float64) *report.Report {
		m := report.Metric{Name: "decode", Unit: "instr/op", Base: &report.Summary{Center: 1000, N: 2}, Head: &report.Summary{Center: 1000 * (1 + grow/100), N: 2},
			DeltaPct: f(grow), NoiseFloor: f(0.5), Significant: true}
		return withFormat("protobuf", nil, m)
	}
	cid := decide(cpu(7.3), "").Violations[0].ID
	if r := decide(cpu(7.5), "", comment(1, "writer", "/wiregate approve "+cid+" up to 7.3%", "2026-11-24T10:00:00Z")); r.Result != "pass" {
		t.Fatalf("+7.5%% within the floor of +7.3%%: %s %+v", r.Result, r.Approvals)
	}
	if r := decide(cpu(9), "", comment(1, "writer", "/wiregate approve "+cid+" up to 7.3%", "2026-11-24T10:00:00Z")); r.Result != "fail" {
		t.Fatalf("+9%%: %s", r.Result)
	}
	r = decide(sizeReport(7.3), "", comment(1, "writer", "/wiregate approve "+id, "2026-11-24T10:00:00Z"))
	if r.Result != "fail" || r.Approvals[0].Status != report.ApprovalAmount || !strings.Contains(r.Approvals[0].Why, "up to 7.3%") {
		t.Fatalf("without an amount: %s %+v", r.Result, r.Approvals)
	}
	r = decide(sizeReport(7.3), "", approve, comment(2, "writer", "/wiregate revoke "+id, "2026-11-24T11:00:00Z"))
	if r.Result != "fail" || r.Violations[0].Approved != nil {
		t.Fatalf("revoked: %s %+v", r.Result, r.Approvals)
	}
}

// A throughput drop is approved by its size: the line the comment shows
// ("up to 12.3%") approves the -12.3% drop it names, and a deeper drop
// needs a new approval.
func TestAThroughputDropIsApprovedByItsSize(t *testing.T) {
	x := decide(pipeline("protobuf", -12.3, 0.002), "").Violations[0]
	if want := "/wiregate approve " + x.ID + " up to 12.3%"; x.ApproveWith != want {
		t.Fatalf("approve line %q, want %q", x.ApproveWith, want)
	}
	line := comment(1, "writer", x.ApproveWith+" consumer batching changed", "2026-11-24T10:00:00Z")
	if r := decide(pipeline("protobuf", -12.3, 0.002), "", line); r.Result != "pass" || r.Violations[0].Approved == nil {
		t.Fatalf("the posted line: %s %+v", r.Result, r.Approvals)
	}
	if r := decide(pipeline("protobuf", -15, 0.002), "", line); r.Result != "fail" || r.Approvals[0].Status != report.ApprovalExceeded {
		t.Fatalf("a deeper drop: %s %+v", r.Result, r.Approvals)
	}
}

// A new, different breaking change is not covered by the first one's
// approval: its id is its own. Ids do not move with lines, and two
// findings of one rule on different fields have different ids.
func TestIDsFollowWhatAViolationIs(t *testing.T) {
	price := `Field "2" with name "price" on message "Order" changed type from "double" to "int64".`
	qty := `Field "3" with name "qty" on message "Order" changed type from "int32" to "string".`
	moved := breakingReport(price)
	moved.Findings[0].Line, moved.Findings[0].Column = 40, 7
	a, b := decide(breakingReport(price), "").Violations[0].ID, decide(moved, "").Violations[0].ID
	c := decide(breakingReport(qty), "").Violations[0].ID
	if a != b || a == c || !strings.HasPrefix(a, "wg-") || len(a) != len("wg-")+report.IDDigits {
		t.Fatalf("ids %s %s %s", a, b, c)
	}
	both := breakingReport(price)
	both.Findings = append(both.Findings, breakingReport(qty).Findings...)
	r := decide(both, "", comment(1, "writer", "/wiregate approve "+a, "2026-11-24T10:00:00Z"))
	if r.Result != "fail" || r.Violations[0].Approved == nil == (r.Violations[1].Approved == nil) {
		t.Fatalf("the second breaking change rode on the first's approval: %+v", r.Violations)
	}
}

// A command counts only as a plain line: a maintainer showing the line in
// a fenced or indented code block, a code span, a quote or a list approves
// nothing; the same line on its own approves.
func TestOnlyAPlainLineApproves(t *testing.T) {
	price := `Field "2" with name "price" on message "Order" changed type from "double" to "int64".`
	id := decide(breakingReport(price), "").Violations[0].ID
	line := "/wiregate approve " + id
	for name, body := range map[string]string{
		"fenced":            "How would one approve?\n\n```\n" + line + "\n```\n",
		"fenced, tildes":    "~~~text\n" + line + "\n~~~",
		"fenced, unclosed":  "```\n" + line,
		"indented":          "How would one approve?\n\n    " + line + "\n",
		"inline code":       "`" + line + "`",
		"inline code, ids":  "/wiregate approve `" + id + "`",
		"inline code, line": "try\n`" + line + "` like this",
		"quoted":            "> " + line,
		"quoted, lazy":      "> why\n" + line,
		"list":              "- " + line,
		"html":              "<details>\n" + line + "\n</details>",
		"mid-line":          "one writes " + line,
	} {
		r := decide(breakingReport(price), "", comment(1, "writer", body, "2026-11-24T10:00:00Z"))
		if r.Result != "fail" || r.Violations[0].Approved != nil || len(r.Approvals) != 0 {
			t.Errorf("%s: %q approved: %s %+v", name, body, r.Result, r.Approvals)
		}
	}
	for name, body := range map[string]string{
		"alone":             line,
		"after a paragraph": "Checked with the consumers.\n" + line + " prices are cents now",
		"after a fence":     "```\nnot this\n```\n" + line,
		"reason in code":    line + " the `price` field",
	} {
		r := decide(breakingReport(price), "", comment(1, "writer", body, "2026-11-24T10:00:00Z"))
		if r.Result != "pass" || r.Violations[0].Approved == nil {
			t.Errorf("%s: %q did not approve: %s %+v", name, body, r.Result, r.Approvals)
		}
	}
	r := decide(breakingReport(price), "", comment(1, "writer", line+" the `price` field", "2026-11-24T10:00:00Z"))
	if got := r.Violations[0].Approved.Reason; got != "the `price` field" {
		t.Errorf("reason %q: a code span is kept in it", got)
	}
}

// A bot's approve line approves nothing, whatever permission GitHub
// reports for it: an app's login ends in [bot], and GitHub's user type Bot
// marks any other.
func TestABotNeverApproves(t *testing.T) {
	price := `Field "2" with name "price" on message "Order" changed type from "double" to "int64".`
	id := decide(breakingReport(price), "").Violations[0].ID
	for _, bot := range []report.Author{{Login: "github-actions[bot]", Permission: "write"}, {Login: "release-robot", Permission: "admin", Bot: true}} {
		r := breakingReport(price)
		r.Rules = &report.Rules{Config: cfgWith("approvers: [" + strings.TrimSuffix(bot.Login, "[bot]") + "]\n"), Approvals: report.Approvals{
			Comments: []report.Comment{comment(1, bot.Login, "/wiregate approve "+id, "2026-11-24T10:00:00Z")},
			Authors:  append([]report.Author{bot}, people...), PRAuthor: "author"}}
		Decide(r)
		if r.Result != "fail" || r.Violations[0].Approved != nil || len(r.Approvals) != 1 || r.Approvals[0].Status != report.ApprovalRefused ||
			!strings.Contains(r.Approvals[0].Why, "is a bot") {
			t.Errorf("%s approved: %s %+v", bot.Login, r.Result, r.Approvals)
		}
	}
	// The same line from a person with write permission approves.
	if r := decide(breakingReport(price), "", comment(1, "writer", "/wiregate approve "+id, "2026-11-24T10:00:00Z")); r.Result != "pass" {
		t.Errorf("a writer: %s %+v", r.Result, r.Approvals)
	}
}

// Two findings whose ids share their first 24 bits (what an id was before:
// found by brute force over a field name, as an attacker would): an
// approval of one does not cover the other, and the shared short prefix
// approves neither.
func TestAnApprovalCoversOnlyItsWholeID(t *testing.T) {
	finding := func(field string) report.Finding {
		return report.Finding{Kind: report.KindBreaking, File: "a/order.proto", Rule: "FIELD_NO_DELETE",
			Message: `Previously present field "9" with name "` + field + `" on message "Order" was deleted.`}
	}
	idOf := func(f report.Finding) string {
		return report.ViolationID(report.Violation{Kind: f.Kind, File: f.File, Detail: f.Message + " (" + f.Rule + ")"})
	}
	seen := map[string]report.Finding{}
	var harmless, harmful report.Finding
	for i := 0; ; i++ {
		f := finding(fmt.Sprintf("f%d", i))
		short := idOf(f)[:len("wg-")+6]
		if g, ok := seen[short]; ok {
			harmless, harmful = g, f
			break
		}
		seen[short] = f
	}
	both := func() *report.Report {
		r := report.New()
		r.Findings = []report.Finding{harmless, harmful}
		return r
	}
	r := decide(both(), "")
	ids := map[string]string{}
	for _, v := range r.Violations {
		ids[v.Detail] = v.ID
	}
	good, bad := ids[harmless.Message+" ("+harmless.Rule+")"], ids[harmful.Message+" ("+harmful.Rule+")"]
	if good == "" || bad == "" || good == bad || good[:9] != bad[:9] || len(good) != len("wg-")+report.IDDigits {
		t.Fatalf("ids %q and %q (violations %+v)", good, bad, r.Violations)
	}
	r = decide(both(), "", comment(1, "writer", "/wiregate approve "+good+" harmless", "2026-11-24T10:00:00Z"))
	for _, v := range r.Violations {
		if (v.ID == good) != (v.Approved != nil) {
			t.Errorf("%s approved=%v after approving %s", v.ID, v.Approved != nil, good)
		}
	}
	if r.Result != "fail" {
		t.Errorf("the harmful finding is not approved, so the gate fails: %s", r.Result)
	}
	r = decide(both(), "", comment(1, "writer", "/wiregate approve "+good[:9]+" by the short id", "2026-11-24T10:00:00Z"))
	if r.Result != "fail" || r.Violations[0].Approved != nil || r.Violations[1].Approved != nil || len(r.Approvals) != 1 ||
		r.Approvals[0].Status != report.ApprovalUnknown || !strings.Contains(r.Approvals[0].Why, "is not a whole id") {
		t.Errorf("a short id: %s %+v", r.Result, r.Approvals)
	}
}

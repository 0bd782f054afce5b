package verdict

import (
	"strings"

	"github.com/wiregate/wiregate/harness/parent/report"
)

// labelsAllow is what the pull request's allow labels allow, and a note
// per allow label. A label answers to the rules a comment does (refusal):
// it counts only when the person who last applied it (rules.Labeled, from
// the pull request's timeline) may approve, so a pull request's author
// with triage rights cannot label away what self-approve refuses them,
// and a label nobody is known to have applied allows nothing.
func labelsAllow(rules *report.Rules) (Allow, []report.ApprovalNote) {
	var allow Allow
	var notes []report.ApprovalNote
	for _, label := range rules.Labels {
		if AllowFromLabels([]string{label}) == (Allow{}) {
			continue
		}
		note := report.ApprovalNote{Action: "label", ID: label, Status: report.ApprovalCounted}
		by, known := labeler(rules.Labeled, label)
		switch why := refusal(rules, rules.Config, by); {
		case !known:
			note.Status, note.Why = report.ApprovalRefused, "who applied it is not known (no labeled event on the pull request's timeline names them)"
		case why != "":
			note.By, note.Status, note.Why = by, report.ApprovalRefused, why
		default:
			note.By = by
			a := AllowFromLabels([]string{label})
			allow.Breaking, allow.Regression = allow.Breaking || a.Breaking, allow.Regression || a.Regression
		}
		notes = append(notes, note)
	}
	return allow, notes
}

// labeler is who last applied label, by its name as GitHub matches it
// (case-insensitively).
func labeler(labeled []report.Labeled, label string) (string, bool) {
	for i := len(labeled) - 1; i >= 0; i-- {
		if strings.EqualFold(strings.TrimSpace(labeled[i].Label), strings.TrimSpace(label)) && labeled[i].By != "" {
			return labeled[i].By, true
		}
	}
	return "", false
}

package bufcheck

import "github.com/wiregate/wiregate/harness/parent/report"

// MarkExisting marks the head findings the base already has: the same
// file, rule and message (lines move when anything above them changes, so
// they are not compared). Each base finding excuses one head finding, so
// a rule broken once more in a file than on the base leaves one of them
// new. A pull request is judged on the findings it adds, as
// golangci-lint's only-new-issues and reviewdog's filter-mode: added do.
func MarkExisting(head, base []report.Finding) []report.Finding {
	type key struct{ file, rule, message string }
	left := map[key]int{}
	for _, f := range base {
		left[key{f.File, f.Rule, f.Message}]++
	}
	out := make([]report.Finding, len(head))
	for i, f := range head {
		k := key{f.File, f.Rule, f.Message}
		if left[k] > 0 {
			left[k]--
			f.Existing = true
		}
		out[i] = f
	}
	return out
}

// Unjudged are the findings of own (a check with head's own rules) that
// judged (the same check with the base's rules) does not have: the same
// file, rule and message, counted as MarkExisting counts them.
func Unjudged(own, judged []report.Finding) []report.Finding {
	var out []report.Finding
	for _, f := range MarkExisting(own, judged) {
		if !f.Existing {
			out = append(out, f)
		}
	}
	return out
}

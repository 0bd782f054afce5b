package render

// Approving from the comment: the lines that approve everything that
// fails, and what the pull request's /wiregate comments did that did not
// approve: a refused approval (its author may not), an id no violation
// has, a regression grown past its approved amount, a measured one
// approved without an amount; and an allow label whoever applied it may
// not give. Counted approvals show on their violations.

import (
	"strings"

	md "github.com/wiregate/wiregate/harness/parent/render/markdown"
	"github.com/wiregate/wiregate/harness/parent/report"
)

var statusWords = map[string]string{
	report.ApprovalRefused:  "did not count",
	report.ApprovalUnknown:  "matched nothing",
	report.ApprovalExceeded: "no longer covers it",
	report.ApprovalAmount:   "needs an amount",
}

func approvalNotes(r *report.Report) Part {
	var lines []md.Md
	for _, a := range r.Approvals {
		if a.Status == report.ApprovalCounted {
			continue
		}
		what := md.Code("/wiregate " + a.Action + " " + a.ID)
		if a.Action == "label" {
			what = md.F("label {}", md.Code(a.ID))
		}
		who := md.F("nobody known")
		if a.By != "" {
			who = md.CommentLink(md.F("@{}", a.By), a.URL)
		}
		status, ok := statusWords[a.Status]
		if !ok {
			status = a.Status
		}
		why := md.Empty
		if a.Why != "" {
			why = md.F(": {}", a.Why)
		}
		lines = append(lines, md.F("- {}: {} {}{}", who, what, status, why))
	}
	if len(lines) == 0 {
		return Part{}
	}
	return Part{Md: md.F("#### Approvals\n\n{}", md.Join(lines, md.F("\n")))}
}

// approveAllParts are the lines that approve every blocking violation, as
// the gate wrote them: one block to post as one comment (schema findings
// by element on its first line, each measured regression on its own, with
// its amount), then a line per file where the findings span several. When
// the comment is full, the measured regressions' lines go (the job summary
// keeps them); the schema line stays.
func approveAllParts(r *report.Report) []Part {
	all := r.ApproveAll
	if len(all) == 0 {
		return nil
	}
	var schema []string
	for _, l := range all {
		if !strings.Contains(l, " up to ") {
			schema = append(schema, l)
		}
	}
	block := func(lines []string) md.Md {
		return md.F("**To approve everything that fails**, post as one comment:\n\n{}", md.CodeBlock("text", strings.Join(lines, "\n")))
	}
	var parts []Part
	if len(schema) == len(all) || len(schema) == 0 {
		parts = append(parts, Part{Md: block(all)})
	} else {
		compact := md.F("{}\n\n<sub>and {}, whose lines the job summary has.</sub>", block(schema), count(len(all)-len(schema), "measured regression", "measured regressions"))
		parts = append(parts, Part{Md: block(all), Cut: cutApproveLines, Compact: &Part{Md: compact}})
	}
	if len(r.ApproveFiles) > 0 {
		files := make([]md.Md, len(r.ApproveFiles))
		for i, f := range r.ApproveFiles {
			files[i] = md.F("- {}: {}", md.Code(f.File), md.Code(f.Line))
		}
		parts = append(parts, Part{Md: md.F("<sub>Or by file:</sub>\n\n{}", md.Join(files, md.F("\n")))})
	}
	return parts
}

package render

import (
	"strings"

	md "github.com/wiregate/wiregate/harness/parent/render/markdown"
	"github.com/wiregate/wiregate/harness/parent/report"
)

// StickyMarker identifies the one comment a workflow's job owns on a pull
// request (or a merge request's note): gate, publish and approve mode make
// the same marker for the same gating job, so all edit one comment. A
// workflow's name is the pull request's to choose (a pull_request run uses
// its workflow file): characters that could end the HTML comment become _.
func StickyMarker(workflow, job string) string {
	return "<!-- wiregate:" + plainName(workflow) + "/" + plainName(job) + " -->"
}

// plainName keeps letters, digits and a little punctuation of a name, one
// _ for each other UTF-16 unit, and no run of dashes.
func plainName(s string) string {
	out := md.KeepOnly(s, "_ .()/+-")
	for strings.Contains(out, "--") {
		out = strings.ReplaceAll(out, "--", "-")
	}
	return out
}

// Comment is the comment's body: its marker first, then the parts within
// GitHub's limit (Fit cuts detail first, never what changed), saying where
// the whole is: ctx.Whole (the job summary by default) of the run at
// ctx.RunURL. Nothing else in it can be a marker: report text reaches it
// escaped.
func Comment(marker string, parts []Part, ctx Context) string {
	where := ctx.Whole
	if where == "" {
		where = "the job summary"
	}
	whole := md.F("{}", where)
	if ctx.RunURL != "" {
		whole = md.F("{} of {}", where, md.Link(md.F("this run"), ctx.RunURL))
	}
	return marker + "\n" + Fit(parts, Room{Limit: CommentLimit - md.UTF16Len(marker) - 1, Whole: whole})
}

// ReportComment is a report's comment: headed by lead (why it cannot be
// vouched for, when it cannot), linking the run at ctx.RunURL.
func ReportComment(marker string, r *report.Report, ctx Context, lead md.Md) string {
	parts := Parts(r, ctx)
	if !lead.Empty() {
		parts = append([]Part{{Md: lead}}, parts...)
	}
	return Comment(marker, parts, ctx)
}

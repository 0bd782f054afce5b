// Package render writes report.json as markdown: report.md, the job
// summary and the pull request's comment (a merge request note or any
// other place markdown goes). Every string of the report reaches the
// markdown through package markdown, which escapes it; the golden comments
// (test/golden) are what it writes, byte for byte.
package render

import (
	md "github.com/wiregate/wiregate/harness/parent/render/markdown"
	"github.com/wiregate/wiregate/harness/parent/report"
)

// Context is what the report is rendered for.
type Context struct {
	// RunURL links to the CI run, when there is one.
	RunURL string
	// Whole says where the whole report is, for a comment Fit cut: "the
	// job summary" when empty.
	Whole string
}

// Parts are report.json as the report's blocks, in reading order: the
// verdict, what fails (and the lines that approve it), what the time
// budget cut, the schema checks, then the change — each changed and new
// message with its verdict — then one counted line for everything
// unchanged or removed, and the detail last. Fitting (Fit) decides which
// of them a comment has room for.
func Parts(r *report.Report, ctx Context) []Part {
	revs := md.F("base {} → head {}", revision(r.Base, "base"), revision(r.Head, "head"))
	if ctx.RunURL != "" {
		revs = md.F("{} · {}", revs, md.Link(md.F("run"), ctx.RunURL))
	}
	warnings := make([]md.Md, len(r.Warnings))
	for i, w := range r.Warnings {
		warnings[i] = md.F("> ⚠️ {}", w)
	}
	unavailable := md.Empty
	if r.CPUCost != nil && r.CPUCost.Unavailable != "" {
		unavailable = md.F("> ℹ️ Instructions not counted: {}.", r.CPUCost.Unavailable)
	}
	var parts []Part
	add := func(ps ...Part) { parts = append(parts, ps...) }
	add(Part{Md: verdictLine(r)}, Part{Md: revs}, Part{Md: md.Join(warnings, md.F("\n>\n"))}, Part{Md: noSchemaChanged(r)})
	add(violationsTable(r))
	add(approveAllParts(r)...)
	add(approvalNotes(r))
	add(cutParts(r)...)
	add(Part{Md: unavailable}, Part{Md: md.F("#### Schema checks\n\n{}", checksTable(r))}, Part{Md: bufRulesNote(r)}, existingDebt(r))
	add(changedParts(r)...)
	add(unchangedParts(r)...)
	add(skippedList(r))
	add(historyNote(r)...)
	add(benchstatDetails(r), noiseDetails(r), ignoredDetails(r), environmentDetails(r), stagesDetails(r), errorsDetails(r))
	kept := parts[:0]
	for _, p := range parts {
		if !p.Md.Empty() {
			kept = append(kept, p)
		}
	}
	return kept
}

// revision names a side as the gate sent it: its ref and short sha. The
// gate always sends one of them; where both are empty, head is the working
// tree (a local run) and the base was never resolved (the run stopped
// before it).
func revision(r report.Rev, side string) md.Md {
	sha := shortSha(r.Sha)
	switch {
	case r.Ref != "" && sha != "" && r.Ref != r.Sha && r.Ref != sha:
		return md.F("{} @ {}", md.Code(r.Ref), sha)
	case r.Ref != "" && r.Ref != r.Sha:
		return md.Code(r.Ref)
	case sha != "":
		return md.Code(sha)
	case side == "head":
		return md.F("the working tree")
	}
	return md.F("not resolved (the run stopped before choosing it)")
}

// Report is the whole report (report.md).
func Report(r *report.Report, ctx Context) string { return Assemble(Parts(r, ctx)) }

// Summary is the report within a job summary's size.
func Summary(r *report.Report, ctx Context) string { return Fit(Parts(r, ctx), SummaryRoom) }

// messageStatus is a message's status, read from unchanged_schema where
// the gate gave none.
func messageStatus(m report.Message) string {
	switch {
	case m.Status != "":
		return m.Status
	case m.UnchangedSchema:
		return report.StatusUnchanged
	}
	return report.StatusChanged
}

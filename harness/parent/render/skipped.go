package render

import (
	md "github.com/wiregate/wiregate/harness/parent/render/markdown"
	"github.com/wiregate/wiregate/harness/parent/report"
)

// skippedListed is how many skipped messages are listed as they are; more
// are folded.
const skippedListed = 5

// skippedList names the messages wiregate could not measure, one line
// each: the message, the file declaring it and why. Every other message
// was measured.
func skippedList(r *report.Report) Part {
	if len(r.Skipped) == 0 {
		return Part{}
	}
	lines := make([]md.Md, len(r.Skipped))
	for i, s := range r.Skipped {
		side := md.Empty
		if s.Side == "base" {
			side = md.F(" (the base only: head is measured, with nothing to compare against)")
		}
		lines[i] = md.F("- {} in {}{}: {}", md.Code(s.Message), md.Code(s.File), side, s.Reason)
	}
	list := md.Join(lines, md.F("\n"))
	if len(r.Skipped) <= skippedListed {
		return Part{Md: md.F("#### {}\n{}", md.F("Not measured ({})", len(r.Skipped)), list)}
	}
	line := md.F("{} messages wiregate cannot measure", len(r.Skipped))
	return Part{Md: md.Details(line, list), Cut: cutNames, Compact: &Part{Md: line}}
}

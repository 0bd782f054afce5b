package render

// The report's room: a GitHub comment holds 65,536 characters and a job
// summary 1 MiB. The renderer hands over the report as parts in reading
// order, each saying what it is (and so when it may go); fit drops kinds
// of detail, in cuts' order, until the report fits, and says what it
// dropped. What changed — each changed and new message's heading, verdict
// and what its records add — is never in a kind that goes.

import (
	md "github.com/wiregate/wiregate/harness/parent/render/markdown"
)

// CommentLimit is GitHub's limit on a comment body, in characters.
const CommentLimit = 65536

// SummaryLimit is GitHub's limit on a step's job summary, in bytes.
const SummaryLimit = 1024 * 1024

// Cut is a kind of detail fit may cut.
type Cut string

// The kinds of detail, in the order fit cuts them.
const (
	cutBenchstat       Cut = "benchstat"
	cutNoise           Cut = "noise"
	cutStages          Cut = "stages"
	cutEnvironment     Cut = "environment"
	cutIgnored         Cut = "ignored"
	cutUnchangedTables Cut = "unchanged tables"
	cutNames           Cut = "names"
	cutHistoryCharts   Cut = "history charts"
	cutBudgetNotes     Cut = "plan notes"
	cutGroupedSections Cut = "grouped sections"
	cutViolationRows   Cut = "violation rows"
	cutApproveLines    Cut = "approve lines"
	cutBytesCharts     Cut = "bytes charts"
	cutProfiles        Cut = "profiles"
	cutGroupRows       Cut = "group rows"
	cutGroupFigures    Cut = "group figures"
	cutMessageTables   Cut = "message tables"
)

// cuts are what fit may cut, first to last, with the words the cut note
// uses. A kind goes whole (every message keeps the same detail), except
// name lists: those go one at a time, the longest first, each leaving its
// count.
var cuts = []struct {
	kind     Cut
	words    string
	oneByOne bool
}{
	{cutBenchstat, "benchstat text", false},
	{cutNoise, "noise floors", false},
	{cutStages, "stage timings", false},
	{cutEnvironment, "environment", false},
	{cutIgnored, "ignored metrics", false},
	{cutUnchangedTables, "unchanged messages' tables", false},
	{cutNames, "folded name lists", true},
	{cutHistoryCharts, "history charts", false},
	{cutBudgetNotes, "the time budget's note per stage (the counts of what it cut stay)", false},
	{cutGroupedSections, "grouped messages' full sections (each has its row)", false},
	{cutViolationRows, "measured violations' rows (each message's verdict line has them)", false},
	{cutApproveLines, "measured regressions' lines in the approve-all block (its schema line stays)", false},
	{cutBytesCharts, "bytes/msg charts", false},
	// Why a failing count grew says what no other part does, so it stays
	// past the charts and the rows each verdict line repeats.
	{cutProfiles, "which functions grew in each cpu violation", false},
	{cutGroupRows, "groups' rows within every threshold", false},
	{cutGroupFigures, "failing group rows' figures (each counts its violations)", false},
	{cutMessageTables, "changed messages' tables", false},
}

// Part is a block of the report. Cut says which kind of detail it is;
// without one it is never cut. Compact is what stands in its place once it
// is (a count without its names, say), itself a part that may go later.
type Part struct {
	Md      md.Md
	Cut     Cut
	Compact *Part
}

// Room is how much a report may hold and where the whole of it is.
type Room struct {
	Limit int
	// Bytes counts the limit in UTF-8 bytes; else in characters (UTF-16
	// code units, never fewer than GitHub's characters).
	Bytes bool
	// Whole says where the whole report is: "the job summary of [this run](…)".
	Whole md.Md
}

// SummaryRoom is a job summary's.
var SummaryRoom = Room{Limit: SummaryLimit, Bytes: true, Whole: md.F("report.md and report.json")}

func (r Room) size(markdown string) int {
	if r.Bytes {
		return len(markdown)
	}
	return md.UTF16Len(markdown)
}

// Assemble is every part as it is: the whole report (report.md).
func Assemble(parts []Part) string {
	all := make([]md.Md, len(parts))
	for i, p := range parts {
		all[i] = p.Md
	}
	return md.Blocks(all...).Source() + "\n"
}

// Fit is the report within its room: the parts, less the kinds of detail
// cuts drops first, with one line saying what was cut and where the whole
// report is. Should what is never cut still not fit, the text is cut at a
// line as a last resort (Truncate).
func Fit(parts []Part, room Room) string {
	kept := append([]Part(nil), parts...)
	var cut []Cut
	render := func() string {
		all := make([]md.Md, 0, len(kept)+1)
		for _, p := range kept {
			all = append(all, p.Md)
		}
		return md.Blocks(append(all, cutNote(cut, room.Whole))...).Source() + "\n"
	}
	out := render()
	fits := func() bool { return room.size(out) <= room.Limit }
	for _, c := range cuts {
		for !fits() {
			going := map[int]bool{}
			longest := -1
			for i, p := range kept {
				if p.Cut != c.kind {
					continue
				}
				if !c.oneByOne {
					going[i] = true
				} else if longest < 0 || p.Md.Len() > kept[longest].Md.Len() {
					longest = i
				}
			}
			if longest >= 0 {
				going[longest] = true
			}
			if len(going) == 0 {
				break
			}
			for i := range going {
				if kept[i].Compact != nil {
					kept[i] = *kept[i].Compact
				} else {
					kept[i] = Part{}
				}
			}
			if len(cut) == 0 || cut[len(cut)-1] != c.kind {
				cut = append(cut, c.kind)
			}
			out = render()
		}
	}
	if fits() {
		return out
	}
	// Truncate counts UTF-16 units; one takes at most 3 bytes of UTF-8.
	chars := room.Limit
	if room.Bytes {
		chars = room.Limit / 3
	}
	return Truncate(out, chars, md.F("Report cut to fit; {} has all of it.", room.Whole))
}

func cutNote(cut []Cut, whole md.Md) md.Md {
	if len(cut) == 0 {
		return md.Empty
	}
	words := make([]md.Md, len(cut))
	for i, c := range cut {
		for _, k := range cuts {
			if k.kind == c {
				words[i] = md.F("{}", k.words)
			}
		}
	}
	return md.F("<sub>✂️ Cut to fit: {}. {} has all of it.</sub>", md.Join(words, md.F(", ")), whole)
}

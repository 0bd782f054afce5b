package render

// The comment leads with the change: changed and new messages in full,
// the rest (unchanged, removed) one counted line each with the names
// folded. An older report without a change set reads its messages'
// unchanged_schema instead (messageStatus).

import (
	"sort"

	md "github.com/wiregate/wiregate/harness/parent/render/markdown"
	"github.com/wiregate/wiregate/harness/parent/report"
)

// checkStages are the schema checks, by the gate's stage names, as "what
// ran" names them.
var checkStages = []struct {
	stage string
	name  string
}{
	{"buf lint", "lint"},
	{"buf breaking", "breaking"},
	{"avro-compatibility", "Avro compatibility"},
}

// noSchemaChanged says, when the pull request changed no message, so and
// what ran instead of measuring.
func noSchemaChanged(r *report.Report) md.Md {
	if r.Change == nil || !r.Change.NoSchemaChanged {
		return md.Empty
	}
	var ran []md.Md
	for _, c := range checkStages {
		for _, s := range r.Stages {
			if s.Name == c.stage && s.Error == "" {
				ran = append(ran, md.Text(c.name))
				break
			}
		}
	}
	checks := md.F("ran no schema check")
	if len(ran) > 0 {
		checks = md.F("ran {}", md.Join(ran, md.F(", ")))
	}
	return md.F("**No schema changed**: {}; nothing to measure (no message changed, was added or was removed).", checks)
}

// changedParts are the groups of messages that changed for one cause
// (groups.go), then the other changed messages (those failing first), then
// the new ones: in full, each with its verdict. A message the change set
// names that has no figures gets its heading and why.
func changedParts(r *report.Report) []Part {
	groups := grouped(r)
	inGroup := map[string]bool{}
	for _, g := range groups {
		for _, m := range g.Messages {
			inGroup[m] = true
		}
	}
	measuredNames := map[string]bool{}
	for _, m := range r.Messages {
		measuredNames[m.Name] = true
	}
	var changed, added []report.Message
	for _, m := range r.Messages {
		if inGroup[m.Name] {
			continue
		}
		switch messageStatus(m) {
		case report.StatusNew:
			added = append(added, m)
		case report.StatusUnchanged:
		default:
			changed = append(changed, m)
		}
	}
	fails := func(m report.Message) int {
		for _, v := range ofMessage(r, m.Name) {
			if v.Blocking() {
				return 0
			}
		}
		return 1
	}
	sort.SliceStable(changed, func(i, j int) bool { return fails(changed[i]) < fails(changed[j]) })
	missing := func(names []string, isNew bool) []Part {
		var out []Part
		for _, n := range names {
			if !measuredNames[n] && !inGroup[n] {
				out = append(out, unmeasuredPart(r, n, isNew))
			}
		}
		return out
	}
	var parts []Part
	for _, g := range groups {
		parts = append(parts, groupParts(r, g)...)
	}
	for _, m := range changed {
		parts = append(parts, messageParts(r, m)...)
	}
	if r.Change != nil {
		parts = append(parts, missing(r.Change.Changed, false)...)
	}
	for _, m := range added {
		parts = append(parts, messageParts(r, m)...)
	}
	if r.Change != nil {
		parts = append(parts, missing(r.Change.New, true)...)
	}
	if len(changed)+len(added)+len(groups) > 0 {
		parts = append(parts, sameContentOnly(r), Part{Md: cellsLegend, Cut: cutMessageTables})
	}
	return parts
}

// unchangedParts are one line for the unchanged messages not measured
// (the default), one for those measured anyway (measure: all, or an older
// gate), with their tables folded, and one for the removed messages.
func unchangedParts(r *report.Report) []Part {
	measuredNames := map[string]bool{}
	var unchanged []report.Message
	for _, m := range r.Messages {
		measuredNames[m.Name] = true
		if messageStatus(m) == report.StatusUnchanged {
			unchanged = append(unchanged, m)
		}
	}
	var notMeasured, removed []string
	if r.Change != nil {
		for _, n := range r.Change.Unchanged {
			if !measuredNames[n] {
				notMeasured = append(notMeasured, n)
			}
		}
		removed = r.Change.Removed
	}
	parts := []Part{folded(md.F("{} unchanged (schema identical): not re-measured", count(len(notMeasured), "message", "messages")), notMeasured)}
	if len(unchanged) > 0 {
		all := md.Empty
		if r.Change != nil && r.Change.Measure == report.MeasureAll {
			all = md.F(" (measure: all)")
		}
		line := md.F("{} unchanged (schema identical): measured{}; their exact figures cannot differ and their timings cannot fail the gate", count(len(unchanged), "message", "messages"), all)
		tables := make([]md.Md, len(unchanged))
		names := make([]string, len(unchanged))
		for i, m := range unchanged {
			tables[i] = md.F("#### {}\n\n{}", md.Code(m.Name), formatsTable(r, m))
			names[i] = m.Name
		}
		compact := folded(line, names)
		parts = append(parts, Part{Md: md.Details(line, md.Blocks(tables...)), Cut: cutUnchangedTables, Compact: &compact})
	}
	them := md.F("them")
	if len(removed) == 1 {
		them = md.F("it")
	}
	parts = append(parts, folded(md.F("{} removed (only the base declares {})", count(len(removed), "message", "messages"), them), removed))
	return parts
}

package render

// Messages that changed for the same cause — a field added to a message
// hundreds of others embed — read as one group: one heading naming the
// cause, one verdict line, one compact row per message (violations first,
// then the largest deltas). Each message's full section follows, the first
// detail the comment's budget cuts: the job summary keeps them.

import (
	"math"
	"sort"

	"golang.org/x/text/collate"
	"golang.org/x/text/language"

	md "github.com/wiregate/wiregate/harness/parent/render/markdown"
	"github.com/wiregate/wiregate/harness/parent/report"
)

// groupedAt is how many messages a group needs to be shown as one.
const groupedAt = 4

// groupTop is how many rows within every threshold the shorter table keeps.
const groupTop = 20

// grouped are the change set's groups shown as one: big enough.
func grouped(r *report.Report) []report.Group {
	if r.Change == nil {
		return nil
	}
	var out []report.Group
	for _, g := range r.Change.Groups {
		if len(g.Messages) >= groupedAt {
			out = append(out, g)
		}
	}
	return out
}

type groupRow struct {
	name     string
	measured bool
	failing  bool
	blocking []report.Violation
	// size is the largest bytes/msg change, in percent, for ordering.
	size  float64
	cells []md.Md
}

// groupParts are one group: its heading and verdict (never cut), its
// table of rows (cut to the failing and the largest rows, then to the
// failing ones, then to the failing ones with their violations counted
// rather than quoted), and its messages' full sections (cut first).
func groupParts(r *report.Report, g report.Group) []Part {
	byName := map[string]*report.Message{}
	for i := range r.Messages {
		byName[r.Messages[i].Name] = &r.Messages[i]
	}
	rows := make([]groupRow, len(g.Messages))
	for i, name := range g.Messages {
		rows[i] = rowOf(r, name, byName[name])
	}
	// Names in the order people read them (a locale's collation, as the
	// comment always sorted them), not bytes'.
	names := collate.New(language.English)
	sort.SliceStable(rows, func(i, j int) bool {
		a, b := rows[i], rows[j]
		if a.failing != b.failing {
			return a.failing
		}
		if a.size != b.size {
			return a.size > b.size
		}
		return names.CompareString(a.name, b.name) < 0
	})
	var failing, passing []groupRow
	unmeasured := 0
	var failingViolations []report.Violation
	for _, row := range rows {
		if row.failing {
			failing = append(failing, row)
			failingViolations = append(failingViolations, row.blocking...)
		} else {
			passing = append(passing, row)
		}
		if !row.measured {
			unmeasured++
		}
	}
	withinAll := len(rows) - len(failing) - unmeasured
	var verdict []md.Md
	if len(failing) > 0 {
		verdict = append(verdict, md.F("❌ {}: {}", count(len(failing), "message fails", "messages fail"), reasonsOf(failingViolations, nil, nil)))
	}
	if withinAll > 0 {
		verdict = append(verdict, md.F("✅ {} within every threshold", count(withinAll, "message", "messages")))
	}
	if unmeasured > 0 {
		verdict = append(verdict, md.F("⏱ {} not measured", count(unmeasured, "message", "messages")))
	}
	head := md.Join([]md.Md{
		md.F("### Changed through {} · {}", causes(g.Cause), count(len(g.Messages), "message", "messages")),
		md.Join(verdict, md.F(" · ")),
		causeNote(r, g),
		groupAdded(r, g.Messages),
	}, md.F("\n\n"))
	formats := formatsOf(r, g)
	formatCells := make([]md.Md, len(formats))
	for i, f := range formats {
		formatCells[i] = md.F("{}", f)
	}
	header := []md.Md{md.F("message"), md.F("bytes/msg Δ ({})", md.Join(formatCells, md.F(" / "))), md.F("CPU Δ"), md.F("time Δ"), md.F("verdict")}
	table := func(rs []groupRow, rest int, short bool) md.Md {
		cells := make([][]md.Md, len(rs))
		for i, row := range rs {
			cells[i] = row.cells
			if short {
				cells[i] = append(append([]md.Md(nil), row.cells[:len(row.cells)-1]...), md.F("❌ {}", countsOf(row.blocking)))
			}
		}
		t := md.Table(header, cells)
		if rest > 0 {
			return md.F("{}\n\n<sub>{} within every threshold: each message's full section is in the job summary.</sub>", t, count(rest, "more row", "more rows"))
		}
		return t
	}
	top := append(append([]groupRow(nil), failing...), passing[:min(groupTop, len(passing))]...)
	parts := []Part{
		{Md: head},
		{Md: table(rows, 0, false), Cut: cutGroupRows, Compact: &Part{
			Md: table(top, len(rows)-len(top), false), Cut: cutGroupRows, Compact: &Part{
				Md: table(failing, len(rows)-len(failing), false), Cut: cutGroupFigures, Compact: &Part{
					Md: table(failing, len(rows)-len(failing), true),
				},
			},
		}},
	}
	for _, name := range g.Messages {
		m := byName[name]
		if m == nil {
			continue
		}
		// A grouped message's section goes as one, before the group's rows;
		// its history charts with everyone's.
		var section []md.Md
		var history []Part
		for _, p := range messageParts(r, *m) {
			if p.Cut == cutHistoryCharts {
				history = append(history, p)
			} else {
				section = append(section, p.Md)
			}
		}
		parts = append(parts, Part{Md: md.Blocks(section...), Cut: cutGroupedSections})
		parts = append(parts, history...)
	}
	return parts
}

// rowOf is one message's compact row: bytes Δ per format, the largest
// significant CPU and time change, and its verdict.
func rowOf(r *report.Report, name string, m *report.Message) groupRow {
	blockingOnes := violationsWhere(ofMessage(r, name), blocking)
	if m == nil {
		return groupRow{name: name, failing: len(blockingOnes) > 0, blocking: blockingOnes,
			cells: []md.Md{md.Code(name), md.F("—"), md.F("—"), md.F("—"), md.F("⏱ not measured")}}
	}
	sizes := make([]md.Md, len(m.Formats))
	size := 0.0
	for i, f := range m.Formats {
		switch {
		case f.Size == nil || f.Size.DeltaPct == nil:
			sizes[i] = md.F("—")
		case *f.Size.DeltaPct == 0:
			sizes[i] = md.F("=")
		default:
			sizes[i] = pct(f.Size.DeltaPct, true)
		}
		if f.Size != nil && f.Size.DeltaPct != nil {
			size = math.Max(size, math.Abs(*f.Size.DeltaPct))
		}
	}
	verdict := md.F("✅")
	if len(blockingOnes) > 0 {
		verdict = md.F("❌ {}", reasonsOf(blockingOnes, within(name), nil))
	}
	return groupRow{name: name, measured: true, failing: len(blockingOnes) > 0, blocking: blockingOnes, size: size,
		cells: []md.Md{md.Code(name), md.Join(sizes, md.F(" / ")), largest(*m, "instr/op"), largest(*m, "sec/op"), verdict}}
}

// largest is the largest significant change of a unit over a message's
// formats and ops: "+3.1%", "~" when none is significant, "—" when the
// unit was not measured.
func largest(m report.Message, unit string) md.Md {
	seen, top := false, (*report.Metric)(nil)
	for _, f := range m.Formats {
		for i := range f.Metrics {
			x := &f.Metrics[i]
			if x.Unit != unit {
				continue
			}
			seen = true
			// Layout noise is not a change the schema made (messages.go).
			if !x.Significant || x.LayoutNoise || x.DeltaPct == nil {
				continue
			}
			if top == nil || math.Abs(*x.DeltaPct) > math.Abs(*top.DeltaPct) {
				top = x
			}
		}
	}
	switch {
	case !seen:
		return md.F("—")
	case top == nil:
		return md.F("~")
	}
	return pct(top.DeltaPct, true)
}

// formatsOf are the formats the group's first measured message has: the
// columns of its bytes cell.
func formatsOf(r *report.Report, g report.Group) []string {
	in := map[string]bool{}
	for _, n := range g.Messages {
		in[n] = true
	}
	for _, m := range r.Messages {
		if in[m.Name] {
			out := make([]string, len(m.Formats))
			for i, f := range m.Formats {
				out[i] = f.Format
			}
			return out
		}
	}
	return nil
}

func causes(cause []string) md.Md {
	out := make([]md.Md, len(cause))
	for i, c := range cause {
		out[i] = md.Code(c)
	}
	return md.Join(out, md.F(", "))
}

// causeNote says what the cause gained or lost, when the cause is a
// measured message whose records say so.
func causeNote(r *report.Report, g report.Group) md.Md {
	var notes []md.Md
	for _, c := range g.Cause {
		var rec *report.Records
		for _, m := range r.Messages {
			if m.Name == c {
				rec = m.Records
				break
			}
		}
		if rec == nil {
			continue
		}
		var fields []md.Md
		for _, f := range rec.NewFields {
			fields = append(fields, md.F("new field {}", md.Code(f.Field)))
		}
		for _, f := range rec.Removed {
			fields = append(fields, md.F("removed field {}", md.Code(f.Field)))
		}
		for _, f := range rec.Regenerated {
			fields = append(fields, md.F("retyped field {}", md.Code(f.Field)))
		}
		if len(fields) > 0 {
			notes = append(notes, md.F("in {}: {}", md.Code(c), md.Join(fields, md.F(", "))))
		}
	}
	if len(notes) == 0 {
		return md.Empty
	}
	return md.F("📦 {}", md.Join(notes, md.F("; ")))
}

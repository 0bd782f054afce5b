package render

import (
	"math"
	"slices"
	"strings"

	md "github.com/wiregate/wiregate/harness/parent/render/markdown"
	"github.com/wiregate/wiregate/harness/parent/report"
)

const instrUnit = "instr/op"

// messageParts renders a changed or new message: its heading and verdict
// and what its records add (never cut), then its table, why its cpu
// violations' counts grew (profileBlocks), its bytes/msg chart where base
// and head differ, and its history on the default branch (each of which
// the budget may cut). A new message has no base: head's figures only,
// nothing compared, no chart.
func messageParts(r *report.Report, m report.Message) []Part {
	status := messageStatus(m)
	isNew := status == report.StatusNew
	vs := ofMessage(r, m.Name)
	heading := md.F("### {} · {}", md.Code(m.Name), status)
	switch status {
	case report.StatusNew:
		heading = md.F("### {} · new on head", md.Code(m.Name))
	case report.StatusChanged:
		heading = md.F("### {}", md.Code(m.Name))
	}
	measuredAny := false
	for _, f := range m.Formats {
		measuredAny = measuredAny || f.Size != nil || len(f.Metrics) > 0
	}
	var verdict md.Md
	switch {
	case isNew:
		also := md.Empty
		if len(vs) > 0 {
			also = messageVerdict(vs, m.Name)
		}
		verdict = md.Join([]md.Md{md.F("🆕 New on head: nothing to compare, head's figures only."), also}, md.F(" "))
	case !measuredAny && len(vs) == 0:
		verdict = md.F("— No figure was measured for it (see the stage timings and errors).")
	default:
		verdict = messageVerdict(vs, m.Name)
	}
	head := md.Join(append([]md.Md{heading, verdict}, recordsNotes(m, vs)...), md.F("\n\n"))
	bytesChartMd, historyMd := md.Empty, md.Empty
	if !isNew {
		bytesChartMd, historyMd = bytesChart(m), historyCharts(r, m.Name)
	}
	return []Part{
		{Md: head},
		{Md: md.Blocks(formatsTable(r, m), addedFigures(m), backlogNote(r, m.Name), producerNote(r, m.Name)), Cut: cutMessageTables},
		profileBlocks(r, m),
		{Md: bytesChartMd, Cut: cutBytesCharts},
		{Md: historyMd, Cut: cutHistoryCharts},
	}
}

// unmeasuredPart is a changed or new message the report has no figures
// for: its heading and why, so every change has its line.
func unmeasuredPart(r *report.Report, name string, isNew bool) Part {
	var why md.Md
	var skipped *report.Skipped
	for i := range r.Skipped {
		if r.Skipped[i].Message == name {
			skipped = &r.Skipped[i]
			break
		}
	}
	switch {
	case r.Cut.Exact != nil && slices.Contains(r.Cut.Exact.Unmeasured, name):
		why = md.F("⏱ Not measured: the time budget ran out before it (see what the budget cut).")
	case skipped != nil:
		why = md.F("Not measured: {}.", skipped.Reason)
	default:
		why = md.F("Not measured in this run (see errors and stage timings).")
	}
	onHead := md.Empty
	if isNew {
		onHead = md.F(" · new on head")
	}
	return Part{Md: md.F("### {}{}\n\n{}", md.Code(name), onHead, why)}
}

// cellsLegend is the line under the tables that says how to read a cell.
var cellsLegend = md.F(`<sub>Cells: base → head (delta, p). "~" means the change is not significant at alpha (CPU: within its noise floor). "Layout noise" is a significant time delta where the format's bytes, instructions and allocations are the same on both sides: the same work, timed in two builds whose code sits at different addresses. CPU is instructions per operation counted under Valgrind, the median of the processes that counted each side: the code and the records are the same in each, so a count moves only by what the runtime leaves to chance — each process's hash seeds (map lookups) and background work; "±x%" marks a floor this message's own counts set above its format's. Size: bytes/msg; where it moved, each compression codec's bytes per record as a Kafka broker stores them (the same records in producer batches, compressed) beside it. Pipeline: records/s in the formats the pipeline drains the message in (input pipeline-formats; auto: the one it travels in), "—" in the others ("not drained": a format it drains whose row the budget cut or a failure lost). Chart bars: base first, head second. A new message shows head's figures only.</sub>`)

// formatsTable is one row per format: bytes/msg, encode and decode time,
// instructions (when counted) and pipeline records/s.
func formatsTable(r *report.Report, m report.Message) md.Md {
	vs := ofMessage(r, m.Name)
	// A new message's base side, if the report has one, is nothing to compare.
	side := bothSides
	if messageStatus(m) == report.StatusNew {
		side = headOnly
	}
	counted := false
	for _, f := range m.Formats {
		counted = counted || measuredIn(f, instrUnit)
	}
	header := []md.Md{md.F("format"), md.F("bytes/msg"), md.F("encode"), md.F("decode")}
	if counted {
		header = append(header, md.F("CPU instr/op (encode, decode)"))
	}
	header = append(header, md.F("pipeline records/s"))
	rows := make([][]md.Md, len(m.Formats))
	for i, f := range m.Formats {
		aliasing := md.Empty
		if f.Aliasing {
			aliasing = md.F(" (aliasing)")
		}
		row := []md.Md{
			md.F("{}{}", f.Format, aliasing),
			sizeCell(f, side, vs),
			timeCell(metricOf(f, "encode", "sec/op"), side, f),
			timeCell(metricOf(f, "decode", "sec/op"), side, f),
		}
		if counted {
			row = append(row, cpuCell(f, side))
		}
		var drained *report.Pipeline
		for j := range r.Pipeline {
			if p := &r.Pipeline[j]; p.Message == m.Name && p.Format == f.Format {
				drained = p
				break
			}
		}
		rows[i] = append(row, pipelineCell(drained, side, f.Piped))
	}
	return md.Table(header, rows)
}

func measuredIn(f report.Format, unit string) bool {
	for _, m := range f.Metrics {
		if m.Unit == unit {
			return true
		}
	}
	return false
}

// backlogNote says which of the message's pipeline rows held fewer records
// than pipeline-messages, each with its N and why: the byte budget over
// the row's mean record, or the drain its precision needs. Each row
// (format) has its own N; rows at the count asked for go unsaid.
func backlogNote(r *report.Report, name string) md.Md {
	var rows []md.Md
	for _, p := range r.Pipeline {
		b := p.Backlog
		if p.Message != name || b == nil || (b.BudgetBytes == 0 && b.DrainSeconds == 0) {
			continue
		}
		why := md.F("a {} ms drain", integer(b.DrainSeconds*1000))
		if b.BudgetBytes != 0 {
			why = md.F("byte budget {} / {} B per record", mebibytes(float64(b.BudgetBytes)), integer(b.MeanBytes))
		}
		rows = append(rows, md.F("{} N = {} ({})", p.Format, integer(float64(b.N)), why))
	}
	if len(rows) == 0 {
		return md.Empty
	}
	asked := md.Empty
	if r.Env.PipelineN != 0 {
		asked = md.F(", not the {} records asked for", integer(float64(r.Env.PipelineN)))
	}
	return md.F("<sub>Pipeline backlogs{}: {}.</sub>", asked, md.Join(rows, md.F("; ")))
}

// producerNote says which codec the pipeline's producer compressed its
// batches with (the first of the compression input), which the consumer's
// records/s include decompressing.
func producerNote(r *report.Report, name string) md.Md {
	for _, p := range r.Pipeline {
		if p.Message == name && p.Compression != "" {
			return md.F("<sub>Pipeline producer batches: {} (the first compression codec); records/s include decompressing them.</sub>", md.Code(p.Compression))
		}
	}
	return md.Empty
}

func metricOf(f report.Format, name, unit string) *report.Metric {
	for i := range f.Metrics {
		if f.Metrics[i].Name == name && f.Metrics[i].Unit == unit {
			return &f.Metrics[i]
		}
	}
	return nil
}

// center is a side's center, nil when the side or its center is missing.
func center(s *report.Summary) *float64 {
	if s == nil || math.IsNaN(s.Center) {
		return nil
	}
	c := s.Center
	return &c
}

// sizeCell is raw bytes/msg and, where raw or compressed size moved, each
// codec's stored bytes per record beside it, a failing compressed size
// first (when raw size does not fail too), with the gate's words (report
// data, escaped like all of it) where the two disagree and why a growth
// past its threshold was not gated.
func sizeCell(f report.Format, s side, vs []report.Violation) md.Md {
	if f.Size == nil {
		return md.F("—")
	}
	base, head := f.Size.Base, f.Size.Head
	if s.headOnly {
		return bytes(head)
	}
	raw := md.F("{} → {} ({})", bytes(base), bytes(head), pct(f.Size.DeltaPct, true))
	if base == head {
		raw = md.F("{} (=)", bytes(head))
	}
	moved := base != head
	for _, c := range f.Size.Compressed {
		moved = moved || c.Base == nil || *c.Base != c.Head
	}
	if !moved || len(f.Size.Compressed) == 0 {
		return raw
	}
	fails := func(suffix string) bool {
		for _, v := range vs {
			if v.Blocking() && strings.HasSuffix(v.Subject, "/"+f.Format+"/"+suffix) {
				return true
			}
		}
		return false
	}
	var first, rest []md.Md
	for _, c := range f.Size.Compressed {
		var figure md.Md
		switch {
		case c.Base == nil:
			figure = md.F("— → {}", bytes(c.Head))
		case *c.Base == c.Head:
			figure = md.F("{} (=)", bytes(c.Head))
		default:
			figure = md.F("{} → {} ({})", bytes(*c.Base), bytes(c.Head), pct(c.DeltaPct, true))
		}
		reading, ungated := md.Empty, md.Empty
		if c.Reading != "" {
			reading = md.F("<br><sub>{}</sub>", c.Reading)
		}
		if c.Ungated != "" {
			ungated = md.F("<br><sub>not gated: {}</sub>", c.Ungated)
		}
		line := md.F("{}: {}{}{}", c.Codec, figure, reading, ungated)
		if fails("compressed-size/"+c.Codec) && !fails("size") {
			first = append(first, line)
		} else {
			rest = append(rest, line)
		}
	}
	return md.Join(append(append(first, md.F("raw: {}", raw)), rest...), md.F("<br>"))
}

// change is "(+12.3%, p=0.002)" when significant, "(~, p=0.48)" when not.
func change(deltaPct, p *float64, significant bool) md.Md {
	d := md.F("~")
	if significant {
		d = pct(deltaPct, true)
	}
	if pv := pValue(p); !pv.Empty() {
		return md.F("({}, {})", d, pv)
	}
	return md.F("({})", d)
}

// side is how a cell reads a figure's two sides: both ("base → head
// (delta)", "— → head" when the base has no figure, "—" when head has
// none), or head's only (a message new on head compares nothing).
type side struct{ headOnly bool }

var (
	bothSides = side{}
	headOnly  = side{headOnly: true}
)

func (s side) cell(base, head *float64, format func(float64) md.Md, delta func() md.Md) md.Md {
	switch {
	case head == nil:
		return md.F("—")
	case s.headOnly:
		return format(*head)
	case base == nil:
		return md.F("— → {}", format(*head))
	}
	return md.F("{} → {} {}", format(*base), format(*head), delta())
}

func timeCell(m *report.Metric, s side, f report.Format) md.Md {
	switch {
	case m == nil:
		return md.F("—")
	case m.NotTimed:
		// Planned unable to fail from the base's history point: no round ran.
		return md.F("<sub>not timed</sub>")
	case m.LayoutNoise:
		// The gate marks a significant delta where the format did the same
		// work on both sides: muted, with why, and no p-value to read as news.
		cell := s.cell(center(m.Base), center(m.Head), seconds, func() md.Md { return md.F("({})", pct(m.DeltaPct, true)) })
		return md.F("<sub>{} layout noise: {} equal on both sides</sub>", cell, exactWords(f))
	}
	return s.cell(center(m.Base), center(m.Head), seconds, func() md.Md { return change(m.DeltaPct, m.P, m.Significant) })
}

// exactWords names the exact figures a format has: "bytes, instructions
// and allocations".
func exactWords(f report.Format) md.Md {
	if measuredIn(f, instrUnit) {
		return md.F("bytes, instructions and allocations")
	}
	return md.F("bytes and allocations")
}

// cpuCell is instructions per encode and decode, base → head: exact
// counts, so no p-value; "~" when the change is within the count's noise
// floor (what identical counts move).
func cpuCell(f report.Format, s side) md.Md {
	var parts []md.Md
	allNone := true
	for _, op := range []string{"encode", "decode"} {
		m := metricOf(f, op, instrUnit)
		if m == nil {
			parts = append(parts, md.F("—"))
			continue
		}
		own := md.Empty
		if m.NoiseFloorFrom == report.FloorFromCounts && m.NoiseFloor != nil {
			own = md.F(" ±{}", pct(m.NoiseFloor, false))
		}
		delta := func() md.Md {
			if m.Base.Center == m.Head.Center {
				return md.F("(={})", own)
			}
			d := md.F("~")
			if m.Significant {
				d = pct(m.DeltaPct, true)
			}
			return md.F("({}{})", d, own)
		}
		cell := s.cell(center(m.Base), center(m.Head), instructions, delta)
		allNone = allNone && cell.Source() == "—"
		parts = append(parts, cell)
	}
	if allNone {
		return md.F("—")
	}
	return md.Join(parts, md.F("<br>"))
}

// pipelineCell is a format's records/s; a format the pipeline drains this
// message in (pipeline-formats) that has no row says so, any other is "—".
func pipelineCell(p *report.Pipeline, s side, piped bool) md.Md {
	if p == nil {
		if piped {
			return md.F("not drained")
		}
		return md.F("—")
	}
	return s.cell(center(p.Base), center(p.Head), rate, func() md.Md { return change(p.DeltaPct, p.P, p.Significant) })
}

// bytesChart is a mermaid bar chart of bytes/msg per format, base bars
// then head bars; none where no format's size differs.
func bytesChart(m report.Message) md.Md {
	var formats []string
	var base, head []float64
	differs := false
	for _, f := range m.Formats {
		if f.Size == nil {
			continue
		}
		formats = append(formats, f.Format)
		base = append(base, tenth(f.Size.Base))
		head = append(head, tenth(f.Size.Head))
		differs = differs || f.Size.Base != f.Size.Head
	}
	if !differs {
		return md.Empty
	}
	hi := math.Inf(-1)
	for _, v := range append(append([]float64(nil), base...), head...) {
		hi = math.Max(hi, v)
	}
	return md.Chart(md.XYChart{
		Title:  "bytes/msg, base then head: " + m.Name,
		X:      formats,
		YTitle: "bytes/msg",
		YLo:    0,
		YHi:    math.Ceil(hi * 1.1),
		Series: []md.Series{{Kind: "bar", Values: base}, {Kind: "bar", Values: head}},
	})
}

// tenth is x rounded to one decimal, as a chart shows it.
func tenth(x float64) float64 { return md.Round(x*10) / 10 }

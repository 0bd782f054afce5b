package render

// What a change adds is stated apart from what it makes worse: the added
// content filled (report.AddedContent), how the added-content threshold
// judged it, and, for a message that only adds, that its same content's
// deltas are what the added fields cost unset. The split and the verdict
// are Go's (record.Split, verdict); this only says them.

import (
	"math"
	"slices"

	md "github.com/wiregate/wiregate/harness/parent/render/markdown"
	"github.com/wiregate/wiregate/harness/parent/report"
)

// addedLines are a measured message's lines on what head adds: the
// fields, how their cost was judged, the figures filled, and why a format
// that writes unset fields grew on the same content. None when head's
// records add nothing. vs are the message's violations (ofMessage).
func addedLines(m report.Message, vs []report.Violation) []md.Md {
	elements := m.Records.AddedElements()
	if len(elements) == 0 && m.AddedContent == nil {
		if required := requiredFields(m.Records); len(required) > 0 {
			return []md.Md{md.F("<sub>Head requires {}: every record must hold it, so the same content keeps it (judged at the usual thresholds, not as added content).</sub>", md.Join(required, md.F(", ")))}
		}
		return nil
	}
	fields := make([]md.Md, len(elements))
	for i, e := range elements {
		fields[i] = md.F("{} ({})", md.Code(e.Field), e.What)
	}
	what := md.F("what head adds")
	if len(fields) > 0 {
		what = md.Join(fields, md.F(", "))
	}
	cost := md.Empty
	if m.AddedContent != nil {
		cost = md.F("; filled, it costs what the table after the figures says")
	}
	out := []md.Md{md.F("➕ **Added content**: {}. {}{}.", what, judgedWords(m.AddedContent, vs), cost)}
	if m.Records != nil && m.Records.OnlyAdded {
		out = append(out, md.F("<sub>Head only adds here: what the same content costs more below is what the added fields cost unset, judged with the added content.</sub>"))
	}
	if required := requiredFields(m.Records); len(required) > 0 {
		out = append(out, md.F("<sub>Head requires {}: every record must hold it, so the same content keeps it (judged at the usual thresholds, not as added content).</sub>", md.Join(required, md.F(", "))))
	}
	for _, f := range m.Formats {
		if f.Size != nil && f.Size.Unset != "" {
			out = append(out, md.F("<sub>{}.</sub>", spans(f.Size.Unset)))
		}
	}
	return out
}

// judgedWords says how the added content was judged: stated (the
// threshold is off), within the threshold, or past it (the verdict made an
// added-content violation of the message's: vs).
func judgedWords(a *report.AddedContent, vs []report.Violation) md.Md {
	switch {
	case pastAdded(vs):
		return md.F("❌ Past {}", md.Code("added-content-threshold"))
	case addedJudged(a):
		return md.F("Within {}", md.Code("added-content-threshold"))
	}
	return md.F("Stated, never failing ({} is off)", md.Code("added-content-threshold"))
}

// pastAdded says whether any of vs is added content past its threshold:
// the verdict's call (verdict.addedContent, unsetAddition), which weighs
// the noise floor, compressed size and ignored subjects too.
func pastAdded(vs []report.Violation) bool {
	return slices.ContainsFunc(vs, func(v report.Violation) bool { return v.Kind == report.KindAddedContent })
}

// addedJudged says whether any of a's figures had a threshold.
func addedJudged(a *report.AddedContent) bool {
	if a == nil {
		return false
	}
	for _, f := range a.Formats {
		for _, fig := range f.Figures {
			if fig.ThresholdPct != nil {
				return true
			}
		}
	}
	return false
}

// addedMost is a's largest instruction and bytes/msg deltas, filled (nil:
// none measured).
func addedMost(a *report.AddedContent) (instr, size *float64) {
	if a == nil {
		return nil, nil
	}
	for _, f := range a.Formats {
		for _, fig := range f.Figures {
			switch fig.Metric {
			case report.AddedEncode, report.AddedDecode:
				instr = larger(instr, fig.DeltaPct)
			case report.AddedSize:
				size = larger(size, fig.DeltaPct)
			}
		}
	}
	return instr, size
}

// addedFigures is the added content's table, under the message's
// figures: one row per format, without → with (delta), a column per
// figure measured.
func addedFigures(m report.Message) md.Md {
	if t := addedTable(m.AddedContent); !t.Empty() {
		return md.F("{}\n\n<sub>Added content filled: head's records with it against them without it.</sub>", t)
	}
	return md.Empty
}

func addedTable(a *report.AddedContent) md.Md {
	if a == nil || len(a.Formats) == 0 {
		return md.Empty
	}
	type column struct{ metric, codec, unit string }
	var columns []column
	seen := map[column]bool{}
	for _, f := range a.Formats {
		for _, fig := range f.Figures {
			c := column{fig.Metric, fig.Codec, fig.Unit}
			if !seen[c] {
				seen[c] = true
				columns = append(columns, c)
			}
		}
	}
	header := []md.Md{md.F("added content")}
	for _, c := range columns {
		// The metric says its unit (report.AddedMetrics).
		switch c.metric {
		case report.AddedSize:
			header = append(header, md.F("bytes/msg"))
		case report.AddedCompressedSize:
			header = append(header, md.F("{} B/record", c.codec))
		default:
			header = append(header, md.F("{} instr/op", c.metric))
		}
	}
	rows := make([][]md.Md, len(a.Formats))
	for i, f := range a.Formats {
		row := []md.Md{md.F("{}", f.Format)}
		for _, c := range columns {
			cell := md.F("—")
			for _, fig := range f.Figures {
				if fig.Metric == c.metric && fig.Codec == c.codec && fig.Unit == c.unit {
					format := bytes
					if fig.Unit == instrUnit {
						format = instructions
					}
					cell = md.F("{} → {} ({})", format(fig.Without), format(fig.With), pct(fig.DeltaPct, true))
				}
			}
			row = append(row, cell)
		}
		rows[i] = row
	}
	return md.Table(header, rows)
}

// addedHeadline is the verdict line's word on what the change adds:
// "adds 2 fields (+4.8% instructions when filled, stated)"; empty when it
// adds nothing. Fields are counted once however many messages hold them
// (a field of a shared message is one field).
func addedHeadline(r *report.Report) md.Md {
	names := map[string]bool{}
	var instr, size *float64
	judged, past := false, false
	for _, m := range r.Messages {
		if messageStatus(m) != report.StatusChanged {
			continue
		}
		for _, f := range m.Records.AddedFields() {
			names[f.Field] = true
		}
		judged = judged || addedJudged(m.AddedContent)
		past = past || pastAdded(ofMessage(r, m.Name))
		i, s := addedMost(m.AddedContent)
		instr, size = larger(instr, i), larger(size, s)
	}
	if len(names) == 0 {
		return md.Empty
	}
	cost := md.Empty
	switch {
	case instr != nil:
		cost = md.F("{} instructions when filled, ", pct(instr, true))
	case size != nil:
		cost = md.F("{} bytes when filled, ", pct(size, true))
	}
	how := md.F("stated")
	switch {
	case past:
		how = md.F("past added-content-threshold")
	case judged:
		how = md.F("within added-content-threshold")
	}
	return md.F("adds {} ({}{})", count(len(names), "field", "fields"), cost, how)
}

// larger is the larger of p and q in size, either unset (nil); p on a tie.
func larger(p, q *float64) *float64 {
	if p == nil || q != nil && math.Abs(*q) > math.Abs(*p) {
		return q
	}
	return p
}

// groupAdded says, under a group's heading, what its messages' added
// content costs filled at most and, when they only add, what their same
// content's deltas are.
func groupAdded(r *report.Report, names []string) md.Md {
	in := map[string]bool{}
	for _, n := range names {
		in[n] = true
	}
	held, only := 0, 0
	var instr, size *float64
	for _, m := range r.Messages {
		if !in[m.Name] || m.AddedContent == nil {
			continue
		}
		held++
		if m.Records != nil && m.Records.OnlyAdded {
			only++
		}
		i, s := addedMost(m.AddedContent)
		instr, size = larger(instr, i), larger(size, s)
	}
	if held == 0 {
		return md.Empty
	}
	var most []md.Md
	if size != nil {
		most = append(most, md.F("{} bytes/msg", pct(size, true)))
	}
	if instr != nil {
		most = append(most, md.F("{} instructions", pct(instr, true)))
	}
	unset := md.Empty
	if only == held {
		unset = md.F("; head only adds to them, so their same content's deltas below are what the added fields cost even unset")
	}
	return md.F("➕ {} added content: filled, at most {}{}.", count(held, "message holds", "messages hold"), md.Join(most, md.F(", ")), unset)
}

// requiredFields are the new fields head requires (FieldNote.Required),
// each with its type.
func requiredFields(rs *report.Records) []md.Md {
	if rs == nil {
		return nil
	}
	var out []md.Md
	for _, n := range rs.NewFields {
		if n.Required {
			out = append(out, md.F("{} (new {})", md.Code(n.Field), n.To))
		}
	}
	return out
}

// sameContentOnly is coverage's word on what was timed and drained when
// a change adds content: the same content only.
func sameContentOnly(r *report.Report) Part {
	if r.Coverage == nil || r.Coverage.SameContentOnly == "" {
		return Part{}
	}
	return Part{Md: md.F("<sub>{} with added content: {}.</sub>", count(r.Coverage.Added, "message", "messages"), r.Coverage.SameContentOnly)}
}

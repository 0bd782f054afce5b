package render

import (
	"math"

	md "github.com/wiregate/wiregate/harness/parent/render/markdown"
	"github.com/wiregate/wiregate/harness/parent/report"
)

// historyCharts renders, for a message this change moves, one mermaid
// line chart per unit that changed: main's last points, then this PR's
// head as the last point. Empty when the report has no history for it.
func historyCharts(r *report.Report, name string) md.Md {
	h := r.History
	if h == nil {
		return md.Empty
	}
	var m *report.HistoryMessage
	for i := range h.Messages {
		if h.Messages[i].Name == name {
			m = &h.Messages[i]
			break
		}
	}
	if m == nil {
		return md.Empty
	}
	var units []string
	byUnit := map[string][]report.HistorySeries{}
	for _, s := range m.Series {
		if _, ok := byUnit[s.Unit]; !ok {
			units = append(units, s.Unit)
		}
		byUnit[s.Unit] = append(byUnit[s.Unit], s)
	}
	charts := make([]md.Md, len(units))
	for i, unit := range units {
		charts[i] = historyChart(h, m, byUnit[unit], unit)
	}
	return md.Blocks(charts...)
}

func historyChart(h *report.History, m *report.HistoryMessage, series []report.HistorySeries, unit string) md.Md {
	// Commits where every line has a value: a figure counted only from some
	// commit on starts its chart there.
	var keep []int
	for i := range m.Commits {
		all := true
		for _, s := range series {
			all = all && i < len(s.Values) && s.Values[i] != nil
		}
		if all {
			keep = append(keep, i)
		}
	}
	if len(keep) < 2 {
		return md.Empty
	}
	lines := make([][]float64, len(series))
	lo, hi := math.Inf(1), math.Inf(-1)
	for j, s := range series {
		for _, i := range keep {
			v := tenth(*s.Values[i])
			lines[j] = append(lines[j], v)
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	yLo, yHi := yRange(lo, hi)
	var main []int
	x := make([]string, len(keep))
	for k, i := range keep {
		x[k] = "PR"
		if !m.Commits[i].Head {
			main = append(main, i)
			x[k] = shortSha(m.Commits[i].Sha)
		}
	}
	// The branch the points were pushed to (the default branch), as the
	// newest one says; the history branch's name when none does.
	branch := h.Branch
	if len(main) > 0 && m.Commits[main[len(main)-1]].Ref != "" {
		branch = m.Commits[main[len(main)-1]].Ref
	}
	legend := make([]md.Md, len(series))
	for j, s := range series {
		legend[j] = md.F("{}. {} {}: {} → {}", j+1, s.Format, s.Metric, measure(lines[j][0], unit), measure(lines[j][len(lines[j])-1], unit))
	}
	chartSeries := make([]md.Series, len(lines))
	for j, values := range lines {
		chartSeries[j] = md.Series{Kind: "line", Values: values}
	}
	chart := md.Chart(md.XYChart{
		Title:  m.Name + " " + unit + ": last " + itoa(len(main)) + " commits of " + branch + ", then this PR",
		X:      x,
		YTitle: unit,
		YLo:    yLo,
		YHi:    yHi,
		Series: chartSeries,
	})
	return md.F("{}\n<sub>Lines in order — {}. The last point is this PR.</sub>", chart, md.Join(legend, md.F(" · ")))
}

// historyNote is what history did, one line: recorded a point (with what
// it carried forward and could not reach, counted, names folded), or why
// there is nothing to chart.
func historyNote(r *report.Report) []Part {
	h := r.History
	if h == nil {
		return nil
	}
	note := md.Empty
	if h.Note != "" {
		note = md.F(" {}.", h.Note)
	}
	line := md.Empty
	switch {
	case h.Recorded != "":
		tries := md.Empty
		if h.Attempts > 1 {
			tries = md.F(" ({} attempts: other runs pushed first)", h.Attempts)
		}
		line = md.F("<sub>History: recorded {} on {}{}.{}</sub>", shortSha(h.Recorded), md.Code(h.Branch), tries, note)
	case h.Note != "":
		line = md.F("<sub>History ({}):{}</sub>", md.Code(h.Branch), note)
	}
	return []Part{
		{Md: line},
		folded(md.F("History: {} carried forward from the last point (same schema, wiregate and Go: not re-measured)", count(len(h.Carried), "message", "messages")), h.Carried),
		folded(md.F("History: {} neither carried nor measured within the time budget", count(len(h.Unreached), "message", "messages")), h.Unreached),
	}
}

// yRange pads the lines' range so a small step still shows.
func yRange(lo, hi float64) (float64, float64) {
	pad := math.Max(1, math.Abs(hi)*0.05)
	if hi > lo {
		pad = (hi - lo) * 0.2
	}
	floor := math.Floor(lo - pad)
	if lo >= 0 {
		floor = math.Max(0, floor)
	}
	return floor, math.Ceil(hi + pad)
}

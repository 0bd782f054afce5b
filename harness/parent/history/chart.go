package history

import (
	"github.com/wiregate/wiregate/harness/parent/report"
)

// Changed builds, for each message whose exact figures differ base vs head
// in r, its last n points of main (those with any of its changed figures)
// followed by the PR's head, one series per changed figure. Messages are in
// report order; a changed message main never recorded has no entry.
func Changed(r *report.Report, points []Point, n int) []report.HistoryMessage {
	var order []string
	byMessage := map[string][]pair{}
	for _, p := range changed(ExactIn(r)) {
		if _, ok := byMessage[p.message]; !ok {
			order = append(order, p.message)
		}
		byMessage[p.message] = append(byMessage[p.message], p)
	}
	out := []report.HistoryMessage{} // a list in report.json even when none changed
	for _, name := range order {
		series := byMessage[name]
		wanted := map[key]int{}
		for i, s := range series {
			wanted[s.key] = i
		}
		// The last n points that recorded any of the changed figures.
		var picked []Point
		for i := len(points) - 1; i >= 0 && len(picked) < n; i-- {
			for _, f := range points[i].Figures {
				if _, ok := wanted[f.key()]; ok {
					picked = append(picked, points[i])
					break
				}
			}
		}
		if len(picked) == 0 {
			continue
		}
		m := report.HistoryMessage{Name: name, Series: make([]report.HistorySeries, len(series))}
		for i, s := range series {
			m.Series[i] = report.HistorySeries{Format: s.format, Metric: s.metric, Unit: s.unit}
		}
		for i := len(picked) - 1; i >= 0; i-- { // oldest first
			p := picked[i]
			m.Commits = append(m.Commits, report.HistoryCommit{Sha: p.Sha, Ref: p.Ref, Date: p.Date})
			values := make([]*float64, len(series))
			for _, f := range p.Figures {
				if j, ok := wanted[f.key()]; ok {
					v := f.Value
					values[j] = &v
				}
			}
			for j := range series {
				m.Series[j].Values = append(m.Series[j].Values, values[j])
			}
		}
		m.Commits = append(m.Commits, report.HistoryCommit{Sha: r.Head.Sha, Head: true})
		for j, s := range series {
			v := s.head
			m.Series[j].Values = append(m.Series[j].Values, &v)
		}
		out = append(out, m)
	}
	return out
}

// ChangedMessages is how many messages of ms have an exact figure that
// differs base vs head.
func ChangedMessages(ms []ExactFormat) int {
	seen := map[string]bool{}
	for _, p := range changed(ms) {
		seen[p.message] = true
	}
	return len(seen)
}

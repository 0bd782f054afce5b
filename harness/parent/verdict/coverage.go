package verdict

import (
	"fmt"
	"slices"
	"strings"

	"github.com/wiregate/wiregate/harness/parent/report"
)

// coverage is what r judged of its scope: the messages whose schema
// changed (of its shard's part, for a part), less those wiregate cannot
// measure; for each, which expected figures it has on both sides.
// Counting is expected where instructions could be counted (r.CPUCost
// says nothing is unavailable), the pipeline where pipeline asked for it.
// Nil when r has no change set.
func coverage(r *report.Report, pipeline bool) *report.Coverage {
	if r.Change == nil {
		return nil
	}
	scope := slices.Clone(r.Change.Changed)
	if r.Shard != nil && r.Shard.Index >= 1 && r.Shard.Index <= len(r.Shard.Parts) {
		part := r.Shard.Parts[r.Shard.Index-1]
		scope = slices.DeleteFunc(scope, func(m string) bool { return !slices.Contains(part, m) })
	}
	scope = slices.DeleteFunc(scope, func(m string) bool {
		return slices.ContainsFunc(r.Skipped, func(s report.Skipped) bool { return s.Message == m })
	})
	c := &report.Coverage{Changed: len(scope), Expected: []string{report.FigureSized}}
	if r.CPUCost != nil && r.CPUCost.Unavailable == "" {
		c.Expected = append(c.Expected, report.FigureCounted)
	}
	c.Expected = append(c.Expected, report.FigureTimed)
	if pipeline {
		c.Expected = append(c.Expected, report.FigurePiped)
	}
	for _, name := range scope {
		if i := slices.IndexFunc(r.Messages, func(m report.Message) bool { return m.Name == name }); i >= 0 && r.Messages[i].AddedContent != nil {
			c.Added++
			c.SameContentOnly = report.SameContentOnlyNote
		}
		have := figures(r, name)
		for _, f := range c.Expected {
			if have[f] {
				switch f {
				case report.FigureSized:
					c.Sized++
				case report.FigureCounted:
					c.Counted++
				case report.FigureTimed:
					c.Timed++
				case report.FigurePiped:
					c.Piped++
				}
				continue
			}
			if c.Cut == nil {
				c.Cut = map[string][]string{}
			}
			c.Cut[f] = append(c.Cut[f], name)
		}
	}
	return c
}

// figures says which figures message has in r, on both sides, in every
// format it was measured in (piped: in every format the pipeline drains
// for it; every format when the report marks none).
func figures(r *report.Report, message string) map[string]bool {
	i := slices.IndexFunc(r.Messages, func(m report.Message) bool { return m.Name == message })
	if i < 0 || len(r.Messages[i].Formats) == 0 {
		return nil
	}
	fs := r.Messages[i].Formats
	both := func(m report.Metric) bool { return m.Base != nil && m.Head != nil }
	ops := func(f report.Format, unit string) bool {
		n := 0
		for _, m := range f.Metrics {
			if m.Unit == unit && both(m) {
				n++
			}
		}
		return n >= 2 // encode and decode
	}
	all := func(ok func(report.Format) bool) bool {
		for _, f := range fs {
			if !ok(f) {
				return false
			}
		}
		return true
	}
	return map[string]bool{
		report.FigureSized:   all(func(f report.Format) bool { return f.Size != nil && f.Size.DeltaPct != nil }),
		report.FigureCounted: all(func(f report.Format) bool { return ops(f, cpuUnit) }),
		report.FigureTimed:   all(func(f report.Format) bool { return ops(f, "sec/op") }),
		report.FigurePiped: all(func(f report.Format) bool {
			if !f.Piped && slices.ContainsFunc(fs, func(f report.Format) bool { return f.Piped }) {
				return true // not a format the pipeline drains for it (pipeline-formats)
			}
			return slices.ContainsFunc(r.Pipeline, func(p report.Pipeline) bool {
				return p.Message == message && p.Format == f.Format && p.Base != nil && p.Head != nil
			})
		}),
	}
}

// coverageViolations fail a report whose coverage is required and cut:
// one violation per figure, naming how many changed messages lack it.
func (v *verdict) coverageViolations(c *report.Coverage) {
	for _, f := range c.Expected {
		cut := c.Cut[f]
		if len(cut) == 0 {
			continue
		}
		v.add(report.Violation{Kind: report.KindCoverage, Subject: "coverage/" + f,
			Detail: fmt.Sprintf("%d of %d changed messages are not %s (%s); coverage is required: raise time-budget or max-shards",
				len(cut), c.Changed, f, Names(cut, 3))})
	}
}

// Names lists up to n names, then how many more: "a, b, c and 7 more".
func Names(ms []string, n int) string {
	if len(ms) <= n {
		return strings.Join(ms, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(ms[:n], ", "), len(ms)-n)
}

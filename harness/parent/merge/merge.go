// Package merge makes one report of a sharded gate's parts: every part
// measured its own messages of the same change, so the merged report holds
// each message's figures once, each schema finding once, every part's
// stages and notes under its shard's name, and names a missing shard's
// messages as not measured. The verdict is decided again over the union
// (verdict.Decide): Holm's correction over every part's p-values, not the
// parts' own verdicts.
package merge

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/wiregate/wiregate/harness/parent/inputs"
	"github.com/wiregate/wiregate/harness/parent/report"
	"github.com/wiregate/wiregate/harness/parent/shard"
	"github.com/wiregate/wiregate/harness/parent/verdict"
	"github.com/wiregate/wiregate/harness/program/exitcode"
)

// Part is one shard's report and where it came from (for errors).
type Part struct {
	From   string
	Report *report.Report
}

// Parts merges parts into one decided report. A part that is not a shard's,
// or that belongs to another plan (another base or head, change set, split,
// inputs or harness), or a shard given twice, is an error naming it: such
// parts measured something else, and merging them would judge nothing.
func Parts(parts []Part) (*report.Report, error) {
	if len(parts) == 0 {
		return nil, exitcode.BadInput("no parts to merge: pass the directories the shards' report.json files were downloaded to")
	}
	if err := check(parts); err != nil {
		return nil, err
	}
	slices.SortFunc(parts, func(a, b Part) int { return cmp.Compare(a.Report.Shard.Index, b.Report.Shard.Index) })
	first := parts[0].Report
	sh := first.Shard
	out := report.New()
	out.Base, out.Head, out.Rules, out.Change = first.Base, first.Head, first.Rules, first.Change
	out.Merged = &report.Merged{Count: sh.Count}
	out.Env = first.Env
	out.Cut.BudgetSeconds = first.Cut.BudgetSeconds
	have := map[int]bool{}
	var benchstat []string
	var seconds float64
	timeless := false
	for _, p := range parts {
		r, name := p.Report, "shard "+p.Report.Shard.Name
		have[r.Shard.Index] = true
		out.Merged.Parts = append(out.Merged.Parts, r.Shard.Index)
		out.Messages = append(out.Messages, r.Messages...)
		out.Pipeline = append(out.Pipeline, r.Pipeline...)
		out.MeasuringTimes = append(out.MeasuringTimes, r.MeasuringTimes...) // each message is one shard's
		for _, f := range r.Findings {
			if !slices.Contains(out.Findings, f) {
				out.Findings = append(out.Findings, f)
			}
		}
		for _, s := range r.Skipped {
			if !slices.Contains(out.Skipped, s) {
				out.Skipped = append(out.Skipped, s)
			}
		}
		for _, w := range r.Warnings {
			if !slices.Contains(out.Warnings, w) {
				out.Warnings = append(out.Warnings, w)
			}
		}
		for _, st := range r.Stages {
			st.Shard = r.Shard.Name
			out.Stages = append(out.Stages, st)
		}
		seconds += r.Seconds
		if r.Seconds <= 0 {
			timeless = true // a part without its wall time: the stages' sum stands
		}
		for _, e := range r.Errors {
			out.Errors = append(out.Errors, name+": "+e)
		}
		out.Ignored = append(out.Ignored, r.Ignored...)
		out.Env.PeakRSSBytes = max(out.Env.PeakRSSBytes, r.Env.PeakRSSBytes)
		out.Env.ConsumerPeakRSSBytes = max(out.Env.ConsumerPeakRSSBytes, r.Env.ConsumerPeakRSSBytes)
		out.Env.BrokerPeakRSSBytes = max(out.Env.BrokerPeakRSSBytes, r.Env.BrokerPeakRSSBytes)
		out.Cut = mergeCut(out.Cut, r.Cut, name)
		out.CPUCost = cmp.Or(out.CPUCost, r.CPUCost)
		if r.CPUCost != nil && r.CPUCost.Tool != "" {
			out.CPUCost = r.CPUCost
		}
		out.History = cmp.Or(out.History, r.History)
		out.BreakingAgainst = cmp.Or(out.BreakingAgainst, r.BreakingAgainst)
		out.BufRules = cmp.Or(out.BufRules, r.BufRules) // every shard ran the same schema checks
		if r.Benchstat != "" {
			benchstat = append(benchstat, "# "+name+"\n"+r.Benchstat)
		}
	}
	out.Benchstat = strings.Join(benchstat, "\n")
	if !timeless {
		out.Seconds = seconds
	}
	for i := 1; i <= sh.Count; i++ {
		if have[i] {
			continue
		}
		name := inputs.Shard{Index: i, Count: sh.Count}.String()
		out.Merged.Missing = append(out.Merged.Missing, i)
		out.Merged.MissingNames = append(out.Merged.MissingNames, name)
		if ms := sh.Parts[i-1]; len(ms) > 0 {
			out.Warnings = append(out.Warnings, fmt.Sprintf("shard %s has no part: its %d messages were not measured (%s)",
				name, len(ms), verdict.Names(ms, 3)))
		}
	}
	verdict.Decide(out)
	return out, nil
}

// check refuses parts that cannot be merged.
func check(parts []Part) error {
	var first *Part
	seen := map[int]string{}
	for i := range parts {
		p := &parts[i]
		r := p.Report
		if r == nil || r.Shard == nil {
			return exitcode.BadInput("%s is not a shard's report (it has no shard block): merge only the report.json files of jobs run with input shard", p.From)
		}
		// A part's names are Go's (inputs.Shard.String, shard.PartName); one
		// that does not say its own index and count was not written by a
		// shard job of this version, and would label another shard.
		want := inputs.Shard{Index: r.Shard.Index, Count: r.Shard.Count}
		if r.Shard.Name != want.String() || r.Shard.Artifact != shard.PartName(want) {
			return exitcode.BadInput("%s says it is shard %q (artifact %q) but holds shard %d of %d: merge only the report.json files the shard jobs wrote",
				p.From, r.Shard.Name, r.Shard.Artifact, r.Shard.Index, r.Shard.Count)
		}
		if prev, dup := seen[r.Shard.Index]; dup {
			return exitcode.BadInput("%s and %s are both shard %s: pass each shard's part once", prev, p.From, r.Shard.Name)
		}
		seen[r.Shard.Index] = p.From
		if first == nil {
			first = p
			continue
		}
		if err := same(first, p); err != nil {
			return err
		}
	}
	return nil
}

// same is an error naming what a and b disagree on, or nil.
func same(a, b *Part) error {
	x, y := a.Report, b.Report
	for _, d := range []struct {
		what        string
		left, right string
	}{
		{"base", x.Base.Sha, y.Base.Sha},
		{"head", x.Head.Sha, y.Head.Sha},
		{"shard count", fmt.Sprint(x.Shard.Count), fmt.Sprint(y.Shard.Count)},
		{"change set", x.Shard.Change, y.Shard.Change},
		{"split", x.Shard.Split, y.Shard.Split},
		{"inputs", x.Shard.Inputs, y.Shard.Inputs},
		{"wiregate version", x.Shard.Harness, y.Shard.Harness},
	} {
		if d.left != d.right {
			return exitcode.BadInput("%s and %s are parts of different gates: their %s differs (%s vs %s); merge the parts of one run of one plan",
				a.From, b.From, d.what, short(d.left), short(d.right))
		}
	}
	return nil
}

// mergeCut adds a part's budget cuts, each note under its shard's name.
func mergeCut(p, part report.Cut, name string) report.Cut {
	p.ShardsNeeded = max(p.ShardsNeeded, part.ShardsNeeded)
	note := func(into *string, n string) {
		if n != "" {
			*into = strings.TrimPrefix(*into+"; "+name+": "+n, "; ")
		}
	}
	if b := part.Bench; b != nil {
		if p.Bench == nil {
			p.Bench = &report.BenchCut{Rounds: b.Rounds, Benchtime: b.Benchtime}
		}
		p.Bench.Rounds = min(p.Bench.Rounds, b.Rounds)
		p.Bench.Untimed = append(p.Bench.Untimed, b.Untimed...)
		note(&p.Bench.Note, b.Note)
	}
	if c := part.CPU; c != nil {
		if p.CPU == nil {
			p.CPU = &report.CPUCut{}
		}
		p.CPU.Uncounted = append(p.CPU.Uncounted, c.Uncounted...)
		p.CPU.FewerProcesses = append(p.CPU.FewerProcesses, c.FewerProcesses...)
		note(&p.CPU.Note, c.Note)
	}
	if e := part.Exact; e != nil {
		if p.Exact == nil {
			p.Exact = &report.ExactCut{}
		}
		p.Exact.Unmeasured = append(p.Exact.Unmeasured, e.Unmeasured...)
		note(&p.Exact.Note, e.Note)
	}
	if pp := part.Pipeline; pp != nil {
		if p.Pipeline == nil {
			p.Pipeline = &report.PipelineCut{}
		}
		p.Pipeline.Untimed = append(p.Pipeline.Untimed, pp.Untimed...)
		note(&p.Pipeline.Note, pp.Note)
	}
	return p
}

func short(s string) string {
	if len(s) > 12 {
		return s[:12]
	}
	return cmp.Or(s, "none")
}

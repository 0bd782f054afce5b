// Package verdict decides the gate: it turns a measured report into
// violations by the repo's thresholds and wiregate.yaml, and sets the
// result. It is pure: no I/O, no clock, the same report in gives the same
// verdict out.
package verdict

import (
	"sort"
	"strings"

	"github.com/wiregate/wiregate/harness/parent/config"
	"github.com/wiregate/wiregate/harness/parent/report"
)

// Allow turns failures into warnings, from PR labels.
type Allow struct {
	Breaking   bool // `wiregate allow breaking`: breaking and avro findings
	Regression bool // `wiregate allow regression`: size, cpu, time and throughput
}

// Labels that allow; matched case-insensitively.
const (
	LabelAllowBreaking   = "wiregate allow breaking"
	LabelAllowRegression = "wiregate allow regression"
)

// Options are the verdict's inputs beyond thresholds and labels.
type Options struct {
	// LintAll fails on every lint finding, also those the base already
	// has (input lint-findings: all); by default only new ones fail.
	LintAll bool
	// CoverageRequired fails on a changed message's cut figure.
	CoverageRequired bool
	// Pipeline is whether pipeline rows were asked for.
	Pipeline bool
	// Rules hold the pull request's comments the approvals come from
	// (nil: none).
	Rules *report.Rules
}

// Decide decides r by its own Rules (Apply): what the gate does at its
// end, and what a merge or an approval does again without the checkout.
// Its labels allow what the people who applied them may (labelsAllow).
func Decide(r *report.Report) {
	rules := r.Rules
	if rules == nil {
		rules = &report.Rules{}
	}
	allow, labelNotes := labelsAllow(rules)
	Apply(r, rules.Config, allow, Options{LintAll: rules.LintAll,
		CoverageRequired: rules.CoverageRequired, Pipeline: rules.Pipeline, Rules: rules})
	r.Approvals = append(r.Approvals, labelNotes...)
}

// AllowFromLabels reads the PR's raw label names. Only the full label
// names count: a PR labelled just "regression" allows nothing.
func AllowFromLabels(labels []string) Allow {
	var a Allow
	for _, l := range labels {
		switch strings.ToLower(strings.TrimSpace(l)) {
		case LabelAllowBreaking:
			a.Breaking = true
		case LabelAllowRegression:
			a.Regression = true
		}
	}
	return a
}

// Apply sets r.Violations (and r.Ignored) to everything that fails the
// gate and r.Coverage to what it judged, then decides and sorts r. Applied
// again, it decides anew.
//
//   - size: bytes/message grew by more than the size threshold (exact).
//   - compressed-size: bytes per record after one codec's batch
//     compression grew by more than the compressed-size threshold (exact),
//     one violation per codec, on the user's samples or with raw size past
//     its own threshold too; otherwise stated, not failed (compressed.go).
//   - cpu: encode/decode instr/op grew by more than the cpu threshold and
//     than the count's noise floor (exact; cpu.go).
//   - time: encode/decode sec/op or allocs/op is worse, significantly
//     (p at or below the Holm cutoff at alpha over the run's metrics) and
//     by more than the time threshold.
//   - throughput: pipeline records/s is lower, significantly and by more
//     than the throughput threshold.
//   - lint, breaking, avro, avro-mismatch: one per finding; a lint finding
//     the base already has (Finding.Existing) only with Options.LintAll.
//   - error: one per stage that could not run (r.Stages with an error).
//
// Time, throughput and cpu are not gated for a message whose schema is the
// same on both sides (Message.UnchangedSchema): both programs run the same
// code for it, so whatever its timings move is code layout and the runner,
// and whatever its count moves is the count's own noise, never the change.
// Its timings are left out of the Holm families too. A message whose head
// only adds is judged as the addition's cost instead (added.go): not on
// time or throughput either, nor in those families.
//
// Improvements are never violations. Metrics that wiregate.yaml ignores are
// listed in r.Ignored with the reason instead.
func Apply(r *report.Report, cfg config.Config, allow Allow, o Options) {
	r.Violations, r.Ignored, r.UnableToFail, r.Elements, r.ApproveAll, r.ApproveFiles = []report.Violation{}, nil, nil, nil, nil, nil
	v := &verdict{r: r, cfg: cfg, allow: allow, o: o, untimed: map[string]bool{}, met: map[string]bool{}, byElement: map[string]string{}}
	v.approved, r.Approvals = approvals(o.Rules, cfg)
	for _, m := range r.Messages {
		v.untimed[m.Name] = m.UnchangedSchema || onlyAdds(m)
	}
	v.timeCutoff, v.pipeCutoff = v.cutoffs()
	markLayoutNoise(r)
	for _, m := range r.Messages {
		for _, f := range m.Formats {
			th := cfg.ThresholdsFor(m.Name, f.Format)
			v.addedContent(m, f, th.Added)
			if onlyAdds(m) {
				v.unsetAddition(m, f, th.Added) // the addition's cost, not a regression (added.go)
				continue
			}
			if f.Size != nil {
				v.size(m.Name, f.Format, *f.Size, th.SizePct)
				rawFails := f.Size.DeltaPct != nil && exceeds(*f.Size.DeltaPct, th.SizePct)
				for i := range f.Size.Compressed {
					v.compressedSize(m, f.Format, &f.Size.Compressed[i], th.CompressedSizePct, rawFails)
				}
			}
			if m.UnchangedSchema {
				continue // reported, not gated
			}
			for _, met := range f.Metrics {
				if met.Unit == cpuUnit {
					v.cpu(m.Name, f.Format, met, th.CPUPct)
					continue
				}
				v.metric(m.Name, f.Format, met, th.TimePct)
			}
		}
	}
	for _, p := range r.Pipeline {
		v.pipeline(p, cfg.ThresholdsFor(p.Message, p.Format).ThroughputPct)
	}
	for _, f := range r.Findings {
		v.finding(f)
	}
	r.Coverage = coverage(r, o.Pipeline)
	if o.CoverageRequired && r.Coverage != nil {
		v.coverageViolations(r.Coverage)
	}
	for _, st := range r.Stages {
		if st.Error != "" {
			// The message names the file or input and the fix; the stage
			// that could not run is the subject.
			subject := st.Name
			if st.Shard != "" {
				subject = "shard " + st.Shard + ": " + st.Name
			}
			v.add(report.Violation{Kind: report.KindError, Subject: subject, Detail: st.Error})
		}
	}
	v.group()
	for i := range r.Violations {
		v.approve(&r.Violations[i])
	}
	v.unmet()
	v.approveAll()
	sort.SliceStable(r.Ignored, func(i, j int) bool { return r.Ignored[i].Subject < r.Ignored[j].Subject })
	r.Conclude()
	r.Sort()
}

type verdict struct {
	r     *report.Report
	cfg   config.Config
	allow Allow
	o     Options
	// timeCutoff and pipeCutoff are the largest p-values Holm's procedure
	// rejects in each family (-1: none): see cutoffs.
	timeCutoff, pipeCutoff float64
	// untimed are the messages whose schema is the same on both sides
	// (Message.UnchangedSchema) or whose head only adds (added.go): neither
	// is gated on time or throughput, nor in those families.
	untimed map[string]bool
	// approved are the approvals the pull request's comments give, by
	// violation id; met the ids a violation of this run has.
	approved map[string]pending
	met      map[string]bool
	// located are the schema violations with the element each is about
	// (elements.go); byElement the element id that approves a violation
	// besides its own.
	located   []located
	byElement map[string]string
}

// cutoffs applies Holm–Bonferroni to each family of tests one run makes:
// encode/decode timings (sec/op) and pipeline rows. One run tests dozens
// of metrics; at alpha each, about one in twenty noise-only comparisons
// would look significant, and a gate that
// fails identical code that often gets switched off. Holm keeps the chance
// of any false alarm in a family at alpha. Allocation counts are exact
// (a figure a side, no p): they are in no family.
func (v *verdict) cutoffs() (timeCut, pipeCut float64) {
	family := map[string][]float64{}
	for _, m := range v.r.Messages {
		if v.untimed[m.Name] {
			continue // not gated on time: not tested
		}
		for _, f := range m.Formats {
			for _, met := range f.Metrics {
				fam, ok := familyOfUnit[met.Unit]
				if !ok {
					continue
				}
				if _, ignored := v.cfg.Ignored(metricSubject(m.Name, f.Format, met)); met.P != nil && !ignored {
					family[fam] = append(family[fam], *met.P)
				}
			}
		}
	}
	for _, p := range v.r.Pipeline {
		if _, ignored := v.cfg.Ignored(p.Message + "/" + p.Format + "/pipeline"); p.P != nil && !ignored && !v.untimed[p.Message] {
			family[pipelineFamily] = append(family[pipelineFamily], *p.P)
		}
	}
	return Holm(family[timeFamily], v.cfg.Alpha), Holm(family[pipelineFamily], v.cfg.Alpha)
}

// metricSubject is a timed metric's subject: message/format/op, and
// /allocs for an allocation count.
func metricSubject(message, format string, m report.Metric) string {
	subject := message + "/" + format + "/" + m.Name
	if familyOfUnit[m.Unit] == allocsFamily {
		subject += "/allocs"
	}
	return subject
}

// Holm returns the largest p-value that Holm's step-down procedure rejects
// at family-wise level alpha (-1 when it rejects none): sorted ascending,
// p(i) is rejected while p(i) <= alpha/(m-i).
func Holm(ps []float64, alpha float64) float64 {
	s := append([]float64(nil), ps...)
	sort.Float64s(s)
	cut := -1.0
	for i, p := range s {
		if p > alpha/float64(len(s)-i) {
			break
		}
		cut = p
	}
	return cut
}

func (v *verdict) add(x report.Violation) {
	switch {
	case x.Kind == report.KindBreaking || x.Kind == report.KindAvro:
		x.Allowed = v.allow.Breaking
	case report.Measured(x.Kind):
		x.Allowed = v.allow.Regression
	}
	x.ID = report.ViolationID(x)
	v.r.Violations = append(v.r.Violations, x)
}

// ignored records subject as ignored when wiregate.yaml says so.
func (v *verdict) ignored(subject string) bool {
	reason, ok := v.cfg.Ignored(subject)
	if ok {
		v.r.Ignored = append(v.r.Ignored, report.Ignored{Subject: subject, Reason: reason})
	}
	return ok
}

func (v *verdict) size(message, format string, s report.Size, threshold float64) {
	subject := message + "/" + format + "/size"
	if s.DeltaPct == nil || !exceeds(*s.DeltaPct, threshold) || v.ignored(subject) {
		return
	}
	v.add(report.Violation{Kind: report.KindSize, Subject: subject, Unit: "B/msg", Base: ptr(s.Base), Head: ptr(s.Head),
		DeltaPct: ptr(*s.DeltaPct), ThresholdPct: ptr(threshold),
		Detail: format + " messages grew by more than the size threshold"})
}

func (v *verdict) metric(message, format string, m report.Metric, threshold float64) {
	subject := metricSubject(message, format, m)
	var detail string
	cutoff := v.timeCutoff
	switch familyOfUnit[m.Unit] {
	case timeFamily:
		detail = m.Name + " got slower, significantly and by more than the time threshold"
	case allocsFamily:
		// Exact: one figure a side, moved or not (m.Significant), no p.
		detail = m.Name + " allocates more per operation, by more than the time threshold"
		cutoff = v.cfg.Alpha
	default:
		return // B/op and custom units are reported, not gated
	}
	if m.DeltaPct == nil || !exceeds(*m.DeltaPct, threshold) || !v.gated(subject, m.P, m.Significant, cutoff) {
		// Unable to fail: no slowdown of the threshold's size could have
		// shown at the cutoff (one far past it may have: it fails).
		if familyOfUnit[m.Unit] == timeFamily && (m.P != nil || m.NotTimed) && (m.MDE == nil || *m.MDE > threshold) {
			v.r.UnableToFail = append(v.r.UnableToFail, subject)
		}
		return
	}
	x := measured(report.Violation{Kind: report.KindTime, Subject: subject, Unit: m.Unit, DeltaPct: ptr(*m.DeltaPct),
		ThresholdPct: ptr(threshold), P: m.P, Detail: detail, NoiseFloor: m.NoiseFloor}, m.Base, m.Head)
	if m.P == nil {
		x.BaseN, x.HeadN = 0, 0 // an exact figure a side: no samples to count
	}
	v.add(x)
}

func (v *verdict) pipeline(p report.Pipeline, threshold float64) {
	subject := p.Message + "/" + p.Format + "/pipeline"
	if v.untimed[p.Message] {
		return
	}
	if p.DeltaPct == nil || !exceeds(-*p.DeltaPct, threshold) || !v.gated(subject, p.P, p.Significant, v.pipeCutoff) {
		if p.P != nil && (p.MDE == nil || *p.MDE > threshold) {
			v.r.UnableToFail = append(v.r.UnableToFail, subject)
		}
		return
	}
	v.add(measured(report.Violation{Kind: report.KindThroughput, Subject: subject, Unit: "records/s", DeltaPct: ptr(*p.DeltaPct),
		ThresholdPct: ptr(threshold), P: p.P, NoiseFloor: p.NoiseFloor,
		Detail: "pipeline throughput fell on the " + p.Broker + " broker, significantly and by more than the throughput threshold"}, p.Base, p.Head))
}

// measured copies the two sides' centers and sample counts into x.
func measured(x report.Violation, base, head *report.Summary) report.Violation {
	if base != nil && head != nil {
		x.Base, x.Head, x.BaseN, x.HeadN = ptr(base.Center), ptr(head.Center), base.N, head.N
	}
	return x
}

func (v *verdict) finding(f report.Finding) {
	if f.Kind == report.KindLint && f.Existing && !v.o.LintAll {
		return // existing debt: listed in the report, not failing this pull request
	}
	detail := f.Message
	if f.Rule != "" {
		detail += " (" + f.Rule + ")"
	}
	kind := f.Kind
	if kind != report.KindLint && kind != report.KindBreaking && kind != report.KindAvro && kind != report.KindAvroMismatch {
		kind = report.KindError // a finding of a kind nobody gates on is still not a silent pass
	}
	v.add(report.Violation{Kind: kind, Subject: f.File, Detail: detail, File: f.File, Line: f.Line, Column: f.Column, Against: f.Against})
	v.locate(len(v.r.Violations)-1, f)
}

// gated decides a regression past its threshold: a violation when it is
// significant in its family; an ignored metric (outside every family) is
// listed with its reason when it would have failed on its own at alpha.
func (v *verdict) gated(subject string, p *float64, flag bool, cutoff float64) bool {
	if _, ok := v.cfg.Ignored(subject); ok {
		if v.significant(p, flag, v.cfg.Alpha) {
			v.ignored(subject)
		}
		return false
	}
	return v.significant(p, flag, cutoff)
}

// significant is p at or below its family's Holm cutoff (which is never
// above alpha); without a p it trusts the comparison's own flag.
func (v *verdict) significant(p *float64, flag bool, cutoff float64) bool {
	if p == nil {
		return flag
	}
	return *p <= cutoff && *p <= v.cfg.Alpha
}

// exceeds is delta > threshold, blind to float rounding: 100 → 105 bytes
// computes as 5.000000000000004%, which is not more than 5%.
func exceeds(delta, threshold float64) bool {
	return delta-threshold > 1e-9
}

func ptr(f float64) *float64 { return &f }

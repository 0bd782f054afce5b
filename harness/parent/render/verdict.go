package render

import (
	"strings"

	md "github.com/wiregate/wiregate/harness/parent/render/markdown"
	"github.com/wiregate/wiregate/harness/parent/report"
)

// kindWords are each kind of violation in words, one and many.
var kindWords = map[string][2]string{
	report.KindLint:           {"lint finding", "lint findings"},
	report.KindBreaking:       {"breaking change", "breaking changes"},
	report.KindAvro:           {"Avro incompatibility", "Avro incompatibilities"},
	report.KindAvroMismatch:   {".avsc disagreeing with its proto message", ".avsc files disagreeing with their proto messages"},
	report.KindSize:           {"size regression", "size regressions"},
	report.KindCompressedSize: {"compressed size regression", "compressed size regressions"},
	report.KindCPU:            {"CPU regression", "CPU regressions"},
	report.KindTime:           {"time regression", "time regressions"},
	report.KindThroughput:     {"throughput regression", "throughput regressions"},
	report.KindAddedContent:   {"added content past its threshold", "added content past its threshold"},
	report.KindCoverage:       {"cut figure", "cut figures"},
	report.KindError:          {"error", "errors"},
}

func violationsWhere(vs []report.Violation, keep func(report.Violation) bool) []report.Violation {
	var out []report.Violation
	for _, v := range vs {
		if keep(v) {
			out = append(out, v)
		}
	}
	return out
}

func blocking(v report.Violation) bool { return v.Blocking() }

func allowedByLabel(v report.Violation) bool { return v.Allowed && v.Approved == nil }

func approved(v report.Violation) bool { return v.Approved != nil }

// verdictLine is the report's first line: the result and, in a few words,
// why; and, whenever the budget or a missing shard cut a changed message's
// figure, what was judged.
func verdictLine(r *report.Report) md.Md {
	blockingOnes := violationsWhere(r.Violations, blocking)
	allowed := violationsWhere(r.Violations, allowedByLabel)
	approvedOnes := violationsWhere(r.Violations, approved)
	for _, v := range blockingOnes {
		if v.Kind == report.KindError {
			return md.F("## ⛔ wiregate could not run: {}", v.Detail)
		}
	}
	judged := coverageWords(r)
	// A pass rests on what was measured when figures were cut; a failure
	// stands whatever the cut figures would have said.
	on, tail := md.Empty, md.Empty
	if !judged.Empty() && r.Result == "pass" {
		on = md.F(" on what was measured")
	}
	if !judged.Empty() {
		tail = md.F(" · {}", judged)
	}
	if adds := addedHeadline(r); !adds.Empty() {
		tail = md.F("{} · {}", tail, adds)
	}
	var who []md.Md
	if len(approvedOnes) > 0 {
		who = append(who, md.F("{} approved", reasonsOf(approvedOnes, nil, nil)))
	}
	if len(allowed) > 0 {
		who = append(who, md.F("{} allowed by label", reasonsOf(allowed, nil, nil)))
	}
	byWhom := md.Join(who, md.F("; "))
	if r.Result == "pass" {
		switch {
		case !byWhom.Empty():
			return md.F("## ✅ wiregate: pass{} — {}{}", on, byWhom, tail)
		case r.Change != nil && r.Change.NoSchemaChanged:
			return md.F("## ✅ wiregate: pass — no schema changed")
		}
		return md.F("## ✅ wiregate: pass{} — no schema or wire-cost regressions{}", on, tail)
	}
	why := reasonsOf(blockingOnes, nil, r.Elements)
	if why.Empty() {
		why = md.F("see below")
	}
	label := md.Empty
	if !byWhom.Empty() {
		label = md.F("; {}", byWhom)
	}
	return md.F("## ❌ wiregate: fail — {}{}{}", why, label, tail)
}

var figureWords = map[string]string{report.FigureSized: "sized", report.FigureCounted: "counted", report.FigureTimed: "timed", report.FigurePiped: "drained"}

// coverageWords says what was judged when anything was cut: "353 changed:
// 353 sized, 10 counted, 0 timed, 12 drained; `max-shards: 12` measures
// all"; empty when every expected figure of every changed message is there.
func coverageWords(r *report.Report) md.Md {
	c := r.Coverage
	if c == nil || len(c.Cut) == 0 {
		return md.Empty
	}
	of := map[string]int{report.FigureSized: c.Sized, report.FigureCounted: c.Counted, report.FigureTimed: c.Timed, report.FigurePiped: c.Piped}
	figures := make([]md.Md, len(c.Expected))
	for i, f := range c.Expected {
		figures[i] = md.F("{} {}", of[f], figureWords[f])
	}
	// The missing shards' names are the merge's (merged.missing_names).
	shards := md.Empty
	if r.Merged != nil && len(r.Merged.MissingNames) > 0 {
		names := make([]md.Md, len(r.Merged.MissingNames))
		for i, n := range r.Merged.MissingNames {
			names[i] = md.F("{}", n)
		}
		shards = md.F("; {} missing ({})", count(len(names), "shard", "shards"), md.Join(names, md.F(", ")))
	}
	shardCount := 1
	switch {
	case r.Merged != nil:
		shardCount = r.Merged.Count
	case r.Shard != nil:
		shardCount = r.Shard.Count
	}
	more := md.Empty
	if r.Cut.ShardsNeeded > shardCount {
		more = md.F("; {} measures all", md.Code("max-shards: "+itoa(r.Cut.ShardsNeeded)))
	}
	return md.F("{} changed: {}{}{}", c.Changed, md.Join(figures, md.F(", ")), shards, more)
}

// ofMessage is the violations whose subject is the message or one of its
// figures ("a.B/protobuf/size").
func ofMessage(r *report.Report, name string) []report.Violation {
	return violationsWhere(r.Violations, func(v report.Violation) bool {
		return v.Subject == name || strings.HasPrefix(v.Subject, name+"/")
	})
}

// within is how a subject reads within its message's section: without
// the message's name.
func within(name string) func(report.Violation) string {
	return func(v report.Violation) string {
		if strings.HasPrefix(v.Subject, name+"/") {
			return v.Subject[len(name)+1:]
		}
		return v.Subject
	}
}

// messageVerdict is a measured message's verdict in one line: what fails
// it, what a label allowed, or that nothing crossed a threshold.
func messageVerdict(vs []report.Violation, name string) md.Md {
	var parts []md.Md
	if b := violationsWhere(vs, blocking); len(b) > 0 {
		parts = append(parts, md.F("❌ {}", reasonsOf(b, within(name), nil)))
	}
	if a := violationsWhere(vs, approved); len(a) > 0 {
		parts = append(parts, md.F("✅ approved: {}", reasonsOf(a, within(name), nil)))
	}
	if a := violationsWhere(vs, allowedByLabel); len(a) > 0 {
		parts = append(parts, md.F("⚠️ allowed by label: {}", reasonsOf(a, within(name), nil)))
	}
	if len(parts) == 0 {
		parts = append(parts, md.F("✅ within every threshold"))
	}
	return md.Join(parts, md.F(" · "))
}

// reasonsOf summarises violations: "1 breaking change, size +12.0% on
// a.B/protobuf (limit 5%)". subject says how a subject reads (within a
// message's section, without the message's name); nil reads it whole.
func reasonsOf(vs []report.Violation, subject func(report.Violation) string, elements []report.Element) md.Md {
	if subject == nil {
		subject = func(v report.Violation) string { return v.Subject }
	}
	// Grouped by kind and by what they break: "1 breaking change, 2
	// breaking changes vs release v1.4.0".
	var order []string
	byKind := map[string][]report.Violation{}
	for _, v := range vs {
		k := v.Kind
		if v.Against != "" {
			k = v.Kind + " " + v.Against
		}
		if _, ok := byKind[k]; !ok {
			order = append(order, k)
		}
		byKind[k] = append(byKind[k], v)
	}
	var parts []md.Md
	for _, k := range order {
		group := byKind[k]
		kind := group[0].Kind
		release := md.Empty
		if group[0].Against != "" {
			release = md.F(" vs release {}", md.Code(group[0].Against))
		}
		if report.Measured(kind) {
			for _, v := range group[:min(2, len(group))] {
				parts = append(parts, md.F("{} {} on {}{}", kind, pct(v.DeltaPct, true), subject(v), limit(v)))
			}
			if more := len(group) - 2; more > 0 {
				parts = append(parts, md.F("{} more {}", more, kindWords[kind][min(more-1, 1)]))
			}
			continue
		}
		one, many := md.Code(kind), md.Code(kind)
		if w, ok := kindWords[kind]; ok {
			one, many = md.Text(w[0]), md.Text(w[1])
		}
		// Schema findings count by the elements they are on: a field renamed
		// and retyped is one change, whatever number of buf's rules it trips.
		changed := map[string]bool{}
		for _, v := range group {
			changed[elementOf(v, elements)] = true
		}
		findings := md.Empty
		if len(changed) < len(group) {
			findings = md.F(" ({})", count(len(group), "finding", "findings"))
		}
		word := many
		if len(changed) == 1 {
			word = one
		}
		parts = append(parts, md.F("{} {}{}{}", len(changed), word, release, findings))
	}
	return md.Join(parts, md.F(", "))
}

// elementOf is what a schema violation is counted by: its element's id,
// else its own id, else its detail.
func elementOf(v report.Violation, elements []report.Element) string {
	if v.ID != "" {
		for _, e := range elements {
			for _, id := range e.Violations {
				if id == v.ID {
					return e.ID
				}
			}
		}
		return v.ID
	}
	return v.Detail
}

// countsOf is violations counted by kind, without figures: "2 CPU
// regressions, 3 size regressions" — a compact row's verdict when the
// figures do not fit.
func countsOf(vs []report.Violation) md.Md {
	var order []string
	n := map[string]int{}
	for _, v := range vs {
		if n[v.Kind] == 0 {
			order = append(order, v.Kind)
		}
		n[v.Kind]++
	}
	parts := make([]md.Md, len(order))
	for i, kind := range order {
		words := md.Code(kind)
		if w, ok := kindWords[kind]; ok {
			words = md.Text(w[min(n[kind]-1, 1)])
		}
		parts[i] = md.F("{} {}", n[kind], words)
	}
	return md.Join(parts, md.F(", "))
}

func limit(v report.Violation) md.Md {
	if v.ThresholdPct == nil {
		return md.Empty
	}
	return md.F(" (limit {})", pct(v.ThresholdPct, false))
}

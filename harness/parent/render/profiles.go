package render

// Why a count grew: under a message's table, one collapsed block per cpu
// violation, naming the functions whose own instructions per operation
// moved past the count's noise floor (the gate chose them:
// Metric.Functions), base → head, each side's median over its processes.

import (
	"math"
	"strings"

	md "github.com/wiregate/wiregate/harness/parent/render/markdown"
	"github.com/wiregate/wiregate/harness/parent/report"
)

// profileBlocks is the message's blocks, one per cpu violation whose
// metric names functions, in the violations' order.
func profileBlocks(r *report.Report, m report.Message) Part {
	var out []md.Md
	for _, v := range ofMessage(r, m.Name) {
		if v.Kind != report.KindCPU {
			continue
		}
		rest, ok := strings.CutPrefix(v.Subject, m.Name+"/")
		if !ok {
			continue
		}
		within := strings.Split(rest, "/")
		format, op := within[0], ""
		if len(within) > 1 {
			op = within[1]
		}
		if format == "" || op == "" {
			continue
		}
		for _, f := range m.Formats {
			if f.Format != format {
				continue
			}
			if metric := metricOf(f, op, instrUnit); metric != nil && len(metric.Functions) > 0 {
				out = append(out, profileBlock(format, op, *metric))
			}
			break
		}
	}
	return Part{Md: md.Blocks(out...), Cut: cutProfiles}
}

// profileBlock: "json decode +176 instr/op: json.foldName +60, allocation
// +90, …" folded over a sentence when one function explains most of it,
// and each function's self and inclusive cost.
func profileBlock(format, op string, metric report.Metric) md.Md {
	fns := metric.Functions
	delta := centerOr0(metric.Head) - centerOr0(metric.Base)
	named := make([]md.Md, len(fns))
	sum := 0.0
	for i, f := range fns {
		name := md.HTMLCode(f.Name)
		if f.Kind == report.FunctionKindGroup {
			name = md.HTMLText(f.Name)
		}
		named[i] = md.F("{} {}", name, signedCount(f.SelfDelta))
		sum += f.SelfDelta
	}
	rest := md.Empty
	if math.Abs(delta-sum) >= 1 {
		rest = md.F(", …")
	}
	summary := md.F("{} {} {} instr/op: {}{}", md.HTMLCode(format), md.HTMLText(op), signedCount(delta), md.Join(named, md.F(", ")), rest)
	sentence := md.Empty
	if lead := fns[0]; lead.ExplainsMost {
		sentence = md.F("{} alone accounts for {} of the {} instr/op.", functionName(lead), signedCount(lead.SelfDelta), signedCount(delta))
	}
	rows := make([][]md.Md, len(fns))
	for i, f := range fns {
		rows[i] = []md.Md{functionName(f), instrChange(f.SelfBase, f.SelfHead, f.SelfDelta), instrChange(f.InclusiveBase, f.InclusiveHead, f.InclusiveDelta)}
	}
	header := []md.Md{md.F("function (moved past the floor)"), md.F("self instr/op"), md.F("with what it calls")}
	return md.Details(summary, md.Blocks(sentence, md.Table(header, rows)))
}

func centerOr0(s *report.Summary) float64 {
	if c := center(s); c != nil {
		return *c
	}
	return 0
}

// functionName is a function as code, a group as words, generated code marked.
func functionName(f report.FunctionCost) md.Md {
	switch f.Kind {
	case report.FunctionKindGroup:
		return md.F("{}", f.Name)
	case report.FunctionKindGenerated:
		return md.F("{} (generated)", md.Code(f.Name))
	}
	return md.Code(f.Name)
}

func instrChange(base, head, delta float64) md.Md {
	return md.F("{} → {} ({})", integer(base), integer(head), signedCount(delta))
}

// signedCount is a whole number of instructions with its sign: +60, -12.
func signedCount(n float64) md.Md {
	if md.Round(n) >= 0 {
		return md.F("+{}", integer(n))
	}
	return integer(n)
}

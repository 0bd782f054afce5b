package gate

import (
	"github.com/wiregate/wiregate/harness/parent/compare"
	"github.com/wiregate/wiregate/harness/parent/cpucost"
	"github.com/wiregate/wiregate/harness/parent/report"
	"github.com/wiregate/wiregate/harness/parent/verdict"
)

// addedContentOf is message's added-content figures: head's sizes and
// counts on its records whole against its same content, both measured by
// head's program, in each of formats; nil when none were measured.
func addedContentOf(message string, formats []string, sz sizes, c counts) *report.AddedContent {
	var out []report.AddedFormat
	for _, f := range formats {
		same, whole := sz.pairs[message+"/"+f][1], sz.added[message+"/"+f]
		if same == nil || whole == nil {
			continue
		}
		figs := []report.AddedFigure{addedFigure(report.AddedSize, "", "B/msg", same.BytesMean, whole.BytesMean)}
		for _, w := range whole.Compressed {
			for _, s := range same.Compressed {
				if s.Codec == w.Codec {
					figs = append(figs, addedFigure(report.AddedCompressedSize, w.Codec, "B/record", s.BytesPerRecord, w.BytesPerRecord))
				}
			}
		}
		for _, op := range []string{report.AddedEncode, report.AddedDecode} {
			for _, a := range c.added[message] {
				if a.op == op && a.format == f {
					figs = append(figs, addedFigure(op, "", cpucost.UnitInstructions, a.without, a.with))
				}
			}
		}
		out = append(out, report.AddedFormat{Format: f, Figures: figs})
	}
	if len(out) == 0 {
		return nil
	}
	return &report.AddedContent{Formats: out}
}

func addedFigure(metric, codec, unit string, without, with float64) report.AddedFigure {
	return report.AddedFigure{Metric: metric, Codec: codec, Unit: unit, Without: without, With: with, DeltaPct: compare.DeltaPct(without, with)}
}

// namesOf is up to three names in backquotes, and how many more
// (verdict.Names).
func namesOf(names []string) string {
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = "`" + n + "`"
	}
	return verdict.Names(quoted, 3)
}

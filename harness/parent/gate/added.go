package gate

import (
	"fmt"
	"slices"
	"strings"

	"github.com/wiregate/wiregate/harness/parent/compare"
	"github.com/wiregate/wiregate/harness/parent/cpucost"
	"github.com/wiregate/wiregate/harness/parent/history"
	"github.com/wiregate/wiregate/harness/parent/report"
)

// enterAdded puts in the report what each message's added content costs
// when filled (report.AddedContent): head's exact figures on its records
// whole against its same content, both measured by head's program, in
// each format; and, for a format whose same content grew where
// protobuf's did not, why (report.Size.Unset). The split itself is the
// records stage's (record.Split); this only reads its figures.
func enterAdded(r *report.Report, formats []string, sz sizes, c counts) {
	instr := map[string]addedCount{}
	for _, a := range c.added {
		instr[a.name] = a
	}
	for _, m := range r.Messages {
		var out []report.AddedFormat
		for _, f := range formats {
			same, whole := sz.pairs[m.Name+"/"+f][1], sz.added[m.Name+"/"+f]
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
				if a, ok := instr[benchName(op, m.Name, f)]; ok {
					figs = append(figs, addedFigure(op, "", cpucost.UnitInstructions, a.without, a.with))
				}
			}
			out = append(out, report.AddedFormat{Format: f, Figures: figs})
		}
		if len(out) > 0 {
			r.Message(m.Name).AddedContent = &report.AddedContent{Formats: out}
		}
	}
	for i := range r.Messages {
		enterUnset(&r.Messages[i], sz)
	}
}

func addedFigure(metric, codec, unit string, without, with float64) report.AddedFigure {
	return report.AddedFigure{Metric: metric, Codec: codec, Unit: unit, Without: without, With: with, DeltaPct: compare.DeltaPct(without, with)}
}

// enterUnset says, on each format of m whose same content is larger than
// the base's while protobuf's is not (protobuf writes no unset field, so
// no value grew), that the format writes the fields head adds even when
// they are unset: Avro writes every field, JSON every plain value and
// list. What it costs is gated with the same content; this says why.
func enterUnset(m *report.Message, sz sizes) {
	added := addedFieldNames(m.Records)
	pb := sz.pairs[m.Name+"/protobuf"]
	if len(added) == 0 || pb[0] == nil || pb[1] == nil || pb[1].BytesMean != pb[0].BytesMean {
		return
	}
	for i := range m.Formats {
		f := &m.Formats[i]
		pair := sz.pairs[m.Name+"/"+f.Format]
		if f.Size == nil || pair[0] == nil || pair[1] == nil || pair[1].BytesMean <= pair[0].BytesMean {
			continue
		}
		verb := "is"
		if len(added) > 1 {
			verb = "are"
		}
		f.Size.Unset = fmt.Sprintf("%s writes every field: %+.1f B a record even when %s %s empty",
			f.Format, pair[1].BytesMean-pair[0].BytesMean, namesOf(added), verb)
	}
}

// addedFieldNames are the fields whose values are added content: the new
// fields head does not require and the new oneof members.
func addedFieldNames(rs *report.Records) []string {
	if rs == nil {
		return nil
	}
	var out []string
	for _, n := range rs.NewFields {
		if !n.Required {
			out = append(out, n.Field)
		}
	}
	for _, n := range rs.NewOneofMembers {
		out = append(out, n.Field)
	}
	return out
}

// namesOf is up to three names in backquotes, and how many more.
func namesOf(names []string) string {
	shown := slices.Clone(names[:min(len(names), 3)])
	for i := range shown {
		shown[i] = "`" + shown[i] + "`"
	}
	s := strings.Join(shown, ", ")
	if n := len(names) - len(shown); n > 0 {
		s += fmt.Sprintf(" and %d more", n)
	}
	return s
}

// wholeFigures are figures (head's exact figures, as a push records them)
// on head's records whole where they hold added content: a history point
// is what the branch's records cost, and the pull requests after it carry
// the added fields filled. The rest stay the same content's, which is all
// there is.
func wholeFigures(figures []history.Figure, sz sizes, c counts) []history.Figure {
	instr := map[string]float64{}
	for _, a := range c.added {
		instr[a.name] = a.with
	}
	out := slices.Clone(figures)
	for i, f := range out {
		switch {
		case f.Metric == history.SizeMetric:
			if w := sz.added[f.Message+"/"+f.Format]; w != nil {
				out[i].Value = w.BytesMean
			}
		case f.Unit == cpucost.UnitInstructions:
			if w, ok := instr[benchName(f.Metric, f.Message, f.Format)]; ok {
				out[i].Value = w
			}
		}
	}
	return out
}

// benchName is the count of op ("encode") of message in format, by the
// name its loop has (BenchmarkEncode/<message>/<format>).
func benchName(op, message, format string) string {
	return "Benchmark" + strings.ToUpper(op[:1]) + op[1:] + "/" + message + "/" + format
}

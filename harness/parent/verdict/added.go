package verdict

import (
	"fmt"
	"strings"

	"github.com/wiregate/wiregate/harness/parent/config"
	"github.com/wiregate/wiregate/harness/parent/report"
)

// What a change adds is the addition's cost, not a regression: it is
// judged by the added-content thresholds (config.Added), off unless set,
// so by default it is stated and never fails. Two figures are the
// addition's:
//
//   - every message's added content, filled (report.AddedContent: head's
//     records with it against the same records without it);
//   - the same content of a message that only adds (Records.OnlyAdded):
//     head's schema differs from the base's only by the added fields, so
//     whatever the same content costs more than the base is what those
//     fields cost unset (Avro writes every field, JSON every plain value,
//     and every codec checks each field it has).
//
// Any other change's same content is the regression gate's, at the usual
// thresholds.

// onlyAdds says whether m's same content is judged as the addition's
// unset cost.
func onlyAdds(m report.Message) bool { return m.Records != nil && m.Records.OnlyAdded }

// addedThreshold is a's threshold for an added-content metric (nil: off).
func addedThreshold(a config.Added, metric string) *float64 {
	switch metric {
	case report.AddedSize:
		return a.SizePct
	case report.AddedCompressedSize:
		return a.CompressedSizePct
	}
	return a.CPUPct
}

// addedContent gates what m's added content costs filled in format f
// (its figures there, if any), each figure by its kind's threshold in th,
// which it records on the figure (none: off).
func (v *verdict) addedContent(m report.Message, f report.Format, th config.Added) {
	af := m.AddedContent.Format(f.Format)
	if af == nil {
		return
	}
	rawFails := false
	for _, fig := range af.Figures {
		if fig.Metric == report.AddedSize {
			rawFails = pastAdded(th.SizePct, fig.DeltaPct)
		}
	}
	for i := range af.Figures {
		fig := &af.Figures[i]
		t := addedThreshold(th, fig.Metric)
		fig.ThresholdPct = nil
		if t != nil {
			fig.ThresholdPct = ptr(*t)
		}
		v.addedViolation(m, f.Format, addedFigure{metric: fig.Metric, codec: fig.Codec, unit: fig.Unit, base: fig.Without, head: fig.With,
			delta: fig.DeltaPct, floor: instrFloor(f, fig.Metric)}, t, false, rawFails)
	}
}

// unsetAddition gates the same content of a message that only adds, format f
// of it, as what the added fields cost unset: size, compressed size and
// instructions by the added-content thresholds in th; timings and
// allocations are stated (they measure what the counts measure, with
// noise). A compressed size past its threshold but not gated is marked
// ungated, as the same content's is (compressed.go).
func (v *verdict) unsetAddition(m report.Message, f report.Format, th config.Added) {
	if s := f.Size; s != nil {
		rawFails := pastAdded(th.SizePct, s.DeltaPct)
		v.addedViolation(m, f.Format, addedFigure{metric: report.AddedSize, unit: "B/msg", base: s.Base, head: s.Head, delta: s.DeltaPct}, th.SizePct, true, rawFails)
		for i := range s.Compressed {
			c := &s.Compressed[i]
			c.Ungated = ""
			if c.Base != nil && v.addedViolation(m, f.Format, addedFigure{metric: report.AddedCompressedSize, codec: c.Codec, unit: "B/record",
				base: *c.Base, head: c.Head, delta: c.DeltaPct}, th.CompressedSizePct, true, rawFails) {
				c.Ungated = UngatedGenerated
			}
		}
	}
	for _, met := range f.Metrics {
		if met.Unit == cpuUnit && met.Base != nil && met.Head != nil {
			v.addedViolation(m, f.Format, addedFigure{metric: met.Name, unit: cpuUnit, base: met.Base.Center, head: met.Head.Center,
				delta: met.DeltaPct, floor: met.NoiseFloor}, addedThreshold(th, met.Name), true, false)
		}
	}
}

// addedFigure is one figure of what a message's added content costs in a
// format: filled (an AddedFigure, without → with), or unset (the same
// content of a message that only adds, base → head).
type addedFigure struct {
	metric, codec, unit string
	base, head          float64
	delta, floor        *float64
}

// addedViolation gates one figure x of what m's added content costs in format
// by its added-content threshold t (nil: off) and its noise floor: past
// both and not ignored, it fails, unless it is a compressed size that is
// not gated (compressedGated, with rawFails: raw size past its own
// added-content threshold too), which it says by returning true. unset
// says which cost x is.
func (v *verdict) addedViolation(m report.Message, format string, x addedFigure, t *float64, unset, rawFails bool) (ungated bool) {
	if !pastAdded(t, x.delta) || !PastNoiseFloor(*x.delta, x.floor) {
		return false
	}
	suffix, how := "/added", "when filled"
	if unset {
		suffix, how = "/unset", "even unset"
	}
	subject := addedSubject(m.Name, format, x.metric, x.codec) + suffix
	if v.ignored(subject) {
		return false
	}
	if x.metric == report.AddedCompressedSize && !compressedGated(m, rawFails) {
		return true
	}
	v.add(report.Violation{Kind: report.KindAddedContent, Subject: subject, Unit: x.unit, Base: ptr(x.base), Head: ptr(x.head),
		DeltaPct: ptr(*x.delta), ThresholdPct: ptr(*t), NoiseFloor: x.floor,
		Detail: fmt.Sprintf("%s costs %+.1f%% %s %s, by more than the added-content threshold", elements(m), *x.delta, figureWords(format, x.metric, x.codec), how)})
	return false
}

// pastAdded is a change of delta past the added-content threshold t (nil:
// off, never past).
func pastAdded(t, delta *float64) bool {
	return t != nil && delta != nil && exceeds(*delta, *t)
}

// instrFloor is the noise floor of f's count of op (its same content's),
// for an instruction figure; nil for a size.
func instrFloor(f report.Format, metric string) *float64 {
	if metric != report.AddedEncode && metric != report.AddedDecode {
		return nil
	}
	for _, met := range f.Metrics {
		if met.Unit == cpuUnit && met.Name == metric {
			return met.NoiseFloor
		}
	}
	return nil
}

// addedSubject is an added-content figure's subject, as its same-content
// row's: message/format/size, …/compressed-size/<codec>, …/<op>/instr.
func addedSubject(message, format, metric, codec string) string {
	switch metric {
	case report.AddedSize:
		return message + "/" + format + "/size"
	case report.AddedCompressedSize:
		return message + "/" + format + "/compressed-size/" + codec
	}
	return message + "/" + format + "/" + metric + "/instr"
}

// figureWords names a figure in a sentence: "protobuf bytes/msg", "avro
// bytes per record after zstd", "json encode instructions".
func figureWords(format, metric, codec string) string {
	switch metric {
	case report.AddedSize:
		return format + " bytes/msg"
	case report.AddedCompressedSize:
		return format + " bytes per record after " + codec
	}
	return format + " " + metric + " instructions"
}

// elements are m's added fields in words (report.Records.AddedWords), or
// "what head adds" when the records say none (a required field kept).
func elements(m report.Message) string {
	words := m.Records.AddedWords()
	if len(words) == 0 {
		return "what head adds"
	}
	if len(words) > 3 {
		words = append(words[:3], fmt.Sprintf("%d more", len(words)-3))
	}
	return strings.Join(words, ", ")
}

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

// addedContent gates what m's added content costs filled, each figure by
// its kind's threshold, which it records on the figure (none: off).
func (v *verdict) addedContent(m report.Message) {
	if m.AddedContent == nil {
		return
	}
	for i := range m.AddedContent.Formats {
		af := &m.AddedContent.Formats[i]
		th := v.cfg.ThresholdsFor(m.Name, af.Format).Added
		rawFails := false
		for j := range af.Figures {
			fig := &af.Figures[j]
			fig.ThresholdPct = nil
			t := addedThreshold(th, fig.Metric)
			if t == nil {
				continue
			}
			fig.ThresholdPct = ptr(*t)
			floor := instrFloor(m, af.Format, fig.Metric)
			if fig.DeltaPct == nil || !exceeds(*fig.DeltaPct, *t) || !PastNoiseFloor(*fig.DeltaPct, floor) {
				continue
			}
			if fig.Metric == report.AddedSize {
				rawFails = true
			}
			// What added bytes compress to is the data's, as for the same
			// content (compressed.go): gated on samples, or beside raw size.
			if fig.Metric == report.AddedCompressedSize && !rawFails && (m.Records == nil || !m.Records.FromSamples) {
				continue
			}
			subject := addedSubject(m.Name, af.Format, fig.Metric, fig.Codec) + "/added"
			if v.ignored(subject) {
				continue
			}
			v.add(report.Violation{Kind: report.KindAddedContent, Subject: subject, Unit: fig.Unit, Base: ptr(fig.Without), Head: ptr(fig.With),
				DeltaPct: ptr(*fig.DeltaPct), ThresholdPct: ptr(*t), NoiseFloor: floor,
				Detail: fmt.Sprintf("%s costs %+.1f%% %s when filled, by more than the added-content threshold", elements(m), *fig.DeltaPct, figureWords(af.Format, fig.Metric, fig.Codec))})
		}
	}
}

// unsetAddition gates the same content of a message that only adds, format f
// of it, as what the added fields cost unset: size, compressed size and
// instructions by the added-content thresholds; timings and allocations
// are stated (they measure what the counts measure, with noise).
func (v *verdict) unsetAddition(m report.Message, f report.Format, th config.Added) {
	check := func(metric, codec, unit string, base, head float64, delta, floor *float64) {
		t := addedThreshold(th, metric)
		if t == nil || delta == nil || !exceeds(*delta, *t) || !PastNoiseFloor(*delta, floor) {
			return
		}
		subject := addedSubject(m.Name, f.Format, metric, codec) + "/unset"
		if v.ignored(subject) {
			return
		}
		v.add(report.Violation{Kind: report.KindAddedContent, Subject: subject, Unit: unit, Base: ptr(base), Head: ptr(head),
			DeltaPct: ptr(*delta), ThresholdPct: ptr(*t), NoiseFloor: floor,
			Detail: fmt.Sprintf("%s costs %+.1f%% %s even unset, by more than the added-content threshold", elements(m), *delta, figureWords(f.Format, metric, codec))})
	}
	if s := f.Size; s != nil {
		check(report.AddedSize, "", "B/msg", s.Base, s.Head, s.DeltaPct, nil)
		for _, c := range s.Compressed {
			if c.Base != nil {
				check(report.AddedCompressedSize, c.Codec, "B/record", *c.Base, c.Head, c.DeltaPct, nil)
			}
		}
	}
	for _, met := range f.Metrics {
		if met.Unit == cpuUnit && met.Base != nil && met.Head != nil {
			check(met.Name, "", cpuUnit, met.Base.Center, met.Head.Center, met.DeltaPct, met.NoiseFloor)
		}
	}
}

// instrFloor is the noise floor of m's count of op in format (its same
// content's), for an instruction figure; nil for a size.
func instrFloor(m report.Message, format, metric string) *float64 {
	if metric != report.AddedEncode && metric != report.AddedDecode {
		return nil
	}
	for _, f := range m.Formats {
		if f.Format != format {
			continue
		}
		for _, met := range f.Metrics {
			if met.Unit == cpuUnit && met.Name == metric {
				return met.NoiseFloor
			}
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

package gate

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/wiregate/wiregate/harness/parent/compare"
	"github.com/wiregate/wiregate/harness/parent/history"
	"github.com/wiregate/wiregate/harness/parent/inputs"
	"github.com/wiregate/wiregate/harness/parent/report"
	"github.com/wiregate/wiregate/harness/program/codec"
)

// The sequencer's second half: how each stage's typed result enters
// report.json. Only Run (gate.go) calls these; no stage sees the report.

// enterResults puts what the measuring stages returned in the report,
// with what measuring each message cost (measuringTimesOf).
func enterResults(r *report.Report, set inputs.Settings, m stageResults, costs []report.MeasuringTime) {
	if m.sch == nil {
		return
	}
	r.Change = &m.sch.change
	r.Skipped = skipped(set.Messages, m.sch)
	r.Findings = append(r.Findings, m.sch.mismatches...)
	r.Cut.ShardsNeeded = m.needed
	r.Shard = m.shard
	if m.narrowed {
		for _, name := range m.list {
			msg := r.Message(name)
			msg.Status = m.sch.status[name]
			msg.UnchangedSchema = msg.Status == report.StatusUnchanged
		}
	}
	if m.sized {
		enterSizes(r, set.Formats, m.sizes, m.pools)
	}
	enterCounts(r, m.counts)
	enterAdded(r, set.Formats, m.sizes, m.counts)
	enterTimings(r, m.timings)
	enterCompared(r, m.compared)
	enterPipeline(r, set, m.rows)
	r.MeasuringTimes = costs
}

// exactOf are the formats m measured, as the history stage reads them: the
// sizes and metrics enterResults enters, taken from the stages' typed
// results (the history stage never reads the report back).
func exactOf(m stageResults, formats []string) []history.ExactFormat {
	if m.sch == nil {
		return nil
	}
	byFormat := map[string]*history.ExactFormat{}
	var order []string
	at := func(message, format string) *history.ExactFormat {
		k := message + "/" + format
		if byFormat[k] == nil {
			byFormat[k] = &history.ExactFormat{Message: message, Format: format}
			order = append(order, k)
		}
		return byFormat[k]
	}
	if m.sized {
		for _, k := range sortedKeys(m.sizes.pairs) {
			if size := sizeOf(m.sizes, k); size != nil {
				msg, format, _ := strings.Cut(k, "/")
				at(msg, format).Size = size
			}
		}
	}
	for _, fm := range append(countedMetrics(m.counts), m.compared.metrics...) {
		f := at(fm.message, fm.format)
		f.Metrics = append(f.Metrics, fm.Metric)
	}
	added := map[string]*report.AddedContent{}
	out := make([]history.ExactFormat, 0, len(order))
	for _, k := range order {
		f := *byFormat[k]
		if _, ok := added[f.Message]; !ok {
			added[f.Message] = addedContentOf(f.Message, formats, m.sizes, m.counts)
		}
		f.Added = added[f.Message].Format(f.Format)
		out = append(out, f)
	}
	return out
}

// enterMetrics adds metrics to their formats.
func enterMetrics(r *report.Report, ms []formatMetric) {
	for _, m := range ms {
		f := r.Format(m.message, m.format)
		f.Metrics = append(f.Metrics, m.Metric)
	}
}

// enterCompared puts benchstat's text and the timed metrics in the
// report, each format's metrics in one order: by op, then unit.
func enterCompared(r *report.Report, c compared) {
	r.Benchstat = c.benchstat
	enterMetrics(r, c.metrics)
	for i := range r.Messages {
		for j := range r.Messages[i].Formats {
			ms := r.Messages[i].Formats[j].Metrics
			sort.SliceStable(ms, func(a, b int) bool {
				if ms[a].Name != ms[b].Name {
					return ms[a].Name < ms[b].Name // decode, encode
				}
				return unitOrder[ms[a].Unit] < unitOrder[ms[b].Unit]
			})
		}
	}
}

// enterCounts puts how counting went in the report, and each counted
// message's instr/op metrics.
func enterCounts(r *report.Report, c counts) {
	if c.cpuCost == nil {
		return
	}
	r.CPUCost = c.cpuCost
	p := c.forecast
	if len(p.FewerProcesses) > 0 || len(p.Uncounted) > 0 {
		r.Cut.CPU = &report.CPUCut{Uncounted: p.Uncounted,
			FewerProcesses: slices.Clone(p.FewerProcesses), Note: p.Note}
	}
	enterMetrics(r, countedMetrics(c))
}

// countedMetrics are the instr/op metrics of a count that ran.
func countedMetrics(c counts) []formatMetric {
	if c.cpuCost == nil {
		return nil
	}
	return countMetrics(c.base, c.head)
}

// enterTimings puts the bench forecast (and what it cut) in the report; compare turned the
// lines into metrics (enterCompared).
func enterTimings(r *report.Report, t timings) {
	if t.forecast.Rounds == 0 && t.forecast.Note == "" && len(t.forecast.Timed) == 0 {
		return
	}
	r.Cut.Bench = &report.BenchCut{Rounds: t.rounds, Benchtime: t.forecast.Benchtime.String(), Untimed: t.forecast.Untimed, Note: t.forecast.Note}
	r.Env.UnchangedRounds = t.unchangedRounds
	if t.pin != "" {
		r.Env.BenchPin = t.pin
	}
}

// enterSizes puts the exact stage's sizes in the report, with the plan's
// cut and the records' notes.
func enterSizes(r *report.Report, formats []string, s sizes, p pools) {
	if len(s.unmeasured) > 0 {
		r.Cut.Exact = &report.ExactCut{Unmeasured: s.unmeasured,
			Note: fmt.Sprintf("to fit the time budget: %d messages not measured", len(s.unmeasured))}
	}
	aliasing := map[string]bool{}
	if fs, err := codec.Parse(strings.Join(formats, ",")); err == nil {
		for _, f := range fs {
			aliasing[f.Name] = f.Aliasing
		}
	}
	// In the formats input's order, not the map's: a report's formats (and
	// the comment's rows) must read the same run after run.
	keys := slices.SortedFunc(maps.Keys(s.pairs), func(a, b string) int {
		am, af, _ := strings.Cut(a, "/")
		bm, bf, _ := strings.Cut(b, "/")
		return cmp.Or(strings.Compare(am, bm), cmp.Compare(slices.Index(formats, af), slices.Index(formats, bf)), strings.Compare(af, bf))
	})
	for _, k := range keys {
		size := sizeOf(s, k)
		if size == nil {
			continue
		}
		msg, format, _ := strings.Cut(k, "/")
		f := r.Format(msg, format)
		f.Aliasing = aliasing[format]
		f.Size = size
	}
	for name, notes := range p.notes {
		if r.HasMessage(name) {
			r.Message(name).Records = notes
		}
	}
}

// sizeOf is the size entry of the sized format k ("message/format"): nil
// when head has none.
func sizeOf(s sizes, k string) *report.Size {
	pair := s.pairs[k]
	head := pair[1]
	if head == nil {
		return nil
	}
	size := &report.Size{Head: head.BytesMean, VsJSON: head.VsJSON}
	if base := pair[0]; base != nil {
		size.Base = base.BytesMean
		size.DeltaPct = compare.DeltaPct(base.BytesMean, head.BytesMean)
	}
	size.Compressed = compressedSizes(pair[0], head, size.DeltaPct)
	return size
}

// enterPipeline puts the rows, the broker and what the deadline cut in
// the report.
func enterPipeline(r *report.Report, set inputs.Settings, rows pipelineRows) {
	for m, fs := range rows.piped {
		for _, f := range fs {
			r.Format(m, f).Piped = true
		}
	}
	res := rows.res
	if res == nil {
		return
	}
	r.Env.PipelineN, r.Env.PipelineBytes = int(set.PipelineMessages), set.PipelineBytes
	r.Cut.Pipeline = &report.PipelineCut{Untimed: res.Untimed, Note: res.Cut}
	r.Env.Broker, r.Env.BrokerReason, r.Env.BrokerPeakRSSBytes = res.Broker, res.BrokerReason, res.BrokerPeakRSSBytes
	if rows.rounds > 0 {
		r.Env.UnchangedRounds = rows.rounds
	}
	for _, row := range res.Rows {
		for _, s := range row.Sides {
			r.Env.ConsumerPeakRSSBytes = max(r.Env.ConsumerPeakRSSBytes, s.PeakRSSBytes)
			if s.Cap != "" {
				r.Env.ConsumerCap = s.Cap
			}
		}
	}
	r.Pipeline = append(r.Pipeline, rows.entries...)
}

// enterHistory puts the history section in the report and, on a pull
// request, charts each changed message on the points read.
func enterHistory(r *report.Report, h read) {
	r.History = h.section
	if !h.chart {
		return
	}
	r.History.Messages = history.Changed(r, h.points, r.History.Points)
	if len(r.History.Messages) == 0 {
		r.History.Note = fmt.Sprintf("the %d points on %s have none of the changed figures yet", len(h.points), r.History.Branch)
	}
}

// enterAdded puts in the report what each message's added content costs
// when filled (report.AddedContent, addedContentOf), and, for a format
// whose same content grew where protobuf's did not, why
// (report.Size.Unset). The split itself is the records stage's
// (record.Split); this only reads its figures.
func enterAdded(r *report.Report, formats []string, sz sizes, c counts) {
	for i := range r.Messages {
		m := &r.Messages[i]
		m.AddedContent = addedContentOf(m.Name, formats, sz, c)
		enterUnset(m, sz)
	}
}

// enterUnset says, on each format of m whose same content is larger than
// the base's, when m only adds (so no value grew: the change is the fields
// head adds), that the format writes them even when they are unset: Avro
// writes every field, JSON every plain value and list. What it costs is
// the addition's; this says why.
func enterUnset(m *report.Message, sz sizes) {
	if m.Records == nil || !m.Records.OnlyAdded {
		return
	}
	// What a format writes unset: the new fields, and the new members of
	// a oneof (Avro's null branch), held or not.
	var added []string
	for _, n := range append(m.Records.AddedFields(), m.Records.NewOneofMembers...) {
		if !slices.Contains(added, n.Field) {
			added = append(added, n.Field)
		}
	}
	if len(added) == 0 {
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

// Package history keeps main's exact figures in the repository itself: a
// branch (wiregate-data by default) holding one JSON line per recorded
// commit, appended with git plumbing on a push to the default branch and
// read by pull requests to chart how a changed message got where it is.
// Only exact figures go in (bytes/msg, allocs/op, instr/op): they need no
// statistics, so a point from one runner compares with a point from
// another.
package history

import (
	"slices"

	"github.com/wiregate/wiregate/harness/parent/report"
)

// Point is one line of the store: a commit of the default branch and its
// exact figures.
type Point struct {
	Sha     string   `json:"sha"`
	Ref     string   `json:"ref"`
	Date    string   `json:"date"` // the commit's committer date, RFC 3339
	Figures []Figure `json:"figures"`
	// What the figures were measured with: wiregate's harness (its sources'
	// hash), Go, and each message's schema print. A later push whose
	// message has the same print under the same wiregate and Go carries
	// the message's figures forward instead of measuring it again.
	Wiregate string            `json:"wiregate,omitempty"`
	Go       string            `json:"go,omitempty"`
	Schemas  map[string]string `json:"schemas,omitempty"`
	// MeasuringTimes are what measuring each message took (report.MeasuringTime):
	// measured by this point's run, or carried with its figures. Plans price
	// by them.
	MeasuringTimes []report.MeasuringTime `json:"costs,omitempty"`
}

// MeasuredBy says p was measured by wiregate under goVersion: only then do
// its figures and what its stages cost speak for a run of that harness.
func (p Point) MeasuredBy(wiregate, goVersion string) bool {
	return p.Wiregate != "" && p.Wiregate == wiregate && p.Go == goVersion
}

// Carryable are the messages of prints whose figures the point p can
// carry to a new point measured with wiregate and goVersion: the same
// schema print, the same wiregate and Go (MeasuredBy), and figures recorded.
func (p Point) Carryable(wiregate, goVersion string, prints map[string]string) map[string]bool {
	out := map[string]bool{}
	if !p.MeasuredBy(wiregate, goVersion) {
		return out
	}
	has := map[string]bool{}
	for _, f := range p.Figures {
		has[f.Message] = true
	}
	for m, print := range prints {
		if print != "" && p.Schemas[m] == print && has[m] {
			out[m] = true
		}
	}
	return out
}

// FiguresOf are p's figures of the given messages.
func (p Point) FiguresOf(messages map[string]bool) []Figure {
	var out []Figure
	for _, f := range p.Figures {
		if messages[f.Message] {
			out = append(out, f)
		}
	}
	return out
}

// MeasuringTimesOf are p's measuring times of the given messages.
func (p Point) MeasuringTimesOf(messages map[string]bool) []report.MeasuringTime {
	var out []report.MeasuringTime
	for _, c := range p.MeasuringTimes {
		if messages[c.Message] {
			out = append(out, c)
		}
	}
	return out
}

// Figure is one exact figure of one message in one format.
type Figure struct {
	Message string  `json:"message"`
	Format  string  `json:"format"`
	Metric  string  `json:"metric"` // size, or the benchmark's operation: encode, decode
	Unit    string  `json:"unit"`
	Value   float64 `json:"value"`
}

// SizeMetric and SizeUnit name bytes/msg among a message's figures.
const (
	SizeMetric = "size"
	SizeUnit   = "B/msg"
)

// exactUnits are the benchmark units that are deterministic: the same code
// on the same records gives the same number on any machine, so a history
// of them needs no statistics. sec/op is not (noise); B/op is left out as
// allocs/op already says whether allocation changed.
var exactUnits = []string{"allocs/op", "instr/op"}

// key identifies a figure's series across points.
type key struct{ message, format, metric, unit string }

func (f Figure) key() key { return key{f.Message, f.Format, f.Metric, f.Unit} }

// pair is one series' base and head value in a report.
type pair struct {
	key
	base, head float64
	hasBase    bool
	// withinNoise is a change no bigger than what identical code moves:
	// an instruction count within its noise floor (Metric.Significant
	// false), which is not charted as a change.
	withinNoise bool
}

// ExactFormat is one format of one message as a run measured it: its size
// (nil when not sized) and its metrics. The history stage takes these from
// the measuring stages' typed results, never from the report.
type ExactFormat struct {
	Message, Format string
	Size            *report.Size
	Metrics         []report.Metric
	// Added are head's figures on its records whole, where they hold
	// added content (report.AddedContent): what head's records cost is
	// theirs, so a point records them and a chart ends on them.
	Added *report.AddedFormat
}

// ExactIn are r's formats as ExactFormat, in report order: what the chart
// reads once the results entered the report.
func ExactIn(r *report.Report) []ExactFormat {
	var out []ExactFormat
	for _, m := range r.Messages {
		for _, f := range m.Formats {
			out = append(out, ExactFormat{Message: m.Name, Format: f.Format, Size: f.Size, Metrics: f.Metrics, Added: m.AddedContent.Format(f.Format)})
		}
	}
	return out
}

// whole is f's head figure of metric on head's records whole, when they
// hold added content; else head, the same content's.
func (f ExactFormat) whole(metric string, head float64) float64 {
	if f.Added == nil {
		return head
	}
	for _, fig := range f.Added.Figures {
		if fig.Metric == metric && fig.Codec == "" {
			return fig.With
		}
	}
	return head
}

// pairs are the exact figures of ms, base and head, in their order.
func pairs(ms []ExactFormat) []pair {
	var out []pair
	for _, f := range ms {
		if f.Size != nil {
			out = append(out, pair{key: key{f.Message, f.Format, SizeMetric, SizeUnit}, base: f.Size.Base, head: f.whole(report.AddedSize, f.Size.Head),
				hasBase: f.Size.DeltaPct != nil || f.Size.Base != 0})
		}
		for _, met := range f.Metrics {
			if !slices.Contains(exactUnits, met.Unit) || met.Head == nil {
				continue
			}
			head := met.Head.Center
			if met.Unit == "instr/op" {
				head = f.whole(met.Name, head)
			}
			p := pair{key: key{f.Message, f.Format, met.Name, met.Unit}, head: head,
				withinNoise: met.NoiseFloor != nil && !met.Significant && met.Unit == "instr/op" && head == met.Head.Center}
			if met.Base != nil {
				p.base, p.hasBase = met.Base.Center, true
			}
			out = append(out, p)
		}
	}
	return out
}

// Figures are the head's exact figures in ms: what a push records.
func Figures(ms []ExactFormat) []Figure {
	var out []Figure
	for _, p := range pairs(ms) {
		out = append(out, Figure{Message: p.message, Format: p.format, Metric: p.metric, Unit: p.unit, Value: p.head})
	}
	return out
}

// changed are the series whose head differs from base, exactly (an
// instruction count: past its noise floor). A series new in head (no base)
// is not a change of an existing message: it has no history to chart.
func changed(ms []ExactFormat) []pair {
	var out []pair
	for _, p := range pairs(ms) {
		if p.hasBase && p.base != p.head && !p.withinNoise {
			out = append(out, p)
		}
	}
	return out
}

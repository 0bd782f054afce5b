package history

import (
	"reflect"
	"testing"

	"github.com/wiregate/wiregate/harness/parent/report"
)

func f64(x float64) *float64 { return &x }

func summary(c float64) *report.Summary { return &report.Summary{Center: c, N: 3} }

// change is a report where orders.v1.Order grew in protobuf and allocates
// more on decode in json, telemetry did not change, and a message new in
// head has no base.
func change() *report.Report {
	r := report.New()
	r.Head.Sha = "feedface"
	r.Messages = []report.Message{
		{Name: "orders.v1.Order", Formats: []report.Format{
			{Format: "json", Size: &report.Size{Base: 80, Head: 80, DeltaPct: f64(0)}, Metrics: []report.Metric{
				{Name: "decode", Unit: "sec/op", Base: summary(1e-6), Head: summary(2e-6)},
				{Name: "decode", Unit: "allocs/op", Base: summary(4), Head: summary(5)},
				{Name: "decode", Unit: "B/op", Base: summary(64), Head: summary(96)},
			}},
			{Format: "protobuf", Size: &report.Size{Base: 30, Head: 33, DeltaPct: f64(10)}, Metrics: []report.Metric{
				{Name: "decode", Unit: "instr/op", Base: summary(3000), Head: summary(3000)},
			}},
		}},
		{Name: "telemetry.v1.TelemetryEvent", Formats: []report.Format{
			{Format: "protobuf", Size: &report.Size{Base: 100, Head: 100, DeltaPct: f64(0)}},
		}},
		{Name: "zz.v1.New", Formats: []report.Format{{Format: "protobuf", Size: &report.Size{Head: 12}}}},
	}
	return r
}

func TestFiguresAreTheHeadsExactOnes(t *testing.T) {
	var got []string
	for _, f := range Figures(ExactIn(change())) {
		got = append(got, f.Message+"/"+f.Format+"/"+f.Metric+" "+f.Unit)
	}
	want := []string{
		"orders.v1.Order/json/size B/msg", "orders.v1.Order/json/decode allocs/op",
		"orders.v1.Order/protobuf/size B/msg", "orders.v1.Order/protobuf/decode instr/op",
		"telemetry.v1.TelemetryEvent/protobuf/size B/msg", "zz.v1.New/protobuf/size B/msg",
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("figures\n got %q\nwant %q", got, want)
	}
}

func TestChangedChartsMainsLastPointsThenTheHead(t *testing.T) {
	r := change()
	if n := ChangedMessages(ExactIn(r)); n != 1 {
		t.Fatalf("%d changed messages, want 1 (orders)", n)
	}
	var points []Point
	for i := 1; i <= 5; i++ {
		p := Point{Sha: sha(i), Date: "d", Figures: []Figure{
			{Message: "orders.v1.Order", Format: "protobuf", Metric: SizeMetric, Unit: SizeUnit, Value: float64(25 + i)},
			{Message: "telemetry.v1.TelemetryEvent", Format: "protobuf", Metric: SizeMetric, Unit: SizeUnit, Value: 100},
		}}
		if i >= 4 { // allocs/op was counted from the fourth commit on
			p.Figures = append(p.Figures, Figure{Message: "orders.v1.Order", Format: "json", Metric: "decode", Unit: "allocs/op", Value: 4})
		}
		points = append(points, p)
	}
	points = append(points, Point{Sha: sha(6), Figures: []Figure{{Message: "other.v1.X", Format: "json", Metric: SizeMetric, Unit: SizeUnit, Value: 1}}})

	got := Changed(r, points, 3)
	if len(got) != 1 || got[0].Name != "orders.v1.Order" {
		t.Fatalf("%+v", got)
	}
	m := got[0]
	var shas []string
	for _, c := range m.Commits {
		shas = append(shas, c.Sha)
	}
	// The last 3 points with an orders figure (not the sixth), oldest
	// first, then the head.
	if want := []string{sha(3), sha(4), sha(5), "feedface"}; !reflect.DeepEqual(shas, want) || !m.Commits[3].Head || m.Commits[2].Head {
		t.Fatalf("commits %q (%+v)", shas, m.Commits)
	}
	values := map[string][]any{}
	for _, s := range m.Series {
		for _, v := range s.Values {
			if v == nil {
				values[s.Format+" "+s.Unit] = append(values[s.Format+" "+s.Unit], nil)
			} else {
				values[s.Format+" "+s.Unit] = append(values[s.Format+" "+s.Unit], *v)
			}
		}
	}
	want := map[string][]any{"json allocs/op": {nil, 4.0, 4.0, 5.0}, "protobuf B/msg": {28.0, 29.0, 30.0, 33.0}}
	if !reflect.DeepEqual(values, want) {
		t.Fatalf("series %v, want %v", values, want)
	}
	if got := Changed(r, nil, 3); len(got) != 0 {
		t.Fatalf("no points, yet %+v", got)
	}
}

// An instruction count moves a little between identical programs (its
// noise floor, docs/verdicts.md): within it, a message has not changed and
// is not charted; past it, its count is.
func TestInstructionNoiseIsNotAChange(t *testing.T) {
	count := func(head float64, significant bool) *report.Report {
		r := report.New()
		r.Messages = []report.Message{{Name: "a.v1.M", Formats: []report.Format{{Format: "json",
			Size: &report.Size{Base: 80, Head: 80, DeltaPct: f64(0)}, Metrics: []report.Metric{
				{Name: "encode", Unit: "instr/op", Base: summary(10000), Head: summary(head), NoiseFloor: f64(5), Significant: significant},
			}}}}}
		return r
	}
	if n := ChangedMessages(ExactIn(count(10048, false))); n != 0 {
		t.Errorf("a count within its noise floor changed %d messages", n)
	}
	if n := ChangedMessages(ExactIn(count(10600, true))); n != 1 {
		t.Errorf("a count past its noise floor changed %d messages, want 1", n)
	}
}

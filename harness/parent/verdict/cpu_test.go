package verdict

import (
	"testing"

	"github.com/wiregate/wiregate/harness/parent/report"
)

// instr builds an instr/op metric as the gate reports it: exact counts on
// each side, and the count's noise floor in percent (0: none given).
func instr(name string, base, head, floorPct float64) report.Metric {
	m := report.Metric{Name: name, Unit: "instr/op",
		Base: &report.Summary{Center: base, Lo: base, Hi: base, N: 1}, Head: &report.Summary{Center: head, Lo: head, Hi: head, N: 1},
		DeltaPct: f((head/base - 1) * 100), Significant: head != base}
	if floorPct > 0 {
		m.NoiseFloor = f(floorPct)
	}
	return m
}

func TestCPU(t *testing.T) {
	cases := []struct {
		name   string
		r      *report.Report
		yaml   string
		allow  Allow
		want   []want
		result string
	}{
		{name: "growth past threshold and floor", r: withFormat("protobuf", nil, instr("decode", 3784, 3951, 0.5)), result: "fail",
			want: []want{{kind: "cpu", subject: msg + "/protobuf/decode/instr", detail: []string{"decode executes more instructions", "cpu threshold"},
				unit: "instr/op", base: 3784, head: 3951, delta: 4.41, threshold: 2}}},
		{name: "allowed by the regression label", r: withFormat("protobuf", nil, instr("decode", 3784, 3951, 0.5)), allow: Allow{Regression: true},
			result: "pass", want: []want{{kind: "cpu", subject: msg + "/protobuf/decode/instr", allowed: true}}},
		{name: "at the threshold", r: withFormat("avro", nil, instr("encode", 2000, 2040, 0.8)), result: "pass"},
		{name: "improvement", r: withFormat("avro", nil, instr("encode", 2000, 1500, 0.8)), result: "pass"},
		// A JSON count moves by up to 168 instr/op between identical
		// programs; the floor (1%, 500 instr/op) is 5% of 10,000.
		{name: "past a zero threshold but under the floor", r: withFormat("json", nil, instr("encode", 10000, 10049, 5)), yaml: "thresholds: {cpu: 0%}", result: "pass"},
		{name: "past the threshold but under the floor", r: withFormat("json", nil, instr("encode", 10000, 10400, 5)), result: "pass"},
		{name: "past both", r: withFormat("json", nil, instr("encode", 10000, 10600, 5)), result: "fail",
			want: []want{{kind: "cpu", subject: msg + "/json/encode/instr", unit: "instr/op", base: 10000, head: 10600, delta: 6, threshold: 2}}},
		{name: "no floor given: the threshold alone", r: withFormat("json", nil, instr("encode", 10000, 10400, 0)), result: "fail",
			want: []want{{kind: "cpu", subject: msg + "/json/encode/instr", unit: "instr/op", base: 10000, head: 10400, delta: 4, threshold: 2}}},
		{name: "cpu override per format", r: withFormat("protobuf", nil, instr("decode", 3784, 3951, 0.5)),
			yaml: "overrides:\n  - format: protobuf\n    cpu: 5%", result: "pass"},
		{name: "cpu threshold from wiregate.yaml", r: withFormat("protobuf", nil, instr("decode", 1000, 1015, 0.5)),
			yaml: "thresholds: {cpu: 1%}", result: "fail",
			want: []want{{kind: "cpu", subject: msg + "/protobuf/decode/instr", unit: "instr/op", base: 1000, head: 1015, delta: 1.5, threshold: 1}}},
		{name: "ignoring the op ignores its count", r: withFormat("protobuf", nil, instr("decode", 3784, 3951, 0.5)),
			yaml: "ignore:\n  - subject: " + msg + "/protobuf/decode\n    reason: decode is off the hot path", result: "pass"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg := defaults()
			if c.yaml != "" {
				cfg = cfgWith(c.yaml)
			}
			Apply(c.r, cfg, c.allow, Options{})
			if c.r.Result != c.result || len(c.r.Violations) != len(c.want) {
				t.Fatalf("result %s, want %s; violations %+v, want %d", c.r.Result, c.result, c.r.Violations, len(c.want))
			}
			for i, w := range c.want {
				v := c.r.Violations[i]
				if v.Kind != w.kind || v.Subject != w.subject || v.Allowed != w.allowed {
					t.Errorf("violation %+v, want %+v", v, w)
				}
				if w.unit != "" {
					checkNumbers(t, v, w)
				}
			}
		})
	}
}

// unchangedNextToChanged is two messages measured alike: a big,
// significant slowdown, more allocations, more instructions and a
// throughput drop in both; only Changed's schema differs between the sides.
func unchangedNextToChanged() *report.Report {
	r := report.New()
	formats := func() []report.Format {
		return []report.Format{{Format: "protobuf", Size: size(100, 100), Metrics: []report.Metric{
			timing("decode", "sec/op", 40, 0.0001), timing("decode", "allocs/op", 50, 0.0001), instr("decode", 3000, 3300, 0.5)}}}
	}
	r.Messages = []report.Message{
		{Name: "a.v1.Changed", Formats: formats()},
		{Name: "a.v1.Same", Formats: formats(), UnchangedSchema: true},
	}
	for _, m := range []string{"a.v1.Changed", "a.v1.Same"} {
		r.Pipeline = append(r.Pipeline, report.Pipeline{Message: m, Format: "protobuf", Broker: "embedded",
			Base: &report.Summary{Center: 1e6, N: 6}, Head: &report.Summary{Center: 7e5, N: 6}, DeltaPct: f(-30), P: f(0.002), Significant: true})
	}
	return r
}

// An unchanged schema cannot regress in a same-harness comparison: what its
// timings or counts move is noise, and never a violation, however large and
// significant. The changed message next to it fails on every kind.
func TestUnchangedSchemaIsNeverATimingViolation(t *testing.T) {
	r := unchangedNextToChanged()
	Apply(r, defaults(), Allow{}, Options{})
	got := map[string]string{}
	for _, v := range r.Violations {
		got[v.Subject] = v.Kind
	}
	want := map[string]string{
		"a.v1.Changed/protobuf/decode":        "time",
		"a.v1.Changed/protobuf/decode/allocs": "time",
		"a.v1.Changed/protobuf/decode/instr":  "cpu",
		"a.v1.Changed/protobuf/pipeline":      "throughput",
	}
	if len(got) != len(want) {
		t.Fatalf("violations %v, want %v", got, want)
	}
	for s, k := range want {
		if got[s] != k {
			t.Errorf("%s: %q, want %q (all: %v)", s, got[s], k, got)
		}
	}
}

// The unchanged message's tests are not in the Holm families: with it,
// Changed's marginal p would face twice the tests and pass.
func TestUnchangedSchemaLeavesTheHolmFamilies(t *testing.T) {
	r := unchangedNextToChanged()
	for i := range r.Messages {
		r.Messages[i].Formats[0].Metrics[0].P = f(0.04) // Holm over two: 0.04 > 0.05/2
	}
	Apply(r, defaults(), Allow{}, Options{})
	var timeViolations int
	for _, v := range r.Violations {
		if v.Kind == "time" && v.Subject == "a.v1.Changed/protobuf/decode" {
			timeViolations++
		}
	}
	if timeViolations != 1 {
		t.Fatalf("p=0.04 alone in its family did not fail Changed: %+v", r.Violations)
	}
}

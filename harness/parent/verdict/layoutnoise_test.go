package verdict

import (
	"testing"

	"github.com/wiregate/wiregate/harness/parent/report"
)

// A significant time delta on a format whose bytes, instructions and
// allocations are equal on both sides is layout noise; the same delta
// where an exact figure moved (a byte, an instruction past its floor, an
// allocation) is not.
func TestSignificantTimeWithEqualExactFiguresIsLayoutNoise(t *testing.T) {
	exact := func(instrHead, allocsDelta float64) []report.Metric {
		allocs := timing("decode", "allocs/op", allocsDelta, 1)
		if allocsDelta != 0 {
			allocs.P, allocs.Significant = f(0.008), true
		}
		return []report.Metric{timing("decode", "sec/op", 3.6, 0.0009), instr("decode", 6910, instrHead, 0), allocs}
	}
	for _, c := range []struct {
		name  string
		size  *report.Size
		ms    []report.Metric
		noise bool
	}{
		{"all equal", size(140.8, 140.8), exact(6910, 0), true},
		{"a byte more", size(140.8, 141.8), exact(6910, 0), false},
		{"more instructions", size(140.8, 140.8), exact(7100, 0), false},
		{"more allocations", size(140.8, 140.8), exact(6910, 20), false},
		{"nothing exact measured", size(140.8, 140.8), []report.Metric{timing("decode", "sec/op", 3.6, 0.0009)}, false},
	} {
		r := withFormat("avro", c.size, c.ms...)
		Apply(r, cfgWith(""), Allow{}, Options{})
		if got := r.Messages[0].Formats[0].Metrics[0].LayoutNoise; got != c.noise {
			t.Errorf("%s: layout noise %v, want %v", c.name, got, c.noise)
		}
		for _, m := range r.Messages[0].Formats[0].Metrics[1:] {
			if m.LayoutNoise {
				t.Errorf("%s: %s %s marked: only timings are", c.name, m.Name, m.Unit)
			}
		}
	}
	// Not significant: nothing to mark.
	r := withFormat("avro", size(1, 1), timing("decode", "sec/op", 1, 0.4), instr("decode", 10, 10, 0))
	Apply(r, cfgWith(""), Allow{}, Options{})
	if r.Messages[0].Formats[0].Metrics[0].LayoutNoise {
		t.Error("a delta that is not significant is not marked")
	}
}

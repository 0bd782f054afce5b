package verdict

import "github.com/wiregate/wiregate/harness/parent/report"

// markLayoutNoise flags each significant sec/op delta of a format whose
// exact figures are equal on both sides: the same bytes, and every
// instruction and allocation count (instr/op, allocs/op, B/op) within its
// noise floor or its test. The work is the same, so what the clock moved
// is the two builds' code layout and the runner, not the schema: the
// comment shows it muted, with why, rather than as a change. (It does not
// decide the gate: a delta past the time threshold still fails.)
func markLayoutNoise(r *report.Report) {
	for _, m := range r.Messages {
		for _, f := range m.Formats {
			equal := exactEqual(f)
			for i := range f.Metrics {
				met := &f.Metrics[i]
				met.LayoutNoise = equal && met.Unit == "sec/op" && met.Significant
			}
		}
	}
}

// exactEqual is whether f's bytes/msg are the same on both sides and no
// exact count of f moved past its noise: the format did the same work.
func exactEqual(f report.Format) bool {
	if f.Size == nil || f.Size.Base != f.Size.Head {
		return false
	}
	exact := 0
	for _, met := range f.Metrics {
		switch met.Unit {
		case cpuUnit, "allocs/op", "B/op":
			if met.Significant || met.Base == nil || met.Head == nil {
				return false
			}
			exact++
		}
	}
	return exact > 0
}

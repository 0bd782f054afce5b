package compare

import "golang.org/x/perf/benchmath"

// Samples compares two sets of raw samples (e.g. pipeline records/s per
// round) with the statistics benchstat uses for benchmarks: median, 95%
// interval, Mann-Whitney U at alpha, which the caller has validated (the
// gate's inputs and wiregate.yaml do).
func Samples(base, head []float64, unit string, alpha float64) Comparison {
	thresholds := benchmath.DefaultThresholds
	thresholds.CompareAlpha = alpha
	// NewSample sorts in place; the caller's slices stay as they were.
	b := benchmath.NewSample(append([]float64(nil), base...), &thresholds)
	h := benchmath.NewSample(append([]float64(nil), head...), &thresholds)
	a := benchmath.AssumeNothing
	bs, hs := a.Summary(b, confidence), a.Summary(h, confidence)
	cmp := a.Compare(b, h)
	c := fromCells(bs, hs, cmp, len(base), len(head))
	c.Unit = unit
	c.NoiseFloorPct, c.NoiseFloorReason = NoiseFloor(b.Values, a, alpha)
	for _, w := range append(append(bs.Warnings, hs.Warnings...), cmp.Warnings...) {
		c.Warnings = append(c.Warnings, w.Error())
	}
	return c
}

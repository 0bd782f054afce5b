package compare

import (
	"fmt"
	"math"

	"golang.org/x/perf/benchmath"
)

// NoiseFloor is the smallest relative change, in percent, that this run's
// own samples could have told from noise: the smallest δ for which
// comparing the base samples with the same samples scaled by (1+δ) is
// significant at alpha under assumption. It is a property of the spread and
// the count of the samples, not of the change measured: a 3% slowdown
// reported as "~" with a noise floor of 8% means "this run could not have
// seen it", not "there is none".
//
// It returns nil and a reason when no change could be significant: too few
// samples for the test to ever reach alpha, or samples that are not all
// positive (a relative change of 0 is not defined).
func NoiseFloor(base []float64, assumption benchmath.Assumption, alpha float64) (*float64, string) {
	if len(base) == 0 {
		return nil, "no samples"
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range base {
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	if !(lo > 0) {
		return nil, "samples are not all positive, so a relative change is not defined"
	}
	thresholds := benchmath.DefaultThresholds
	thresholds.CompareAlpha = alpha
	orig := benchmath.NewSample(append([]float64(nil), base...), &thresholds)
	significant := func(delta float64) bool {
		scaled := make([]float64, len(base))
		for i, v := range orig.Values {
			scaled[i] = v * (1 + delta)
		}
		c := assumption.Compare(orig, benchmath.NewSample(scaled, &thresholds))
		return !(c.P > c.Alpha)
	}
	// Past hi/lo-1 the two samples no longer overlap: the most separated
	// they can get, so if that is not significant nothing is.
	top := (hi/lo - 1) * 1.01
	if top < 1e-9 {
		top = 1e-9 // all samples equal: any change separates them completely
	}
	if !significant(top) {
		return nil, fmt.Sprintf("n=%d samples per side can never reach alpha=%v", len(base), alpha)
	}
	// Ranks shift monotonically with δ, so p falls monotonically: bisect.
	var bottom float64
	for i := 0; i < 60 && top-bottom > 1e-6*top; i++ {
		mid := (bottom + top) / 2
		if significant(mid) {
			top = mid
		} else {
			bottom = mid
		}
	}
	pct := top * 100
	return &pct, ""
}

// TimeMDE is NoiseFloor for a timing (sec/op) at a Holm cutoff: what
// benchstat assumes of a unit that declares nothing (benchmath.AssumeNothing,
// the Mann-Whitney U test), as the bench comparisons do.
func TimeMDE(base []float64, alpha float64) (*float64, string) {
	return NoiseFloor(base, benchmath.AssumeNothing, alpha)
}

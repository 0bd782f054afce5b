package gate

import (
	"fmt"
	"testing"

	"github.com/wiregate/wiregate/harness/parent/compare"
	"github.com/wiregate/wiregate/harness/parent/cpucost"
	"github.com/wiregate/wiregate/harness/parent/report"
)

// Every figure made from rounds, fed zero and one rounds (what a stage the
// budget cut short leaves), is a number or absent: never NaN or ±Inf,
// which report.json cannot hold.
func TestRoundsBasedFiguresOfZeroAndOneRoundAreNumbersOrAbsent(t *testing.T) {
	rounds := []float64{2.5e-7, 2.6e-7, 2.4e-7}
	for _, n := range []int{0, 1} {
		vs := rounds[:n]
		check := func(what string, v any) {
			t.Helper()
			if bad := report.NonFinite(v); len(bad) > 0 {
				t.Errorf("%d rounds: %s is not a number at %v", n, what, bad)
			}
		}
		mde, _ := compare.TimeMDE(vs, 0.05/12)
		check("TimeMDE", mde)
		planned, _ := plannedMDE(vs, 0.05/12, 10)
		check("plannedMDE", planned)
		check("relative", relative(vs))
		check("relative of zeros", relative([]float64{0, 0}[:n]))
		if n > 0 {
			check("Samples", compare.Samples(vs, vs, "records/s", 0.05))
		}
		bench := []byte(fmt.Sprintf("BenchmarkEncode/a.v1.B/json-2 \t 1000\t %d ns/op\n", 250))
		if n == 0 {
			bench = nil
		}
		check("noise", timings{out: [2][]byte{bench, bench}}.noise())
		c := counts{seconds: map[string]float64{"a.v1.B": 3}, processes: map[string]int{}}
		check("measuring times", measuringTimesOf([]string{"a.v1.B"}, sizes{}, c, timings{}, pipelineRows{}))
		var profiles []cpucost.Profile
		for range n {
			profiles = append(profiles, cpucost.Profile{"f": {Kind: report.FunctionKindFunction, Self: 10, Inclusive: 20}})
		}
		check("functionsMoved", functionsMoved(profiles, profiles, 0, 0))
	}
}

package gate

import (
	"cmp"
	"maps"
	"math"
	"os"
	"slices"

	"github.com/wiregate/wiregate/harness/parent/cpucost"
	"github.com/wiregate/wiregate/harness/parent/report"
)

// maxFunctions is how many functions a count's change names: enough to
// explain most of it (a schema change moves a few functions: its field's
// codec path, allocation, a check), few enough to read in a comment.
const maxFunctions = 5

// profilesOn says whether the cpu stage reads per-function profiles from
// its dumps; WIREGATE_CPU_PROFILES=off leaves them out (to measure what
// reading them costs: docs/figures.md, "What do function profiles name,
// and what do they cost?").
func profilesOn() bool { return os.Getenv("WIREGATE_CPU_PROFILES") != "off" }

// functionsMoved says why one op's count moved: the functions whose own
// instructions per operation moved by more than floorInstr (the count's
// noise floor in instr/op), each side's figure the median of its
// processes' profiles, the largest change first, at most maxFunctions.
// Self costs sum to the count, so their changes share out its change
// (delta, head − base instr/op); the one whose change is more than half
// of it explains most.
func functionsMoved(base, head []cpucost.Profile, floorInstr, delta float64) []report.FunctionCost {
	if len(base) == 0 || len(head) == 0 {
		return nil
	}
	kinds := map[string]string{}
	for _, p := range slices.Concat(base, head) {
		for name, c := range p {
			kinds[name] = c.Kind
		}
	}
	var out []report.FunctionCost
	for _, name := range slices.Sorted(maps.Keys(kinds)) {
		bSelf, bIncl := medianCost(base, name)
		hSelf, hIncl := medianCost(head, name)
		if math.Abs(hSelf-bSelf) <= floorInstr {
			continue
		}
		out = append(out, report.FunctionCost{Name: name, Kind: kinds[name], SelfBase: bSelf, SelfHead: hSelf, InclusiveBase: bIncl, InclusiveHead: hIncl,
			SelfDelta: hSelf - bSelf, InclusiveDelta: hIncl - bIncl})
	}
	slices.SortStableFunc(out, func(a, b report.FunctionCost) int {
		return cmp.Compare(math.Abs(b.SelfDelta), math.Abs(a.SelfDelta))
	})
	out = out[:min(len(out), maxFunctions)]
	if len(out) > 0 {
		d := out[0].SelfDelta
		out[0].ExplainsMost = delta != 0 && d*delta > 0 && 2*math.Abs(d) > math.Abs(delta)
	}
	return out
}

// medianCost is one function's self and inclusive instructions per
// operation over processes' profiles (0 in a profile without it).
func medianCost(ps []cpucost.Profile, name string) (self, inclusive float64) {
	s, in := make([]float64, len(ps)), make([]float64, len(ps))
	for i, p := range ps {
		s[i], in[i] = p[name].Self, p[name].Inclusive
	}
	return median(s), median(in)
}

// median is the middle of xs (the mean of the middle two of an even
// count): a count's center, and each function's.
func median(xs []float64) float64 {
	s := slices.Sorted(slices.Values(xs))
	mid := len(s) / 2
	if len(s)%2 == 0 {
		return (s[mid-1] + s[mid]) / 2
	}
	return s[mid]
}

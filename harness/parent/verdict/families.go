package verdict

// The verdict tests each run's timings in families, Holm-corrected (see
// cutoffs); these say how big a family a run will make, so that whoever
// plans the rounds (package budget, package piperounds) plans for the test
// the verdict will actually apply.

// The families a gate's metrics fall in, by the unit a metric is in:
// encode and decode timings and pipeline rows (cutoffs applies Holm to
// each), and allocation counts, which are exact (counted once a side,
// compared as figures: no test, no family). A unit in none is reported,
// not gated.
const (
	timeFamily     = "time"
	allocsFamily   = "allocs"
	pipelineFamily = "pipeline"
)

var familyOfUnit = map[string]string{"sec/op": timeFamily, "allocs/op": allocsFamily}

// ops are the operations timed per message and format.
var ops = []string{"encode", "decode"}

// TimeFamily is the size of the sec/op family: every op of every format of
// every message whose timings can fail the gate.
func TimeFamily(gatedMessages, formats int) int { return len(ops) * gatedMessages * formats }

// StrictestCutoff is Holm's first-step cutoff in a family of tests: the
// level a minimum detectable effect is stated at and the power a series is
// timed to, for timings (TimeFamily) and pipeline rows (PipelineFamily)
// alike: the whole change's family, so a shard states what the merge will
// test.
func StrictestCutoff(alpha float64, tests int) float64 { return alpha / float64(max(tests, 1)) }

// PipelineFamily is the size of the pipeline family: one test per row
// (message and format) whose throughput can fail the gate.
func PipelineFamily(gatedRows int) int { return gatedRows }

// MinRounds is the fewest rounds per side at which a complete separation of
// base and head can clear Holm's first step in a family of size tests at
// alpha: the smallest n with the Mann-Whitney p of a complete separation,
// 2/C(2n,n), at most alpha/tests. Fewer rounds cannot fail the gate on
// time, whatever they measure.
func MinRounds(tests int, alpha float64) int {
	n := 2
	for 2/binomial(2*n, n) > alpha/float64(max(tests, 1)) {
		n++
	}
	return n
}

func binomial(n, k int) float64 {
	r := 1.0
	for i := 1; i <= k; i++ {
		r = r * float64(n-k+i) / float64(i)
	}
	return r
}

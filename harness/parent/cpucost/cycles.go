package cpucost

// estimatedCycles turns callgrind's cache-simulation events into the
// estimated-cycles figure iai and iai-callgrind report ("EstimatedCycles"),
// from Itamar Turner-Trauring's "consistent benchmarking in CI"
// (pythonspeed.com/articles/consistent-benchmarking-in-ci/):
//
//	L1 hits + 5 × LL hits + 35 × RAM hits
//
// where RAM hits are last-level misses (ILmr + DLmr + DLmw), LL hits are
// first-level misses that hit the last level, and L1 hits are every other
// access (Ir + Dr + Dw). It weighs memory behaviour that instruction counts
// do not see; it is a model of a generic CPU, informational only.
func estimatedCycles(ev map[string]uint64) (uint64, bool) {
	for _, k := range []string{"Ir", "Dr", "Dw", "I1mr", "D1mr", "D1mw", "ILmr", "DLmr", "DLmw"} {
		if _, ok := ev[k]; !ok {
			return 0, false
		}
	}
	accesses := ev["Ir"] + ev["Dr"] + ev["Dw"]
	l1Miss := ev["I1mr"] + ev["D1mr"] + ev["D1mw"]
	ram := ev["ILmr"] + ev["DLmr"] + ev["DLmw"]
	if l1Miss > accesses || ram > l1Miss {
		return 0, false
	}
	return (accesses - l1Miss) + 5*(l1Miss-ram) + 35*ram, true
}

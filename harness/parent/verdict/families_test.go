package verdict

import "testing"

// MinRounds is the n where 2/C(2n,n) first drops under alpha/tests: 2/C(8,4)
// = 0.0286 ≤ 0.05 for one test; 2/C(12,6) = 0.00216 ≤ 0.05/18 = 0.00278 for
// this repo's 18 timings; and one round fewer never clears it.
func TestMinRoundsIsTheFirstThatCanSeparate(t *testing.T) {
	for _, c := range []struct {
		tests int
		want  int
	}{{1, 4}, {6, 5}, {18, 6}, {36, 7}, {300, 8}, {TimeFamily(3, 3), 6}, {TimeFamily(57, 3), 9}} {
		n := MinRounds(c.tests, 0.05)
		if n != c.want {
			t.Errorf("MinRounds(%d) = %d, want %d", c.tests, n, c.want)
		}
		if p := 2 / binomial(2*(n-1), n-1); p <= 0.05/float64(c.tests) {
			t.Errorf("MinRounds(%d) = %d, but %d rounds already separate (p %.5f)", c.tests, n, n-1, p)
		}
	}
}

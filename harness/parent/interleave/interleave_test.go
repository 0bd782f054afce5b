package interleave

import (
	"slices"
	"testing"
)

// Round 0 runs the base first; each round flips the order; one side runs
// alone.
func TestOrderFlipsEveryRoundBaseFirst(t *testing.T) {
	for _, c := range []struct {
		n, round int
		want     []int
	}{{2, 0, []int{0, 1}}, {2, 1, []int{1, 0}}, {2, 2, []int{0, 1}}, {1, 1, []int{0}}, {3, 1, []int{2, 1, 0}}} {
		if got := Order(c.n, c.round); !slices.Equal(got, c.want) {
			t.Errorf("Order(%d, %d) = %v, want %v", c.n, c.round, got, c.want)
		}
	}
}

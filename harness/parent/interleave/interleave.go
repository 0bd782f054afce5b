// Package interleave decides the order in which the sides of a comparison
// run in each round: the one order for bench rounds, pipeline rounds and
// the cpu stage's processes. Slow drift on a shared runner (a neighbour's
// load, thermal state, the broker's caches) then hits base and head alike
// instead of whichever runs second.
package interleave

// Order is the order of n sides' indexes in round (from 0): as given in
// even rounds, reversed in odd ones (ABBA), so the base runs first in
// round 0.
func Order(n, round int) []int {
	out := make([]int, n)
	for i := range out {
		if round%2 == 0 {
			out[i] = i
		} else {
			out[i] = n - 1 - i
		}
	}
	return out
}

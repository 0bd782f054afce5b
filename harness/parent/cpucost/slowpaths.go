package cpucost

import (
	"math"
	"slices"
	"strings"
)

// slowPaths are the Go runtime functions a type assertion or type switch
// calls when its call site's cache does not hold the type yet. The runtime
// fills a site's cache on about 1 in 1024 of these calls, at random, so a
// site the warm-up left uncached takes them in the counted loop, ~70-180
// instructions a call, until a fill: a loop of wide.v1.Wide protobuf
// decode read +93 instr/op (0.6%) in such a process and 0 in every other
// (docs/design/slow-paths.md). What such a call costs is
// the process's history, not the loop's, so the count leaves it out:
// the site's inline cache probe, which runs either way, stays counted.
var slowPaths = []string{"runtime.typeAssert", "runtime.interfaceSwitch"}

// slowPathIr is what a loop's calls into the slow paths took, from its
// call graph: for each caller outside a slow path, the lesser of
// callgrind's own inclusive cost of its calls and the cost rebuilt from
// self costs and call counts (rebuiltInclusive: the callee's inclusive
// cost in the share of its calls the caller made). callgrind's figure is
// exact until its shadow stack loses track where Go switches stacks; then
// it charges the call with what ran after it returned (a cache fill's one
// mallocgc read 2,780,998 instructions, a third of its loop, which the
// count then left out; docs/design/slow-paths.md), and the
// rebuilt figure, which no stack switch moves, is the lesser.
func slowPathIr(g callGraph) uint64 {
	self, calls, callIr := g.collapsed(unrecursed)
	// The calls into a slow path from outside, before acyclic drops any.
	var entries [][2]string
	for from, tos := range calls {
		for to := range tos {
			if slices.Contains(slowPaths, to) && !slices.Contains(slowPaths, from) {
				entries = append(entries, [2]string{from, to})
			}
		}
	}
	if len(entries) == 0 {
		return 0 // most loops: no rebuild to pay for
	}
	visit, into := rebuiltInclusive(self, calls)
	var total uint64
	for _, e := range entries {
		n := calls[e[0]][e[1]]
		if n == 0 || into[e[1]] == 0 {
			continue
		}
		rebuilt := uint64(math.Round(float64(n) / float64(into[e[1]]) * visit(e[1])))
		total += min(rebuilt, callIr[e])
	}
	return total
}

// unrecursed is a callgrind function name without its recursion mark
// ("f'2" is f).
func unrecursed(fn string) string {
	if i := strings.LastIndexByte(fn, '\''); i > 0 && strings.Trim(fn[i+1:], "0123456789") == "" {
		return fn[:i]
	}
	return fn
}

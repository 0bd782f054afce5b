package cpucost

import (
	"cmp"
	"slices"
)

// Profile is where one counted loop's instructions went, per operation, by
// readable line (names.go): what the count says "why" with. It comes from
// the loop's own dump, so it costs no process of its own.
type Profile map[string]FuncCost

// FuncCost is one line's instructions per operation: its own (Self) and
// with everything it called (Inclusive).
type FuncCost struct {
	Kind      string
	Self      float64
	Inclusive float64
}

// callGraph is a dump's functions as callgrind names them: each one's own
// instructions and how often each called each other.
type callGraph struct {
	self  map[string]uint64
	calls map[[2]string]uint64 // caller, callee → calls
	// callIr is callgrind's own inclusive cost of those calls: exact,
	// unless its shadow stack lost track where Go switched stacks, and
	// then too high.
	callIr map[[2]string]uint64
}

// profileOf turns a loop's call graph into its profile over ops
// operations. Self cost is summed by readable line. Inclusive cost is
// rebuilt from self cost and call counts, as gprof does, on the graph of
// lines: a line's inclusive cost is its own plus, for each line it calls,
// that line's inclusive cost in the share of its calls that came from it.
// callgrind's own inclusive figures are not used: its shadow call stack
// loses track where Go switches goroutine stacks (morestack, mcall,
// systemstack), and charges a caller with what ran after it returned.
// A cycle (recursion, or a call callgrind saw where Go switched stacks:
// mallocgc "calling" slicebytetostring once against its thousands of
// calls the other way) would count a line inside itself; acyclic breaks
// each at its rarest calls, the same way whatever the map order.
func profileOf(g callGraph, ops int) Profile {
	kinds := map[string]string{}
	lineOf := map[string]string{}
	self, calls, _ := g.collapsed(func(fn string) string { return lineName(fn, lineOf, kinds) })
	visit, _ := rebuiltInclusive(self, calls)
	out := Profile{}
	for line := range kinds {
		if line == "" {
			continue
		}
		out[line] = FuncCost{Kind: kinds[line], Self: float64(self[line]) / float64(ops), Inclusive: visit(line) / float64(ops)}
	}
	return out
}

// collapsed is the graph with each function under the node name gives it
// ("" leaves it out): its self costs, its calls between different nodes
// and callgrind's figures for them, summed.
func (g callGraph) collapsed(name func(fn string) string) (self map[string]uint64, calls map[string]map[string]uint64, callIr map[[2]string]uint64) {
	self = map[string]uint64{}
	for fn, ir := range g.self {
		if n := name(fn); n != "" {
			self[n] += ir
		}
	}
	calls = map[string]map[string]uint64{}
	callIr = map[[2]string]uint64{}
	for e, n := range g.calls {
		from, to := name(e[0]), name(e[1])
		if from == "" || to == "" || from == to {
			continue
		}
		if calls[from] == nil {
			calls[from] = map[string]uint64{}
		}
		calls[from][to] += n
		callIr[[2]string{from, to}] += g.callIr[e]
	}
	return self, calls, callIr
}

// rebuiltInclusive is each node's inclusive cost rebuilt from self costs
// and call counts, as gprof does: a node's own cost plus, for each node it
// calls, that node's inclusive cost in the share of its calls that came
// from it; and into, each node's calls from the others. calls loses the
// edges that close a cycle first (acyclic).
func rebuiltInclusive(self map[string]uint64, calls map[string]map[string]uint64) (visit func(string) float64, into map[string]uint64) {
	acyclic(calls)
	into = map[string]uint64{}
	for _, tos := range calls {
		for to, n := range tos {
			into[to] += n
		}
	}
	inclusive := map[string]float64{}
	visit = func(node string) float64 {
		if v, done := inclusive[node]; done {
			return v
		}
		total := float64(self[node])
		for callee, n := range calls[node] {
			// An arc callgrind saw no call on (calls=0: a frame already
			// running when instrumentation was switched on returned
			// through it) has no share of its callee's calls; its 0/0
			// share would make every caller's figure NaN.
			if n == 0 {
				continue
			}
			total += float64(n) / float64(into[callee]) * visit(callee)
		}
		inclusive[node] = total
		return total
	}
	return visit, into
}

// lineName is fn's readable line, remembered (readableName parses).
func lineName(fn string, lines, kinds map[string]string) string {
	if name, ok := lines[fn]; ok {
		return name
	}
	name, kind := readableName(fn)
	lines[fn] = name
	if name != "" {
		kinds[name] = kind
	}
	return name
}

// acyclic removes from calls (caller → callee → count) the fewest-called
// edges that close a cycle: within each strongly connected set of lines,
// edges are kept from the most called down, each only if its callee does
// not already reach its caller. Edges between such sets never close one.
func acyclic(calls map[string]map[string]uint64) {
	set := components(calls)
	type edge struct {
		from, to string
		n        uint64
	}
	var inner []edge
	for from, tos := range calls {
		for to, n := range tos {
			if set[from] == set[to] {
				inner = append(inner, edge{from, to, n})
				delete(tos, to)
			}
		}
	}
	slices.SortFunc(inner, func(a, b edge) int {
		return cmp.Or(cmp.Compare(b.n, a.n), cmp.Compare(a.from, b.from), cmp.Compare(a.to, b.to))
	})
	for _, e := range inner {
		if !reaches(calls, e.to, e.from) {
			calls[e.from][e.to] = e.n
		}
	}
}

// reaches says whether from calls to, directly or not.
func reaches(calls map[string]map[string]uint64, from, to string) bool {
	seen := map[string]bool{from: true}
	stack := []string{from}
	for len(stack) > 0 {
		at := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if at == to {
			return true
		}
		for next := range calls[at] {
			if !seen[next] {
				seen[next] = true
				stack = append(stack, next)
			}
		}
	}
	return false
}

// components numbers the strongly connected sets of the call graph
// (Tarjan's algorithm): lines that reach each other share a number.
func components(calls map[string]map[string]uint64) map[string]int {
	index, low, set := map[string]int{}, map[string]int{}, map[string]int{}
	onStack := map[string]bool{}
	var stack []string
	next, sets := 0, 0
	var connect func(string)
	connect = func(v string) {
		index[v], low[v] = next, next
		next++
		stack = append(stack, v)
		onStack[v] = true
		for w := range calls[v] {
			if _, seen := index[w]; !seen {
				connect(w)
				low[v] = min(low[v], low[w])
			} else if onStack[w] {
				low[v] = min(low[v], index[w])
			}
		}
		if low[v] == index[v] {
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				onStack[w] = false
				set[w] = sets
				if w == v {
					break
				}
			}
			sets++
		}
	}
	for v := range calls {
		if _, seen := index[v]; !seen {
			connect(v)
		}
	}
	return set
}

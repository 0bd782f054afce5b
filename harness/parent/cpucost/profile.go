package cpucost

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
}

// profileOf turns a loop's call graph into its profile over ops
// operations. Self cost is summed by readable line. Inclusive cost is
// rebuilt from self cost and call counts, as gprof does, on the graph of
// lines: a line's inclusive cost is its own plus, for each line it calls,
// that line's inclusive cost in the share of its calls that came from it.
// callgrind's own inclusive figures are not used: its shadow call stack
// loses track where Go switches goroutine stacks (morestack, mcall,
// systemstack), and charges a caller with what ran after it returned.
// Calls within a cycle (recursion) add nothing, so a cycle's members count
// what they call out of it once each, never themselves twice.
func profileOf(g callGraph, ops int) Profile {
	kinds := map[string]string{}
	self := map[string]uint64{}
	lineOf := map[string]string{}
	for fn, ir := range g.self {
		name := lineName(fn, lineOf, kinds)
		if name != "" {
			self[name] += ir
		}
	}
	calls := map[string]map[string]uint64{}
	into := map[string]uint64{}
	for e, n := range g.calls {
		from, to := lineName(e[0], lineOf, kinds), lineName(e[1], lineOf, kinds)
		if from == "" || to == "" || from == to {
			continue
		}
		if calls[from] == nil {
			calls[from] = map[string]uint64{}
		}
		calls[from][to] += n
		into[to] += n
	}
	inclusive := map[string]float64{}
	onStack := map[string]bool{}
	var visit func(string) float64
	visit = func(line string) float64 {
		if v, done := inclusive[line]; done {
			return v
		}
		if onStack[line] {
			return 0
		}
		onStack[line] = true
		total := float64(self[line])
		for callee, n := range calls[line] {
			total += float64(n) / float64(into[callee]) * visit(callee)
		}
		onStack[line] = false
		inclusive[line] = total
		return total
	}
	out := Profile{}
	for line := range kinds {
		if line == "" {
			continue
		}
		out[line] = FuncCost{Kind: kinds[line], Self: float64(self[line]) / float64(ops), Inclusive: visit(line) / float64(ops)}
	}
	return out
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

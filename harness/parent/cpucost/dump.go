package cpucost

import (
	"bufio"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
)

// dump is one callgrind profile dump: what triggered it, its event totals
// by name (Ir, and with the cache simulation Dr, Dw, I1mr, …) and the
// instructions the runtime's slow paths took in it (slowPaths).
type dump struct {
	trigger string
	events  map[string]uint64
	// slowIr is the instructions of every call into a slow path from
	// outside one (inclusive: getitab and the cache fill below it;
	// slowPathIr).
	slowIr uint64
	// graph is each function's own instructions and the calls between
	// them, when asked for (a profile); nil otherwise.
	graph *callGraph
}

// readDump reads a callgrind output file: "desc: Trigger: …", "events: Ir
// …", the sums over the dump ("totals:", the sum of the cost centers it
// lists, else "summary:"), and what the calls into a slow path took
// (slowPathIr, from the call graph it reads for that). The summary is the
// thread's running cost minus its cost at the last dump, and switching
// instrumentation on zeroes the running cost but not that mark, so once a
// process has switched instrumentation more than once its summaries are
// off by the earlier loops (a second loop's summary read 136,621 where its
// totals, and the same loop counted alone, read 990,727).
//
// With graph, it also keeps those (every function's own instructions: the
// cost lines under fn= that follow no calls= line; the call counts: calls=
// under fn= and cfn=) for a profile.
func readDump(path string, graph bool) (dump, error) {
	f, err := os.Open(path)
	if err != nil {
		return dump{}, err
	}
	defer f.Close()
	var d dump
	g := callGraph{self: map[string]uint64{}, calls: map[[2]string]uint64{}, callIr: map[[2]string]uint64{}}
	var names, sums []string
	fns := map[string]string{} // compressed function ids: "(12)" → name
	var fn, cfn string
	call := false          // the line after calls= holds the calls' inclusive cost
	positions, ir := 1, -1 // position fields before the costs; Ir's index among the costs
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 16*1024*1024)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case call:
			call = false
			if f := strings.Fields(line); ir >= 0 && positions+ir < len(f) {
				n, _ := strconv.ParseUint(f[positions+ir], 10, 64)
				g.callIr[[2]string{fn, cfn}] += n
			}
		case strings.HasPrefix(line, "desc: Trigger: "):
			d.trigger = strings.TrimPrefix(line, "desc: Trigger: ")
		case isCostLine(line):
			if f := strings.Fields(line); ir >= 0 && positions+ir < len(f) {
				n, _ := strconv.ParseUint(f[positions+ir], 10, 64)
				g.self[fn] += n
			}
		case strings.HasPrefix(line, "positions: "):
			positions = len(strings.Fields(strings.TrimPrefix(line, "positions: ")))
		case strings.HasPrefix(line, "events: "):
			names = strings.Fields(strings.TrimPrefix(line, "events: "))
			ir = slices.Index(names, "Ir")
		case strings.HasPrefix(line, "totals: "):
			sums = strings.Fields(strings.TrimPrefix(line, "totals: "))
		case strings.HasPrefix(line, "summary: ") && sums == nil:
			sums = strings.Fields(strings.TrimPrefix(line, "summary: "))
		case strings.HasPrefix(line, "fn="):
			fn = funcName(fns, strings.TrimPrefix(line, "fn="))
		case strings.HasPrefix(line, "cfn="):
			cfn = funcName(fns, strings.TrimPrefix(line, "cfn="))
		case strings.HasPrefix(line, "calls="):
			call = true
			count, _, _ := strings.Cut(strings.TrimPrefix(line, "calls="), " ")
			n, _ := strconv.ParseUint(count, 10, 64)
			g.calls[[2]string{fn, cfn}] += n
		}
	}
	if err := sc.Err(); err != nil {
		return dump{}, fmt.Errorf("read %s: %w", path, err)
	}
	if names == nil || sums == nil {
		return dump{}, fmt.Errorf("%s is not a callgrind dump (no events or summary line)", path)
	}
	d.slowIr = slowPathIr(g)
	if graph {
		d.graph = &g
	}
	d.events = map[string]uint64{}
	for i, n := range names {
		if i >= len(sums) {
			d.events[n] = 0 // callgrind drops trailing zero sums
			continue
		}
		v, err := strconv.ParseUint(sums[i], 10, 64)
		if err != nil {
			return dump{}, fmt.Errorf("%s: summary %q is not a count", path, sums[i])
		}
		d.events[n] = v
	}
	return d, nil
}

// isCostLine says whether a dump line is a cost line: a position (a
// number, or relative to the last: +n, -n, *) and the costs.
func isCostLine(line string) bool {
	if line == "" {
		return false
	}
	c := line[0]
	return c >= '0' && c <= '9' || c == '+' || c == '-' || c == '*'
}

// funcName resolves callgrind's name compression: "(12) name" defines id
// (12), a later "(12)" refers to it; an uncompressed name stands alone.
func funcName(ids map[string]string, spec string) string {
	if !strings.HasPrefix(spec, "(") {
		return spec
	}
	id, name, found := strings.Cut(spec, " ")
	if found {
		ids[id] = name
		return name
	}
	return ids[id]
}

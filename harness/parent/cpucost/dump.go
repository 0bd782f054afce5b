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
// runtime slow paths that ran in it (slowPaths).
type dump struct {
	trigger string
	events  map[string]uint64
	slow    []string
}

// slowPaths are the Go runtime functions a type assertion or type switch
// calls when its call site's cache does not hold the type yet. The runtime
// fills a site's cache on about 1 in 1024 of these calls, so a site the
// warm-up left uncached takes them in the counted loop, ~70-100
// instructions an operation, until a fill at random: a loop of wide.v1.Wide
// protobuf decode read +93 instr/op (0.6%) in such a process and 0 in
// every other (docs/harness.md, "Uncached type assertions").
var slowPaths = []string{"runtime.typeAssert", "runtime.interfaceSwitch"}

// readDump reads the header of a callgrind output file: "desc: Trigger:
// …", "events: Ir …" and the sums over the dump: "totals:", the sum of the
// cost centers the dump lists, else "summary:". The summary is the
// thread's running cost minus its cost at the last dump, and switching
// instrumentation on zeroes the running cost but not that mark, so once a
// process has switched instrumentation more than once its summaries are
// off by the earlier loops (a second loop's summary read 136,621 where its
// totals, and the same loop counted alone, read 990,727).
func readDump(path string) (dump, error) {
	f, err := os.Open(path)
	if err != nil {
		return dump{}, err
	}
	defer f.Close()
	var d dump
	var names, sums []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 16*1024*1024)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "desc: Trigger: "):
			d.trigger = strings.TrimPrefix(line, "desc: Trigger: ")
		case strings.HasPrefix(line, "events: "):
			names = strings.Fields(strings.TrimPrefix(line, "events: "))
		case strings.HasPrefix(line, "totals: "):
			sums = strings.Fields(strings.TrimPrefix(line, "totals: "))
		case strings.HasPrefix(line, "summary: ") && sums == nil:
			sums = strings.Fields(strings.TrimPrefix(line, "summary: "))
		case strings.HasPrefix(line, "fn=") || strings.HasPrefix(line, "cfn="):
			// A function is named at its first cost line in the dump:
			// named at all, it ran in the counted window.
			for _, p := range slowPaths {
				if strings.HasSuffix(line, " "+p) && !slices.Contains(d.slow, p) {
					d.slow = append(d.slow, p)
				}
			}
		}
	}
	if err := sc.Err(); err != nil {
		return dump{}, fmt.Errorf("read %s: %w", path, err)
	}
	if names == nil || sums == nil {
		return dump{}, fmt.Errorf("%s is not a callgrind dump (no events or summary line)", path)
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

package cpucost

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// dump is one callgrind profile dump: what triggered it and its event
// totals by name (Ir, and with the cache simulation Dr, Dw, I1mr, …).
type dump struct {
	trigger string
	events  map[string]uint64
}

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

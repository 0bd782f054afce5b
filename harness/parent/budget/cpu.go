package budget

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// CPUForecast is which messages' instructions are counted, in how many
// processes, by when. How long each count is is not the plan's to cut: a
// count is as long as its precision needs (cpucost.LengthFor), no longer.
type CPUForecast struct {
	Deadline time.Time
	Counted  []Counted // in priority order
	// FewerProcesses are the counted messages counted in fewer processes
	// per side than asked (with one, their floor is the format's global
	// one), Uncounted those that did not fit at all.
	FewerProcesses, Uncounted []string
	Price                     time.Duration // the forecast's, on every worker
	Note                      string        // what was cut; empty when nothing
	asked                     int           // processes per side asked for
}

// Counted is one message to count.
type Counted struct {
	Name      string
	Processes int // per side
}

// ForecastCPU fits the counts of ms into budget on workers processes at once:
// every message in processes processes per side when they fit; else the
// last messages go to one process per side less, one process at a time,
// down to one; else messages are left uncounted, the last non-gating
// first, then the last. A Price's Count is one process per side, one
// worker.
func ForecastCPU(budget time.Duration, workers, processes int, ms []Price) CPUForecast {
	workers, processes = max(workers, 1), max(processes, 1)
	procs := make([]int, len(ms))
	in := make([]bool, len(ms))
	price := func(i int) time.Duration {
		return ms[i].Count * time.Duration(procs[i])
	}
	cost := func() time.Duration {
		var c time.Duration
		for i := range ms {
			if in[i] {
				c += price(i)
			}
		}
		return c / time.Duration(workers)
	}
	for i := range ms {
		procs[i], in[i] = processes, true
	}
	// One process less at a time, from the last message: three processes
	// a side go to two before any goes to one (whose floor is the format's).
	for n := processes - 1; n >= 1 && cost() > budget; n-- {
		for i := len(ms) - 1; i >= 0 && cost() > budget; i-- {
			procs[i] = n
		}
	}
	for cost() > budget {
		i := lastIn(ms, in)
		if i < 0 {
			break
		}
		in[i] = false
	}
	p := CPUForecast{Price: cost(), asked: processes}
	for i, m := range ms {
		if !in[i] {
			p.Uncounted = append(p.Uncounted, m.Name)
			continue
		}
		if procs[i] < processes {
			p.FewerProcesses = append(p.FewerProcesses, m.Name)
		}
		p.Counted = append(p.Counted, Counted{Name: m.Name, Processes: procs[i]})
	}
	p.Note = p.cuts()
	return p
}

// cuts says what the plan, or the run, cut of the counts; "" when nothing.
func (p CPUForecast) cuts() string {
	of := len(p.Counted) + len(p.Uncounted)
	var cuts []string
	if n := len(p.FewerProcesses); n > 0 {
		cuts = append(cuts, fmt.Sprintf("%d of %d messages counted in fewer processes per side than %d (%s)", n, of, p.asked, p.fewest()))
	}
	if n := len(p.Uncounted); n > 0 {
		cuts = append(cuts, fmt.Sprintf("%d of %d messages not counted", n, of))
	}
	if len(cuts) == 0 {
		return ""
	}
	return "to fit the time budget: " + strings.Join(cuts, ", ")
}

// fewest says how few processes a side the fewest-counted message had.
func (p CPUForecast) fewest() string {
	least := 0
	for _, c := range p.Counted {
		if least == 0 || c.Processes < least {
			least = c.Processes
		}
	}
	if least == 1 {
		return "down to 1: the format's floor"
	}
	return fmt.Sprintf("down to %d", least)
}

// lastIn is the message to leave out next: the last non-gating one still
// in, else the last one still in; -1 when none is.
func lastIn(ms []Price, in []bool) int {
	for i := len(ms) - 1; i >= 0; i-- {
		if in[i] && !ms[i].Gating {
			return i
		}
	}
	for i := len(ms) - 1; i >= 0; i-- {
		if in[i] {
			return i
		}
	}
	return -1
}

// Ran records what the counts did: each message with how many whole
// processes per side it was counted in (0: not counted, because the meter
// stopped the counts before it or a process of it). A message counted in
// fewer processes than planned joins FewerProcesses, one not counted
// Uncounted; the note says so.
func (p *CPUForecast) Ran(processes map[string]int) {
	var kept []Counted
	for _, c := range p.Counted {
		n := processes[c.Name]
		switch {
		case n == 0:
			p.Uncounted = append(p.Uncounted, c.Name)
			p.FewerProcesses = slices.DeleteFunc(p.FewerProcesses, func(m string) bool { return m == c.Name })
			continue
		case n < c.Processes && !slices.Contains(p.FewerProcesses, c.Name):
			p.FewerProcesses = append(p.FewerProcesses, c.Name)
		}
		c.Processes = n
		kept = append(kept, c)
	}
	p.Counted = kept
	p.Note = p.cuts()
}

package budget

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"
)

// Rotations are the whole rotations of the record pool an instruction
// count runs: four dilute a loop's fixed costs (docs/harness.md); one is
// exact all the same and costs a quarter of the counted part.
const (
	Rotations   = 4
	OneRotation = 1
)

// CPUPlan is which messages' instructions are counted, over how many
// rotations, by when.
type CPUPlan struct {
	Deadline time.Time
	Counted  []Counted // in priority order
	// OneRotation are the counted messages that fit only over one
	// rotation; Uncounted those that did not fit at all.
	OneRotation, Uncounted []string
	Cost                   time.Duration // the plan's estimate
	Note                   string        // what was cut; empty when nothing
}

// Counted is one message to count.
type Counted struct {
	Name      string
	Rotations int
}

// PlanCPU fits the counts of ms into budget: every message over four
// rotations when they fit; else the messages whose fourfold count saves
// the most go to one rotation first; else messages are left uncounted,
// the last non-gating first, then the last.
func PlanCPU(budget time.Duration, ms []Price) CPUPlan {
	rot := make([]int, len(ms))
	in := make([]bool, len(ms))
	var cost time.Duration
	for i, m := range ms {
		rot[i], in[i] = Rotations, true
		cost += m.Count
	}
	if cost > budget {
		bySaving := make([]int, len(ms))
		for i := range bySaving {
			bySaving[i] = i
		}
		sort.SliceStable(bySaving, func(a, b int) bool {
			return ms[bySaving[a]].Count-ms[bySaving[a]].CountOne > ms[bySaving[b]].Count-ms[bySaving[b]].CountOne
		})
		for _, i := range bySaving {
			if cost <= budget {
				break
			}
			rot[i] = OneRotation
			cost -= ms[i].Count - ms[i].CountOne
		}
	}
	for cost > budget {
		i := lastIn(ms, in)
		if i < 0 {
			break
		}
		in[i] = false
		cost -= ms[i].CountOne
	}
	p := CPUPlan{Cost: max(cost, 0)}
	for i, m := range ms {
		switch {
		case !in[i]:
			p.Uncounted = append(p.Uncounted, m.Name)
		case rot[i] == OneRotation:
			p.OneRotation = append(p.OneRotation, m.Name)
			fallthrough
		default:
			p.Counted = append(p.Counted, Counted{Name: m.Name, Rotations: rot[i]})
		}
	}
	var cuts []string
	if n := len(p.OneRotation); n > 0 {
		cuts = append(cuts, fmt.Sprintf("%d of %d messages counted over 1 rotation instead of %d", n, len(ms), Rotations))
	}
	if n := len(p.Uncounted); n > 0 {
		cuts = append(cuts, fmt.Sprintf("%d of %d messages not counted", n, len(ms)))
	}
	if len(cuts) > 0 {
		p.Note = fmt.Sprintf("to fit %s: %s", budget.Round(time.Second), strings.Join(cuts, ", "))
	}
	return p
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

// StopAt records that the counts from the i-th on did not start in time
// (their prices missed): they are uncounted, and no longer among those
// counted over one rotation.
func (p *CPUPlan) StopAt(i int) {
	for _, rest := range p.Counted[i:] {
		p.Uncounted = append(p.Uncounted, rest.Name)
		p.OneRotation = slices.DeleteFunc(p.OneRotation, func(n string) bool { return n == rest.Name })
	}
	p.Counted = p.Counted[:i]
}

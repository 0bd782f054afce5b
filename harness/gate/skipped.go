package gate

import (
	"slices"

	"github.com/wiregate/wiregate/harness/report"
)

// recordSkipped lists in the report the messages prepare left out of what
// the gate measures, each once: head's when it measures every message (a
// requested one that cannot be measured is prepare's error instead), and
// those of head's measured messages the base could not measure.
func (g *run) recordSkipped() {
	if g.head.prep != nil && len(g.s.Messages) == 0 {
		for _, k := range g.head.prep.Skipped {
			g.r.Skipped = append(g.r.Skipped, report.Skipped{Message: k.Message, File: k.File, Reason: k.Reason, Side: g.head.name})
		}
	}
	if g.base.prep != nil && g.head.prep != nil {
		for _, k := range g.base.prep.Skipped {
			if slices.Contains(g.head.prep.Messages, k.Message) {
				g.r.Skipped = append(g.r.Skipped, report.Skipped{Message: k.Message, File: k.File, Reason: k.Reason, Side: g.base.name})
			}
		}
	}
}

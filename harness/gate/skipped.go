package gate

import "github.com/wiregate/wiregate/harness/report"

// recordSkipped lists in the report the messages prepare left out, each
// once: head's, then those only the base could not measure.
func (g *run) recordSkipped() {
	seen := map[string]bool{}
	for _, s := range []*side{g.head, g.base} {
		if s.prep == nil {
			continue
		}
		for _, k := range s.prep.Skipped {
			if !seen[k.Message] {
				seen[k.Message] = true
				g.r.Skipped = append(g.r.Skipped, report.Skipped{Message: k.Message, File: k.File, Reason: k.Reason, Side: s.name})
			}
		}
	}
}

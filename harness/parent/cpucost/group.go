package cpucost

import (
	"fmt"

	"github.com/wiregate/wiregate/harness/program/benchprog"
)

// group is what one Valgrind process counts: one message in every
// selected format. Every loop of it is warmed before any is counted, so
// formats sharing code (type-assertion sites, caches) cannot move each
// other's counts: one process per message kept identical counts as close
// as one per message × format (docs/figures.md, "One process per
// message"), and pays start-up and record generation once.
type group struct {
	message string
	sel     benchprog.Selection // the selection narrowed to it
}

// groupsOf splits the selection into one group per message, in the order
// given (as every other output lists cases). The selection names messages
// and formats: the callers have prepared the program for them.
func groupsOf(sel benchprog.Selection) ([]group, error) {
	var groups []group
	for _, m := range sel.Messages {
		one := sel
		one.Messages = []string{m}
		groups = append(groups, group{message: m, sel: one})
	}
	if len(groups) == 0 || len(sel.Formats) == 0 {
		return nil, fmt.Errorf("instruction count: nothing selected (messages %q, formats %q)", sel.Messages, sel.Formats)
	}
	return groups, nil
}

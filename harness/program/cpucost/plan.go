package cpucost

import (
	"fmt"

	"github.com/wiregate/wiregate/harness/program/benchprog"
)

// group is what one Valgrind process counts: one message in one format.
type group struct {
	message, format string
	sel             benchprog.Selection // the selection narrowed to it
}

// plan splits the selection into one group per message × format, in the
// order given (message-major, as every other output lists cases). The
// selection names both: the callers have prepared the program for them.
func plan(sel benchprog.Selection) ([]group, error) {
	var groups []group
	for _, m := range sel.Messages {
		for _, f := range sel.Formats {
			groups = append(groups, group{message: m, format: f, sel: sel.Only(m, f)})
		}
	}
	if len(groups) == 0 {
		return nil, fmt.Errorf("instruction count: nothing selected (messages %q, formats %q)", sel.Messages, sel.Formats)
	}
	return groups, nil
}

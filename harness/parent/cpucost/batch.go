package cpucost

import (
	"fmt"

	"github.com/wiregate/wiregate/harness/program/benchprog"
)

// batch is what one Valgrind process counts: some messages, each in every
// selected format, one after the other. Every loop of the batch is warmed
// before any is counted, in one instrumented window, so the code the
// messages share (the codecs, the runtime) is translated once a batch and
// its lazily built state is there before the first count; a message
// counted in a batch reads what it reads alone, within its floor
// (docs/design/batches.md), and the process's start is
// paid once for all of them.
type batch struct {
	sel benchprog.Selection // the selection narrowed to the batch's messages
}

// String names the batch: its message, or its first message and how many
// follow.
func (b batch) String() string {
	ms := b.sel.Messages
	if len(ms) == 1 {
		return ms[0]
	}
	return fmt.Sprintf("%s+%d", ms[0], len(ms)-1)
}

// batchesOf splits the selection into batches of size messages, in the
// order given (as every other output lists cases); size 0 spreads them
// evenly over parallel processes. The selection names messages and
// formats: the callers have prepared the program for them and saved their
// records.
func batchesOf(sel benchprog.Selection, size, parallel int) ([]batch, error) {
	if len(sel.Messages) == 0 || len(sel.Formats) == 0 {
		return nil, fmt.Errorf("instruction count: nothing selected (messages %q, formats %q)", sel.Messages, sel.Formats)
	}
	if sel.Saved == "" {
		return nil, fmt.Errorf("instruction count: the records to count were not saved (sizes --save)")
	}
	if size <= 0 {
		size = (len(sel.Messages) + parallel - 1) / max(parallel, 1)
	}
	var out []batch
	for i := 0; i < len(sel.Messages); i += size {
		one := sel
		one.Messages = sel.Messages[i:min(i+size, len(sel.Messages))]
		out = append(out, batch{sel: one})
	}
	return out, nil
}

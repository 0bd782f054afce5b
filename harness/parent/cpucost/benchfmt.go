package cpucost

import (
	"fmt"
	"io"

	"github.com/wiregate/wiregate/harness/program/bench"
)

// Units of the lines Write prints.
const (
	UnitInstructions = "instr/op"
	UnitCycles       = "est-cycles/op"
)

// Write prints the results as benchfmt lines, one per op and case, named as
// the time lines are (BenchmarkEncode/<message>/<format>), so `benchstat
// base.txt head.txt` shows an instr/op table next to sec/op. The unit
// metadata says the values are exact: benchstat compares them as numbers,
// without a distribution.
func Write(w io.Writer, c *Counts) error {
	if c == nil || len(c.Results) == 0 {
		return nil
	}
	cycles := c.Results[0].EstimatedCycles > 0
	fmt.Fprintf(w, "Unit %s assume=exact better=lower\n", UnitInstructions)
	if cycles {
		fmt.Fprintf(w, "Unit %s assume=exact better=lower\n", UnitCycles)
	}
	for _, r := range c.Results {
		// No -procs suffix: the loops ran with GOMAXPROCS=1 (childEnv).
		line := fmt.Sprintf("%s\t%8d\t%s %s", r.Name, r.Ops, bench.Exact(r.InstrPerOp()), UnitInstructions)
		if cycles {
			line += fmt.Sprintf("\t%s %s", bench.Exact(r.CyclesPerOp()), UnitCycles)
		}
		if _, err := fmt.Fprintln(w, line); err != nil {
			return err
		}
	}
	return nil
}

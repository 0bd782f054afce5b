package runner

import (
	"context"
	"fmt"
	"runtime"

	"github.com/wiregate/wiregate/harness/program/bench"
	"github.com/wiregate/wiregate/harness/program/benchprog"
	"github.com/wiregate/wiregate/harness/program/cases"
	"github.com/wiregate/wiregate/harness/program/cpucost"
	"github.com/wiregate/wiregate/harness/program/exitcode"
	"github.com/wiregate/wiregate/harness/program/valgrind"
)

// runCount is the bench program's side of the instruction count: it runs
// under callgrind (cpucost.Count starts it so) and, one message at a time,
// builds and checks its cases, warms each loop, then counts each op's loop
// in its own collection window and asks callgrind for one dump per loop,
// labelled with the benchmark name and the number of operations. It prints
// one line per dump so the parent can tell a missing dump from a loop never
// run.
func runCount(ctx context.Context, env *Env, args []string) error {
	var f benchprog.CountFlags
	if err := benchprog.Parse(benchprog.CmdCount, &f, args); err != nil {
		return err
	}
	ops := f.Ops
	if len(ops) == 0 {
		ops = bench.Ops
	}
	if !valgrind.Running() {
		return exitcode.BadInput("%s counts instructions under callgrind; run it through `wiregate instructions`", benchprog.CmdCount)
	}
	// Memory-profile sampling unwinds the stack of an allocation every
	// ~512 KiB at random: off, it costs nothing and adds nothing.
	runtime.MemProfileRate = 0
	stream, err := checkedStream(env, f.Selection)
	if err != nil {
		return err
	}
	return stream(func(cs []*cases.Case) error {
		// Warm every loop before instrumenting anything: uninstrumented
		// code runs several times faster under Valgrind, and
		// instrumentation is switched on once (switching flushes Valgrind's
		// translations), before the first message's first count. The
		// parent counts one message × format per process (cpucost.Count),
		// so there every build and warm-up runs uninstrumented; a later
		// message of a wider selection builds and warms instrumented, which
		// is slower and counts nothing (collection is toggled around each
		// counted loop only).
		for _, c := range cs {
			for _, op := range ops {
				if err := bench.Warm(c, op, f.Warm); err != nil {
					return fmt.Errorf("%s: %w", bench.Name(op, c), err)
				}
			}
		}
		valgrind.StartInstrumentation()
		for _, c := range cs {
			for _, op := range ops {
				name := bench.Name(op, c)
				n, err := bench.Measured(c, op, f.Rotations, valgrind.ToggleCollect, valgrind.ToggleCollect)
				if err != nil {
					return fmt.Errorf("%s: %w", name, err)
				}
				label := cpucost.Label(name, n)
				valgrind.DumpStatsAt(label)
				fmt.Fprintln(env.Stdout, label)
			}
		}
		return nil
	})
}

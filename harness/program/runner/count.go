package runner

import (
	"context"
	"fmt"
	"runtime"

	"github.com/wiregate/wiregate/harness/program/bench"
	"github.com/wiregate/wiregate/harness/program/benchprog"
	"github.com/wiregate/wiregate/harness/program/cases"
	"github.com/wiregate/wiregate/harness/program/exitcode"
	"github.com/wiregate/wiregate/harness/program/valgrind"
)

// runCount is the bench program's side of the instruction count: it runs
// under callgrind (the parent's cpucost.Count starts it so) and, one message at a time,
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
	stream, err := builtStream(env, f.Selection)
	if err != nil {
		return err
	}
	return stream(func(cs []*cases.Case) error {
		// Warm every loop, then count each in its own instrumented window:
		// instrumentation is on only from just before a loop's counted
		// passes to its dump, so everything else (builds, warm-ups, each
		// loop's heap preparation and refill pass) runs at Valgrind's
		// uninstrumented speed, several times faster, and nothing is
		// instrumented that is not counted (collection is toggled around
		// the counted passes only).
		for _, c := range cs {
			for _, op := range ops {
				l := f.Lengths[c.Format.Name]
				if err := bench.Warm(c, op, l.First, l.Warm); err != nil {
					return fmt.Errorf("%s: %w", bench.Name(op, c), err)
				}
			}
		}
		for _, c := range cs {
			for _, op := range ops {
				name := bench.Name(op, c)
				l := f.Lengths[c.Format.Name]
				n, err := bench.Measured(c, op, bench.Span{Records: l.First, Passes: l.Passes}, startCounting, valgrind.ToggleCollect)
				if err != nil {
					valgrind.StopInstrumentation()
					return fmt.Errorf("%s: %w", name, err)
				}
				label := benchprog.CountLabel(name, n)
				valgrind.DumpStatsAt(label)
				valgrind.StopInstrumentation()
				fmt.Fprintln(env.Stdout, label)
			}
		}
		return nil
	})
}

// startCounting switches instrumentation on and starts collecting: the
// counted passes follow at once.
func startCounting() {
	valgrind.StartInstrumentation()
	valgrind.ToggleCollect()
}

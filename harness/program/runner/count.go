package runner

import (
	"context"
	"fmt"
	"runtime"
	"time"

	"github.com/wiregate/wiregate/harness/program/bench"
	"github.com/wiregate/wiregate/harness/program/benchprog"
	"github.com/wiregate/wiregate/harness/program/cases"
	"github.com/wiregate/wiregate/harness/program/exitcode"
	"github.com/wiregate/wiregate/harness/program/valgrind"
)

// runCount is the bench program's side of the instruction count: it runs
// under callgrind (the parent's cpucost.Count starts it so) and, one
// message at a time, loads the records a sizes run built, checked and
// saved (never building any itself: under Valgrind that was most of a
// process), warms each loop, then counts each op's loop in its own
// collection window and asks callgrind for one dump per loop, labelled
// with the benchmark name and the number of operations. It prints one line
// per dump so the parent can tell a missing dump from a loop never run,
// and one line per message with the seconds it took.
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
	subs, formats, err := resolve(env, f.Selection)
	if err != nil {
		return err
	}
	for _, s := range subs {
		start := time.Now()
		first := func(format string) int { return f.Lengths[s.Name()+"/"+format].First }
		cs, err := cases.Load(s, formats, f.Saved, first)
		if err != nil {
			return err
		}
		if err := countMessage(env, cs, ops, f.Lengths); err != nil {
			return err
		}
		fmt.Fprintln(env.Stdout, benchprog.CountedLine(s.Name(), time.Since(start).Seconds()))
	}
	return nil
}

// countMessage warms every loop of one message's cases (learning what a
// pass of each allocates, to prepare the heap for it), then counts each
// in its own instrumented window: instrumentation is on only from just
// before a loop's counted passes to its dump, so everything else (loading,
// warm-ups, each loop's heap preparation and refill pass) runs at
// Valgrind's uninstrumented speed, several times faster, and nothing is
// instrumented that is not counted (collection is toggled around the
// counted passes only).
func countMessage(env *Env, cs []*cases.Case, ops []string, lengths benchprog.Lengths) error {
	passBytes := make(map[string]uint64, len(cs)*len(ops))
	for _, c := range cs {
		for _, op := range ops {
			l, ok := lengths[c.Name()]
			if !ok {
				return exitcode.BadInput("--lengths has none for %s (message/format=first:passes:warm)", c.Name())
			}
			name := bench.Name(op, c)
			b, err := bench.Warm(c, op, l.First, l.Warm)
			if err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
			passBytes[name] = b
		}
	}
	for _, c := range cs {
		for _, op := range ops {
			name := bench.Name(op, c)
			l := lengths[c.Name()]
			n, err := bench.Measured(c, op, bench.Span{Records: l.First, Passes: l.Passes}, passBytes[name], startCounting, valgrind.ToggleCollect)
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
}

// startCounting switches instrumentation on and starts collecting: the
// counted passes follow at once.
func startCounting() {
	valgrind.StartInstrumentation()
	valgrind.ToggleCollect()
}

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
// pass of each allocates), prepares one heap for all of them, then counts
// each loop in its own collection window and dump, inside one instrumented
// window for the message: loading and the warm-ups run at Valgrind's
// uninstrumented speed, several times faster; each loop's refill (its
// span's first records, bench.Measured) runs instrumented but not
// collected, so the loop's code is translated once, with instrumentation,
// before its counted passes. Switching
// instrumentation flushes every translation, so switching it around each
// loop translated each loop's code twice and the runtime's again for every
// loop (docs/figures.md, "One heap and one instrumented window a message").
func countMessage(env *Env, cs []*cases.Case, ops []string, lengths benchprog.Lengths) error {
	type loop struct {
		c    *cases.Case
		op   string
		span bench.Span
	}
	var loops []loop
	var need uint64
	for _, c := range cs {
		l, ok := lengths[c.Name()]
		if !ok {
			return exitcode.BadInput("--lengths has none for %s (message/format=first:passes:warm)", c.Name())
		}
		for _, op := range ops {
			passBytes, err := bench.Warm(c, op, l.First, l.Warm)
			if err != nil {
				return fmt.Errorf("%s: %w", bench.Name(op, c), err)
			}
			span := bench.Span{Records: l.First, Passes: l.Passes}
			need += bench.HeapNeed(c, span, passBytes)
			loops = append(loops, loop{c, op, span})
		}
	}
	heap := bench.PrepareHeap(need)
	defer heap.Release()
	valgrind.StartInstrumentation()
	defer valgrind.StopInstrumentation()
	for _, lp := range loops {
		name := bench.Name(lp.op, lp.c)
		n, err := bench.Measured(lp.c, lp.op, lp.span, heap, valgrind.ToggleCollect, valgrind.ToggleCollect)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		label := benchprog.CountLabel(name, n)
		valgrind.DumpStatsAt(label)
		fmt.Fprintln(env.Stdout, label)
	}
	return nil
}

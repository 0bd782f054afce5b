package runner

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"time"

	"github.com/wiregate/wiregate/harness/program/bench"
	"github.com/wiregate/wiregate/harness/program/benchprog"
	"github.com/wiregate/wiregate/harness/program/cases"
	"github.com/wiregate/wiregate/harness/program/exitcode"
	"github.com/wiregate/wiregate/harness/program/valgrind"
)

// runCount is the bench program's side of the instruction count: it runs
// under callgrind (the parent's cpucost.Count starts it so). It loads
// each message's records a sizes run built, checked and saved (never
// building any itself: under Valgrind that was most of a process) and
// warms each of its loops, all uninstrumented; then, in one instrumented
// window for the whole batch, counts each loop in its own collection
// window and asks callgrind for one dump per loop, labelled with the
// benchmark name and the number of operations. It prints one line per
// dump so the parent can tell a missing dump from a loop never run, and
// one line per message, after its last dump, with the seconds it took.
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
	var loops, added []countLoop
	var need uint64
	for _, s := range subs {
		start := time.Now()
		first := func(format string) int { return f.Lengths[s.Name()+"/"+format].First }
		cs, err := cases.Load(s, formats, f.Saved, first)
		if err != nil {
			return err
		}
		ls, n, err := warmLoops(cs, ops, f.Lengths)
		if err != nil {
			return err
		}
		if len(ls) == 0 { // no selected format measures it
			fmt.Fprintln(env.Stdout, benchprog.CountedLine(s.Name(), time.Since(start).Seconds()))
			continue
		}
		ls[0].prepared = time.Since(start)
		loops, need = append(loops, ls...), need+n
		if f.Added == "" || len(f.AddedMessages) > 0 && !slices.Contains(f.AddedMessages, s.Name()) {
			continue
		}
		// The added-content loops come after every same-content loop, so
		// those run as in every other process of the batch and the base's.
		// Loading and warming them is timed too: the parent adds their
		// counted line to the message's seconds.
		start = time.Now()
		acs, err := cases.Load(s, formats, f.Added, first)
		if errors.Is(err, cases.ErrNotSaved) {
			continue // no added content
		}
		if err != nil {
			return err
		}
		als, n, err := warmLoops(acs, ops, f.Lengths)
		if err != nil {
			return err
		}
		for i := range als {
			als[i].added = true
		}
		if len(als) > 0 {
			als[0].prepared = time.Since(start)
		}
		added, need = append(added, als...), need+n
	}
	return countLoops(env, append(loops, added...), need)
}

// countLoop is one op's loop on one case, as warmed.
type countLoop struct {
	c    *cases.Case
	op   string
	span bench.Span
	// prepared is what loading and warming took, on the first loop of its
	// message (of its added-content loops, for those).
	prepared time.Duration
	// added: the loop runs over head's records with their added content.
	added bool
}

// warmLoops warms every loop of one message's cases (learning what a
// pass of each allocates), and returns them with what the heap needs for
// them.
func warmLoops(cs []*cases.Case, ops []string, lengths benchprog.Lengths) ([]countLoop, uint64, error) {
	var loops []countLoop
	var need uint64
	for _, c := range cs {
		l, ok := lengths[c.Name()]
		if !ok {
			return nil, 0, exitcode.BadInput("--lengths has none for %s (message/format=first:passes:warm)", c.Name())
		}
		for _, op := range ops {
			passBytes, err := bench.Warm(c, op, l.First, l.Warm)
			if err != nil {
				return nil, 0, fmt.Errorf("%s: %w", bench.Name(op, c), err)
			}
			span := bench.Span{Records: l.First, Passes: l.Passes}
			need += bench.HeapNeed(c, span, passBytes)
			loops = append(loops, countLoop{c: c, op: op, span: span})
		}
	}
	return loops, need, nil
}

// countLoops prepares one heap for every loop of the batch, then counts
// each loop in its own collection window and dump, inside one
// instrumented window: loading and the warm-ups ran at Valgrind's
// uninstrumented speed, several times faster; each loop's refill (its
// span's first records, bench.Measured) runs instrumented but not
// collected, so the loop's code is translated, with instrumentation,
// before its counted passes. Switching instrumentation flushes every
// translation: around each loop, each loop's code was translated twice and
// the runtime's again for every loop; around each message, the runtime's
// and the codecs' shared code was translated again for every message, a
// quarter of a batch of small messages (docs/design/batches.md).
func countLoops(env *Env, loops []countLoop, need uint64) error {
	heap := bench.PrepareHeap(need)
	defer heap.Release()
	valgrind.StartInstrumentation()
	defer valgrind.StopInstrumentation()
	var took time.Duration
	for i, lp := range loops {
		start := time.Now()
		name := bench.Name(lp.op, lp.c)
		n, err := bench.Measured(lp.c, lp.op, lp.span, heap, valgrind.ToggleCollect, valgrind.ToggleCollect)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		label := benchprog.CountLabel(name, n, lp.added)
		valgrind.DumpStatsAt(label)
		fmt.Fprintln(env.Stdout, label)
		took += lp.prepared + time.Since(start)
		if i+1 == len(loops) || loops[i+1].c.Subject != lp.c.Subject || loops[i+1].added != lp.added {
			fmt.Fprintln(env.Stdout, benchprog.CountedLine(lp.c.Subject.Name(), took.Seconds()))
			took = 0
		}
	}
	return nil
}

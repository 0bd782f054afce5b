package runner

import (
	"context"
	"flag"
	"fmt"
	"runtime"
	"slices"
	"strings"

	"github.com/wiregate/wiregate/harness/bench"
	"github.com/wiregate/wiregate/harness/cpucost"
	"github.com/wiregate/wiregate/harness/exitcode"
	"github.com/wiregate/wiregate/harness/valgrind"
)

func init() { Register(cpucost.Subcommand, runCount) }

// runCount is the bench program's side of the instruction count: it runs
// under callgrind (cpucost.Count starts it so), builds and checks the
// cases with instrumentation off, then counts each op's loop in its own
// collection window and asks callgrind for one dump per loop, labelled with
// the benchmark name and the number of operations. It prints one line per
// dump so the parent can tell a missing dump from a loop never run.
func runCount(ctx context.Context, env *Env, args []string) error {
	var sel Selection
	fs := flag.NewFlagSet(cpucost.Subcommand, flag.ContinueOnError)
	sel.AddFlags(fs)
	rotations := fs.Int("rotations", cpucost.DefaultRotations, "whole rotations of the record pool to count")
	opList := fs.String("ops", strings.Join(bench.Ops, ","), "ops to count: encode, decode")
	warm := fs.Int("warm", cpucost.WarmOps, "operations run uninstrumented per loop before counting")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *rotations < 1 || *rotations > 1000 {
		return exitcode.BadInput("--rotations %d: use 1 to 1000", *rotations)
	}
	ops := strings.Split(*opList, ",")
	for _, op := range ops {
		if !slices.Contains(bench.Ops, op) {
			return exitcode.BadInput("--ops: unknown op %q (%s)", op, strings.Join(bench.Ops, ", "))
		}
	}
	if !valgrind.Running() {
		return exitcode.BadInput("%s counts instructions under callgrind; run it through `wiregate instructions`", cpucost.Subcommand)
	}
	// Memory-profile sampling unwinds the stack of an allocation every
	// ~512 KiB at random: off, it costs nothing and adds nothing.
	runtime.MemProfileRate = 0
	cs, err := sel.CheckedCases(env)
	if err != nil {
		return err
	}
	// Warm every loop before instrumenting anything: uninstrumented code runs
	// several times faster under Valgrind, and instrumentation is switched
	// on once (switching flushes Valgrind's translations).
	for _, c := range cs {
		for _, op := range ops {
			if err := bench.Warm(c, op, *warm); err != nil {
				return fmt.Errorf("%s: %w", bench.Name(op, c), err)
			}
		}
	}
	valgrind.StartInstrumentation()
	for _, c := range cs {
		for _, op := range ops {
			name := bench.Name(op, c)
			n, err := bench.Measured(c, op, *rotations, valgrind.ToggleCollect, valgrind.ToggleCollect)
			if err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
			label := cpucost.Label(name, n)
			valgrind.DumpStatsAt(label)
			fmt.Fprintln(env.Stdout, label)
		}
	}
	return nil
}

package runner

import (
	"context"

	"github.com/wiregate/wiregate/harness/bench"
	"github.com/wiregate/wiregate/harness/benchprog"
	"github.com/wiregate/wiregate/harness/sizes"
)

func runSizes(ctx context.Context, env *Env, args []string) error {
	var f benchprog.SizesFlags
	if err := benchprog.Parse(benchprog.CmdSizes, &f, args); err != nil {
		return err
	}
	cs, err := checkedCases(env, f.Selection)
	if err != nil {
		return err
	}
	return writeJSON(env.Stdout, sizes.Measure(cs))
}

func runBench(ctx context.Context, env *Env, args []string) error {
	var f benchprog.BenchFlags
	if err := benchprog.Parse(benchprog.CmdBench, &f, args); err != nil {
		return err
	}
	cs, err := checkedCases(env, f.Selection)
	if err != nil {
		return err
	}
	if f.Header {
		bench.Header(env.Stdout)
	}
	var ops []string
	if f.Op != "" {
		ops = []string{f.Op}
	}
	return bench.Run(env.Stdout, cs, bench.Options{Count: f.Count, Benchtime: f.Benchtime, Ops: ops})
}

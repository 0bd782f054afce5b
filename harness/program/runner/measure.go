package runner

import (
	"context"

	"github.com/wiregate/wiregate/harness/program/bench"
	"github.com/wiregate/wiregate/harness/program/benchprog"
	"github.com/wiregate/wiregate/harness/program/cases"
	"github.com/wiregate/wiregate/harness/program/sizes"
)

func runSizes(ctx context.Context, env *Env, args []string) error {
	var f benchprog.SizesFlags
	if err := benchprog.Parse(benchprog.CmdSizes, &f, args); err != nil {
		return err
	}
	stream, err := checkedStream(env, f.Selection)
	if err != nil {
		return err
	}
	out := []sizes.Size{}
	err = stream(func(cs []*cases.Case) error {
		ss, err := sizes.Measure(cs, f.Batching)
		out = append(out, ss...)
		if err == nil && f.Save != "" {
			err = cases.Save(f.Save, cs)
		}
		return err
	})
	if err != nil {
		return err
	}
	return writeJSON(env.Stdout, out)
}

func runBench(ctx context.Context, env *Env, args []string) error {
	var f benchprog.BenchFlags
	if err := benchprog.Parse(benchprog.CmdBench, &f, args); err != nil {
		return err
	}
	// Read before anything is written: a bad file leaves no header behind.
	var iterations map[string]int
	if f.IterationsFile != "" {
		var err error
		if iterations, err = benchprog.ReadIterations(f.IterationsFile); err != nil {
			return err
		}
	}
	stream, err := loadedStream(env, f.Selection)
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
	return bench.Run(env.Stdout, stream, bench.Options{Count: f.Count, Benchtime: f.Benchtime, Ops: ops, SkipAllocs: f.SkipAllocs,
		Iterations: iterations})
}

package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"

	"github.com/wiregate/wiregate/harness/parent/gate"
	"github.com/wiregate/wiregate/harness/program/exitcode"
)

func init() {
	register("plan", "split the change over shards, each within time-budget: plan.json and the matrix for a workflow (the gate's flags)", cmdPlan)
}

// cmdPlan writes the shard plan as JSON (stdout, or --plan-out) and, with
// --github-output, the step outputs matrix and shards. When the gate could
// not start (a bad input, a time-budget too small for a shard) it still
// writes them, a plan of one shard whose job reports why, and exits 2 with
// the reason.
func cmdPlan(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("plan", flag.ContinueOnError)
	options := gateFlags(fs)
	out := fs.String("plan-out", "", "write plan.json here instead of stdout")
	ghOutput := fs.String("github-output", "", "append the outputs matrix (JSON for strategy.matrix) and shards to this file ($GITHUB_OUTPUT)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	o, err := options(ctx)
	if err != nil {
		return err
	}
	p, planErr := gate.Plan(ctx, o)
	b, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		return err
	}
	b = append(b, '\n')
	if *out == "" {
		_, err = os.Stdout.Write(b)
	} else {
		err = os.WriteFile(*out, b, 0o644)
	}
	if err != nil {
		return exitcode.BadInput("--plan-out %s: %v", *out, err)
	}
	if *ghOutput != "" {
		matrix, _ := json.Marshal(p.Matrix)
		f, err := os.OpenFile(*ghOutput, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			return exitcode.BadInput("--github-output %s: %v", *ghOutput, err)
		}
		defer f.Close()
		if _, err := fmt.Fprintf(f, "matrix=%s\nshards=%d\n", matrix, p.Shards); err != nil {
			return err
		}
	}
	if planErr != nil {
		return planErr
	}
	fmt.Fprintf(os.Stderr, "wiregate plan: %s\n", p.Note)
	return nil
}

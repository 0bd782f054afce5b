package runner

import (
	"context"
	"flag"
	"fmt"
	"os"
	"text/tabwriter"
	"time"

	"github.com/wiregate/wiregate/harness/bench"
	"github.com/wiregate/wiregate/harness/exitcode"
	"github.com/wiregate/wiregate/harness/sizes"
)

func runSizes(ctx context.Context, env *Env, args []string) error {
	var sel Selection
	fs := flag.NewFlagSet("sizes", flag.ContinueOnError)
	sel.AddFlags(fs)
	asJSON := fs.Bool("json", false, "print JSON")
	if err := parse(fs, args); err != nil {
		return err
	}
	cs, err := sel.CheckedCases(env)
	if err != nil {
		return err
	}
	ss := sizes.Measure(cs)
	if *asJSON {
		return writeJSON(env.Stdout, ss)
	}
	tw := tabwriter.NewWriter(env.Stdout, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "message\tformat\tbytes/msg\tmin\tmax\tvs JSON\t")
	for _, s := range ss {
		vs := "-"
		if s.VsJSON > 0 {
			vs = fmt.Sprintf("%.0f%%", 100*s.VsJSON)
		}
		fmt.Fprintf(tw, "%s\t%s\t%.1f\t%d\t%d\t%s\t\n", s.Message, s.Format, s.BytesMean, s.BytesMin, s.BytesMax, vs)
	}
	return tw.Flush()
}

func runBench(ctx context.Context, env *Env, args []string) error {
	var sel Selection
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	sel.AddFlags(fs)
	count := fs.Int("count", 1, "repetitions of every benchmark")
	benchtime := fs.Duration("benchtime", time.Second, "target time per benchmark run")
	out := fs.String("o", "", "write benchfmt here instead of stdout")
	op := fs.String("op", "", "encode or decode only (default both)")
	header := fs.Bool("header", true, "write the goos/goarch/cpu header")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *count < 1 || *count > 1000 {
		return exitcode.BadInput("--count %d: use 1 to 1000", *count)
	}
	if *benchtime <= 0 {
		return exitcode.BadInput("--benchtime %s: must be positive, e.g. 200ms", *benchtime)
	}
	cs, err := sel.CheckedCases(env)
	if err != nil {
		return err
	}
	w := env.Stdout
	if *out != "" {
		f, err := os.Create(*out)
		if err != nil {
			return exitcode.BadInput("-o %s: %v", *out, err)
		}
		defer f.Close()
		w = f
	}
	if *header {
		bench.Header(w)
	}
	var ops []string
	if *op != "" {
		ops = []string{*op}
	}
	return bench.Run(w, cs, bench.Options{Count: *count, Benchtime: *benchtime, Ops: ops})
}

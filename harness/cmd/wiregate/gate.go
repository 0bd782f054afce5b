package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/wiregate/wiregate/harness/exitcode"
	"github.com/wiregate/wiregate/harness/gate"
)

func init() {
	register("gate", "run every stage for base vs head and write report.json (exit 0 pass, 1 fail, 2 could not run)", cmdGate)
}

func cmdGate(ctx context.Context, args []string) error {
	var o gate.Options
	fs := flag.NewFlagSet("gate", flag.ContinueOnError)
	fs.StringVar(&o.HarnessDir, "harness-dir", "", "wiregate's harness/ source")
	fs.StringVar(&o.BaseDir, "base-dir", "", "base checkout (required)")
	fs.StringVar(&o.HeadDir, "head-dir", ".", "head checkout")
	fs.StringVar(&o.Buf, "buf", "", "buf binary")
	fs.StringVar(&o.BufInput, "buf-input", ".", "directory holding buf.yaml, relative to each checkout")
	messages := fs.String("messages", "", "fully qualified messages (default: every top-level message)")
	fs.StringVar(&o.Samples, "samples", "", "directory of <full.Message.Name>.jsonl protojson samples")
	fs.StringVar(&o.Formats, "formats", "json,protobuf,avro", "formats to measure")
	avro := fs.String("avro-schemas", "**/*.avsc", "Avro schema globs, relative to each checkout")
	fs.StringVar(&o.AvroLevel, "avro-compatibility", "BACKWARD", "Avro compatibility level")
	fs.StringVar(&o.SizeThreshold, "size-threshold", "5%", "largest allowed growth of bytes/message")
	fs.StringVar(&o.TimeThreshold, "time-threshold", "10%", "largest allowed significant slowdown")
	fs.StringVar(&o.ThroughputThreshold, "throughput-threshold", "10%", "largest allowed significant drop of records/s")
	alpha := fs.String("alpha", "0.05", "significance level")
	fs.IntVar(&o.Count, "count", 10, "interleaved rounds per side")
	fs.DurationVar(&o.Benchtime, "benchtime", 100*time.Millisecond, "target time per benchmark per round")
	fs.BoolVar(&o.Pipeline, "pipeline", true, "run the pipeline stage")
	fs.Int64Var(&o.PipelineN, "pipeline-messages", 200000, "backlog size N")
	fs.StringVar(&o.Broker, "broker", "auto", "auto, redpanda, embedded, or host:port,…")
	fs.StringVar(&o.FindingsFile, "findings", "", "JSON array of buf lint/breaking findings")
	allow := fs.String("allow", "", "breaking,regression: turn those violations into warnings")
	fs.StringVar(&o.BaseRef, "base-ref", "", "")
	fs.StringVar(&o.BaseSha, "base-sha", "", "")
	fs.StringVar(&o.HeadRef, "head-ref", "", "")
	fs.StringVar(&o.HeadSha, "head-sha", "", "")
	fs.StringVar(&o.Out, "out", ".wiregate", "directory for report.json, base.txt, head.txt")
	fs.StringVar(&o.CacheDir, "cache-dir", "", "where prepared bench programs are kept")
	quiet := fs.Bool("quiet", false, "no progress lines on stderr")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if o.BaseDir == "" {
		return exitcode.BadInput("--base-dir is required: a checkout of the base commit (git worktree add)")
	}
	a, err := strconv.ParseFloat(*alpha, 64)
	if err != nil || a <= 0 || a >= 1 {
		return exitcode.BadInput("--alpha %q: use a number between 0 and 1, e.g. 0.05", *alpha)
	}
	o.Alpha = a
	if o.Count < 2 || o.Count > 100 {
		return exitcode.BadInput("--count %d: use 2 to 100 rounds (statistics need at least 2 per side; 10 is the default)", o.Count)
	}
	if o.PipelineN <= 0 || o.PipelineN > 100_000_000 {
		return exitcode.BadInput("--pipeline-messages %d: use 1 to 100000000", o.PipelineN)
	}
	o.Messages, o.AvroGlobs, o.Allow = splitList(*messages), splitList(*avro), splitList(*allow)
	// The bench programs run elsewhere: every path they get is absolute.
	for _, p := range []*string{&o.BaseDir, &o.HeadDir, &o.Out, &o.Samples, &o.HarnessDir, &o.FindingsFile} {
		if *p != "" {
			if abs, err := filepath.Abs(*p); err == nil {
				*p = abs
			}
		}
	}
	for _, a := range o.Allow {
		if a != "breaking" && a != "regression" {
			return exitcode.BadInput("--allow %q: use breaking and/or regression", a)
		}
	}
	if !*quiet {
		o.Log = func(format string, args ...any) { fmt.Fprintf(os.Stderr, format+"\n", args...) }
	}
	r, err := gate.Run(ctx, o)
	if err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "wiregate: %s (%d violations); report: %s/report.json\n", r.Result, len(r.Violations), o.Out)
	switch {
	case len(r.Errors) > 0:
		return &exitcode.Error{Code: exitcode.Unusable, Err: fmt.Errorf("%s", r.Errors[0])}
	case r.Result == "fail":
		return &exitcode.Error{Code: exitcode.Failed, Err: fmt.Errorf("gate failed: %d violations", len(r.Violations))}
	}
	return nil
}

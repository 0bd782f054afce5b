package main

import (
	"context"
	"encoding/json"
	"flag"
	"io"
	"os"

	"github.com/wiregate/wiregate/harness/parent/cpucost"
	"github.com/wiregate/wiregate/harness/program/bench"
	"github.com/wiregate/wiregate/harness/program/benchprog"
	"github.com/wiregate/wiregate/harness/program/exitcode"
	"github.com/wiregate/wiregate/harness/program/record"
)

func init() {
	register("instructions", "instructions/op of every encode/decode, counted exactly under Valgrind, in benchfmt (-o FILE, --cycles, --json)", cmdInstructions)
}

// cmdInstructions prepares the bench program and counts it under callgrind:
// `wiregate instructions`. Asked for explicitly, a missing Valgrind is an
// error (exit 2) with the reason; the gate, which can go on without, gets
// the same reason as cpucost.Counts.Unavailable instead.
func cmdInstructions(ctx context.Context, args []string) error {
	var s schemaFlags
	fs := flag.NewFlagSet("instructions", flag.ContinueOnError)
	s.add(fs)
	out := fs.String("o", "", "write benchfmt to this file (default stdout)")
	cycles := fs.Bool("cycles", false, "also simulate caches for an estimated-cycles figure (informational, not exact, ~3x slower)")
	first := fs.Int("first", 0, "count the first N records of the pool (0: all); with --passes, instead of the length the precision needs")
	passes := fs.Int("passes", 0, "passes over those records counted per loop (0: the length each format's noise floor needs)")
	vg := fs.String("valgrind", "", "valgrind binary (default: valgrind on PATH)")
	asJSON := fs.Bool("json", false, "print the counts as JSON instead of benchfmt")
	keep := fs.String("keep-dumps", "", "copy callgrind's dumps into this directory (for callgrind_annotate)")
	batch := fs.Int("batch", 0, "messages one Valgrind process counts (0: spread evenly over the CPUs)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	var length *cpucost.Length
	switch {
	case *passes < 0 || *passes > 1000:
		return exitcode.BadInput("--passes %d: use 1 to 1000 (0: by precision)", *passes)
	case *first < 0:
		return exitcode.BadInput("--first %d: must not be negative (0: the whole pool)", *first)
	case *batch < 0:
		return exitcode.BadInput("--batch %d: must not be negative (0: spread over the CPUs)", *batch)
	case *passes > 0:
		span := bench.Span{Records: *first, Passes: *passes}
		length = &cpucost.Length{Span: span, Warm: max(cpucost.LengthFor("", 0).Warm, span.Ops(record.PoolSize))}
	}
	say := newSaid("instructions")
	p, rargs, err := s.program(ctx, say)
	if err != nil {
		return err
	}
	opts := cpucost.Options{Valgrind: *vg, Length: length, CacheSim: *cycles, KeepDumps: *keep, Batch: *batch}
	// As the gate does: a sizes pass builds and checks the records and
	// saves them for the count processes to load, and its bytes size each
	// count (unless --passes fixes the length).
	saved, err := os.MkdirTemp("", "wiregate-saved-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(saved)
	sizes, err := p.Sizes(ctx, benchprog.SizesFlags{Selection: rargs, Save: saved})
	if err != nil {
		return err
	}
	opts.Bytes = map[string]float64{}
	for _, r := range sizes {
		opts.Bytes[r.Message+"/"+r.Format] = r.BytesMean
	}
	rargs.Saved = saved
	counts, err := cpucost.Count(ctx, p.Binary, rargs, opts)
	if err != nil {
		return err
	}
	if counts.Unavailable != "" {
		return exitcode.BadInput("%s", counts.Unavailable)
	}
	w, closeOut, err := output(*out)
	if err != nil {
		return err
	}
	defer closeOut()
	if err := writeCounts(w, counts, *asJSON); err != nil {
		return err
	}
	say.selection(rargs)
	say.done("counted")
	return nil
}

func writeCounts(w io.Writer, counts *cpucost.Counts, asJSON bool) error {
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(counts)
	}
	bench.Header(w)
	return cpucost.Write(w, counts)
}

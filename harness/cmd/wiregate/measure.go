package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/wiregate/wiregate/harness/parent/inputs"
	"github.com/wiregate/wiregate/harness/parent/prepare"
	"github.com/wiregate/wiregate/harness/parent/schemafiles"
	"github.com/wiregate/wiregate/harness/program/batch"
	"github.com/wiregate/wiregate/harness/program/benchprog"
	"github.com/wiregate/wiregate/harness/program/exitcode"
)

// schemaFlags are the flags that say which schemas to measure.
type schemaFlags struct {
	bufInput, buf, messages, formats, samples, avroGlobs, harnessDir, cacheDir string
}

// parseSchemaFlags parses a measuring command's flags: the schema flags
// plus those define adds (nil: none).
func parseSchemaFlags(name string, args []string, define func(fs *flag.FlagSet)) (*schemaFlags, error) {
	var s schemaFlags
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	s.add(fs)
	if define != nil {
		define(fs)
	}
	return &s, parseFlags(fs, args)
}

func (s *schemaFlags) add(fs *flag.FlagSet) {
	fs.StringVar(&s.bufInput, "buf-input", inputs.DefaultOf("buf-input"), "directory holding buf.yaml")
	fs.StringVar(&s.buf, "buf", "", "buf binary (default: $WIREGATE_BUF, buf on PATH, or node_modules/.bin/buf beside the harness directory)")
	fs.StringVar(&s.messages, "messages", "", "fully qualified messages, comma separated (default: every top-level message)")
	fs.StringVar(&s.formats, "formats", inputs.DefaultOf("formats"), "formats to measure")
	fs.StringVar(&s.samples, "samples", "", "directory of <full.Message.Name>.jsonl protojson samples")
	fs.StringVar(&s.avroGlobs, "avro-schemas", inputs.DefaultOf("avro-schemas"), "Avro schemas (globs under --buf-input); one whose record full name equals a message's is its Avro schema")
	fs.StringVar(&s.harnessDir, "harness-dir", "", "a wiregate checkout's harness/, for developing wiregate (default: $WIREGATE_HARNESS, else one above the working directory, else the source this binary carries)")
	fs.StringVar(&s.cacheDir, "cache-dir", "", "where prepared bench programs are kept (default $WIREGATE_CACHE or the user cache dir)")
}

func (s *schemaFlags) prepare(ctx context.Context) (*prepare.Result, error) {
	return prepare.Prepare(ctx, prepare.Options{
		BufInput: s.bufInput, Buf: s.buf, Messages: splitList(s.messages), Formats: splitList(s.formats),
		HarnessDir: s.harnessDir, CacheDir: s.cacheDir,
	})
}

// program prepares the bench program and returns it with the selection to
// run it with. When every message is measured (no --messages), it says
// the messages prepare skipped; a message asked for by name that cannot be
// measured is prepare's error instead.
func (s *schemaFlags) program(ctx context.Context, say *said) (*benchprog.Program, benchprog.Selection, error) {
	p, err := s.prepare(ctx)
	if err != nil {
		return nil, benchprog.Selection{}, err
	}
	if len(splitList(s.messages)) == 0 {
		say.skip(p.Skipped)
	}
	avro, err := schemafiles.Glob(s.bufInput, splitList(s.avroGlobs))
	if err != nil {
		return nil, benchprog.Selection{}, err
	}
	sel := benchprog.Selection{Messages: p.Messages, Formats: splitList(s.formats), Avro: avro}
	if s.samples != "" {
		abs, _ := filepath.Abs(s.samples)
		if st, err := os.Stat(abs); err != nil || !st.IsDir() {
			return nil, sel, exitcode.BadInput("--samples %s: not a directory of <full.Message.Name>.jsonl files", s.samples)
		}
		sel.Samples = abs
	}
	return &benchprog.Program{Binary: p.Binary}, sel, nil
}

func init() {
	register("prepare", "build (or reuse) the bench program for a buf input; prints its path and timings", cmdPrepare)
	register("check", "correctness gate: every codec round-trips every record exactly", cmdCheck)
	register("sizes", "bytes per message per format (exact); --json for a JSON array", cmdSizes)
	register("bench", "encode/decode benchmarks in benchfmt (-o FILE, --count N, --benchtime D)", cmdBench)
}

func cmdPrepare(ctx context.Context, args []string) error {
	s, err := parseSchemaFlags("prepare", args, nil)
	if err != nil {
		return err
	}
	p, err := s.prepare(ctx)
	if err != nil {
		return err
	}
	return printJSON(p)
}

func cmdCheck(ctx context.Context, args []string) error {
	var each bool
	s, err := parseSchemaFlags("check", args, func(fs *flag.FlagSet) {
		fs.BoolVar(&each, "v", false, "print a line per message and format that round-trips (ok …)")
	})
	if err != nil {
		return err
	}
	say := newSaid("check")
	prog, sel, err := s.program(ctx, say)
	if err != nil {
		return err
	}
	checked, err := prog.Check(ctx, benchprog.CheckFlags{Selection: sel})
	if err != nil {
		return err
	}
	for _, c := range checked {
		say.add(c.Message, c.Format)
		if each {
			fmt.Printf("ok %s/%s (%d records, %s)\n", c.Message, c.Format, c.Records, c.Source)
		}
	}
	say.done("ok")
	return nil
}

func cmdSizes(ctx context.Context, args []string) error {
	var (
		asJSON      bool
		compression string
		b           benchprog.Batching
	)
	s, err := parseSchemaFlags("sizes", args, func(fs *flag.FlagSet) {
		fs.BoolVar(&asJSON, "json", false, "print a JSON array")
		fs.StringVar(&compression, "compression", inputs.DefaultOf("compression"),
			"codecs of bytes per record after batch compression, comma separated: "+strings.Join(batch.Codecs, ", ")+" (none: framed, uncompressed); empty for raw size only")
		fs.IntVar(&b.BatchBytes, "batch-bytes", batch.DefaultBatchBytes, "a producer batch's bytes before compression")
	})
	if err != nil {
		return err
	}
	say := newSaid("sizes")
	prog, sel, err := s.program(ctx, say)
	if err != nil {
		return err
	}
	b.Compression = splitList(compression)
	f := benchprog.SizesFlags{Selection: sel, Batching: b}
	if err := f.Validate(); err != nil {
		return err
	}
	ss, err := prog.Sizes(ctx, f)
	if err != nil {
		return err
	}
	for _, s := range ss {
		say.add(s.Message, s.Format)
	}
	if err := printSizes(ss, asJSON); err != nil {
		return err
	}
	say.done("measured")
	return nil
}

func printSizes(ss []benchprog.Size, asJSON bool) error {
	if asJSON {
		return printJSON(ss)
	}
	tw := tabwriter.NewWriter(os.Stdout, 0, 4, 2, ' ', tabwriter.AlignRight)
	head := "message\tformat\tbytes/msg\tmin\tmax\tvs JSON\t"
	if len(ss) > 0 {
		for _, c := range ss[0].Compressed {
			head += c.Codec + " B/record\t"
		}
	}
	fmt.Fprintln(tw, head)
	for _, s := range ss {
		vs := "-"
		if s.VsJSON > 0 {
			vs = fmt.Sprintf("%.0f%%", 100*s.VsJSON)
		}
		fmt.Fprintf(tw, "%s\t%s\t%.1f\t%d\t%d\t%s\t", s.Message, s.Format, s.BytesMean, s.BytesMin, s.BytesMax, vs)
		for _, c := range s.Compressed {
			fmt.Fprintf(tw, "%.2f\t", c.BytesPerRecord)
		}
		fmt.Fprintln(tw)
	}
	return tw.Flush()
}

func cmdBench(ctx context.Context, args []string) error {
	var t benchprog.Timing
	var out string
	s, err := parseSchemaFlags("bench", args, func(fs *flag.FlagSet) {
		t.DefineTiming(fs)
		fs.StringVar(&out, "o", "", "write benchfmt to this file (default stdout)")
	})
	if err != nil {
		return err
	}
	if err := t.Validate(); err != nil {
		return err
	}
	say := newSaid("bench")
	prog, sel, err := s.program(ctx, say)
	if err != nil {
		return err
	}
	w, closeOut, err := output(out)
	if err != nil {
		return err
	}
	defer closeOut()
	if err := prog.Bench(ctx, benchprog.BenchFlags{Selection: sel, Timing: t, Header: true}, w); err != nil {
		return err
	}
	say.selection(sel)
	say.done("benchmarked")
	return nil
}

// output is -o's file, or stdout when it is empty.
func output(path string) (io.Writer, func(), error) {
	if path == "" {
		return os.Stdout, func() {}, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, nil, exitcode.BadInput("-o %s: %v", path, err)
	}
	return f, func() { f.Close() }, nil
}

func printJSON(v any) error {
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

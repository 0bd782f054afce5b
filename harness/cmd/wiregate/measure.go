package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/wiregate/wiregate/harness/exitcode"
	"github.com/wiregate/wiregate/harness/prepare"
	"github.com/wiregate/wiregate/harness/schemafiles"
)

// schemaFlags are the flags that say which schemas to measure.
type schemaFlags struct {
	bufInput, buf, messages, formats, samples, avroGlobs, harnessDir, cacheDir string
}

func (s *schemaFlags) add(fs *flag.FlagSet) {
	fs.StringVar(&s.bufInput, "buf-input", ".", "directory holding buf.yaml")
	fs.StringVar(&s.buf, "buf", "", "buf binary (default: $WIREGATE_BUF, buf on PATH, or node_modules/.bin/buf)")
	fs.StringVar(&s.messages, "messages", "", "fully qualified messages, comma separated (default: every top-level message)")
	fs.StringVar(&s.formats, "formats", "json,protobuf,avro", "formats to measure")
	fs.StringVar(&s.samples, "samples", "", "directory of <full.Message.Name>.jsonl protojson samples")
	fs.StringVar(&s.avroGlobs, "avro-schemas", "**/*.avsc", "Avro schemas (globs under --buf-input); one whose record full name equals a message's is its Avro schema")
	fs.StringVar(&s.harnessDir, "harness-dir", "", "wiregate's harness/ source (default: found from the working directory)")
	fs.StringVar(&s.cacheDir, "cache-dir", "", "where prepared bench programs are kept (default $WIREGATE_CACHE or the user cache dir)")
}

func (s *schemaFlags) prepare(ctx context.Context) (*prepare.Result, error) {
	return prepare.Prepare(ctx, prepare.Options{
		BufInput: s.bufInput, Buf: s.buf, Messages: splitList(s.messages), Formats: splitList(s.formats),
		HarnessDir: s.harnessDir, CacheDir: s.cacheDir,
	})
}

// program prepares the bench program and returns it with the selection
// flags to run it with.
func (s *schemaFlags) program(ctx context.Context) (*prepare.Result, []string, error) {
	p, err := s.prepare(ctx)
	if err != nil {
		return nil, nil, err
	}
	args, err := s.runnerArgs(p)
	return p, args, err
}

// runnerArgs are the selection flags passed on to the bench program.
func (s *schemaFlags) runnerArgs(p *prepare.Result) ([]string, error) {
	avro, err := schemafiles.Glob(s.bufInput, splitList(s.avroGlobs))
	if err != nil {
		return nil, err
	}
	args := []string{"--messages", strings.Join(p.Messages, ","), "--formats", s.formats, "--avro", strings.Join(avro, ",")}
	if s.samples != "" {
		abs, _ := filepath.Abs(s.samples)
		if st, err := os.Stat(abs); err != nil || !st.IsDir() {
			return nil, exitcode.BadInput("--samples %s: not a directory of <full.Message.Name>.jsonl files", s.samples)
		}
		args = append(args, "--samples", abs)
	}
	return args, nil
}

func splitList(s string) []string {
	var out []string
	for _, p := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == '\n' }) {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// runProgram runs the prepared bench program and passes its exit code on.
func runProgram(ctx context.Context, bin string, args []string, stdout io.Writer) error {
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Stdout, cmd.Stderr = stdout, os.Stderr
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		// The program already printed its one-line error.
		return &exitcode.Error{Code: ee.ExitCode(), Err: fmt.Errorf("%s exited with %d", filepath.Base(bin), ee.ExitCode())}
	}
	return err
}

func init() {
	register("prepare", "build (or reuse) the bench program for a buf input; prints its path and timings", cmdPrepare)
	for _, sub := range []struct{ name, summary string }{
		{"check", "correctness gate: every codec round-trips every record exactly"},
		{"sizes", "bytes per message per format (exact); --json for a JSON array"},
		{"bench", "encode/decode benchmarks in benchfmt (-o FILE, --count N, --benchtime D)"},
	} {
		name := sub.name
		register(name, sub.summary, func(ctx context.Context, args []string) error { return cmdMeasure(ctx, name, args) })
	}
}

func cmdPrepare(ctx context.Context, args []string) error {
	var s schemaFlags
	fs := flag.NewFlagSet("prepare", flag.ContinueOnError)
	s.add(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	p, err := s.prepare(ctx)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(p)
}

// cmdMeasure prepares, then runs the bench program's subcommand of the same
// name with the selection and every flag it does not know passed through.
func cmdMeasure(ctx context.Context, name string, args []string) error {
	var s schemaFlags
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	s.add(fs)
	var passthrough []string
	switch name {
	case "sizes":
		asJSON := fs.Bool("json", false, "print a JSON array")
		if err := parseFlags(fs, args); err != nil {
			return err
		}
		if *asJSON {
			passthrough = append(passthrough, "--json")
		}
	case "bench":
		count := fs.Int("count", 1, "repetitions of every benchmark")
		benchtime := fs.String("benchtime", "1s", "target time per benchmark run")
		out := fs.String("o", "", "write benchfmt to this file (default stdout)")
		if err := parseFlags(fs, args); err != nil {
			return err
		}
		passthrough = append(passthrough, "--count", fmt.Sprint(*count), "--benchtime", *benchtime)
		if *out != "" {
			abs, _ := filepath.Abs(*out)
			passthrough = append(passthrough, "-o", abs)
		}
	default:
		if err := parseFlags(fs, args); err != nil {
			return err
		}
	}
	p, rargs, err := s.program(ctx)
	if err != nil {
		return err
	}
	return runProgram(ctx, p.Binary, append(append([]string{name}, rargs...), passthrough...), os.Stdout)
}

func parseFlags(fs *flag.FlagSet, args []string) error {
	fs.SetOutput(io.Discard)
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			fs.SetOutput(os.Stderr)
			fs.PrintDefaults()
			return exitcode.BadInput("%s: help requested", fs.Name())
		}
		return exitcode.BadInput("%v; run `wiregate %s -h` for the flags", err, fs.Name())
	}
	if fs.NArg() > 0 {
		return exitcode.BadInput("unexpected argument %q; run `wiregate %s -h` for the flags", fs.Arg(0), fs.Name())
	}
	return nil
}

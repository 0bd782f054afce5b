// Package benchprog is the contract between wiregate (the parent) and a
// generated bench program (package runner, inside): the subcommand names,
// the selection of what to measure, each subcommand's flags as a typed
// struct (Args on the parent side, Parse inside) and each subcommand's
// typed output; and Program, the parent's client that runs the program.
// Both sides compile this package, so the argv and the JSON cannot drift.
//
// It links no codec: the parent names formats and the program resolves
// them.
package benchprog

import (
	"flag"
	"strings"

	"github.com/wiregate/wiregate/harness/program/subcmd"
)

// ProgramName is the bench program's binary name and the prefix of its
// error lines ("wiregate-bench sizes: …").
const ProgramName = "wiregate-bench"

// The subcommands, each with its flags type and its output.
const (
	CmdList           = "list"              // no flags → one message name a line
	CmdCheck          = "check"             // CheckFlags → []Checked (JSON)
	CmdSizes          = "sizes"             // SizesFlags → []Size (JSON)
	CmdBench          = "bench"             // BenchFlags → benchfmt text (the `go test -bench` format)
	CmdFill           = "pipeline-fill"     // FillFlags → []pipeline.Backlog (JSON)
	CmdConsume        = "pipeline-consume"  // ConsumeFlags → one pipeline.ConsumeResult (JSON line)
	CmdConsumer       = "pipeline-consumer" // ConsumerFlags; stdin: pipeline.DrainRequest lines → one pipeline.DrainReply line each, until stdin closes
	CmdEmbeddedBroker = "embedded-broker"   // no flags → the address line, then serves until stdin closes
	CmdCount          = "count"             // CountFlags, under callgrind → one dump label a line (package cpucost)
)

// Selection says what a measuring subcommand measures: every message
// crossed with every format.
type Selection struct {
	Messages []string // fully qualified; empty: every message compiled in
	Formats  []string // empty: the program's default formats
	Samples  string   // directory of <full.Message.Name>.jsonl protojson records; absolute
	// SamplesLoose drops a sample's fields this side's schema lacks: the
	// gate's base reading head's samples. Otherwise such a field is bad
	// input.
	SamplesLoose bool
	Avro         []string // .avsc files; one whose record full name equals a message's is its Avro schema; absolute
	// NoAvro are messages whose .avsc disagrees with them: not measured in
	// the Avro formats (the gate reports the disagreement as a finding).
	NoAvro []string
	// Records is a directory of <full.Message.Name>.binpb record pools the
	// parent wrote (the base's records, carried to head by field number):
	// a message with a file there measures those records. Absolute.
	Records string
	// Saved is a directory of the selection's cases as a sizes run saved
	// them (SizesFlags.Save): a message saved there is loaded, not built
	// and checked again. Count needs every message saved. Absolute.
	Saved string
}

// Args renders the selection as flags for Parse.
func (s Selection) Args() []string {
	var args []string
	add := func(name string, vals []string) {
		if len(vals) > 0 {
			args = append(args, "--"+name, strings.Join(vals, ","))
		}
	}
	add("messages", s.Messages)
	add("formats", s.Formats)
	add("avro", s.Avro)
	add("no-avro", s.NoAvro)
	if s.Samples != "" {
		args = append(args, "--samples", s.Samples)
	}
	if s.SamplesLoose {
		args = append(args, "--samples-loose")
	}
	if s.Records != "" {
		args = append(args, "--records", s.Records)
	}
	if s.Saved != "" {
		args = append(args, "--saved", s.Saved)
	}
	return args
}

// Only is s narrowed to one message and one format (a consumer's selection:
// the same samples and Avro schemas reproduce the produced records).
func (s Selection) Only(message, format string) Selection {
	s.Messages, s.Formats = []string{message}, []string{format}
	return s
}

func (s *Selection) define(fs *flag.FlagSet) {
	fs.Var((*list)(&s.Messages), "messages", "fully qualified messages, comma separated (default: every message compiled in)")
	fs.Var((*list)(&s.Formats), "formats", "formats, comma separated (default json,protobuf,avro)")
	fs.StringVar(&s.Samples, "samples", "", "directory of <full.Message.Name>.jsonl protojson samples")
	fs.BoolVar(&s.SamplesLoose, "samples-loose", false, "drop a sample's fields this schema lacks (the base reading head's samples)")
	fs.StringVar(&s.Records, "records", "", "directory of <full.Message.Name>.binpb record pools (written by wiregate gate)")
	fs.StringVar(&s.Saved, "saved", "", "directory of cases a sizes run saved (--save): loaded instead of built")
	fs.Var((*list)(&s.Avro), "avro", ".avsc files, comma separated; one whose record full name equals a message's is its Avro schema")
	fs.Var((*list)(&s.NoAvro), "no-avro", "messages not measured in the Avro formats (their .avsc disagrees with them), comma separated")
}

// list is a comma (or newline, or space) separated flag value.
type list []string

func (l *list) String() string { return strings.Join(*l, ",") }

func (l *list) Set(v string) error {
	*l = SplitList(v)
	return nil
}

// SplitList splits a comma or newline separated list (the form of every
// list input), trimming blanks and dropping empty items.
func SplitList(s string) []string {
	var out []string
	for _, p := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == '\n' }) {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// Flags is what every subcommand's flags type implements.
type Flags interface {
	// Args renders the flags for the program's command line.
	Args() []string
	// Validate checks values the program cannot work with; Parse calls
	// it, and the parent may call it before the (slow) prepare.
	Validate() error
	define(fs *flag.FlagSet)
}

// Validate: any selection is well formed; what it names is checked by the
// program, which knows its messages and formats.
func (s *Selection) Validate() error { return nil }

// Parse reads the flags Args wrote (sub names the subcommand in errors),
// then validates them. -h prints the flags and returns subcmd.ErrHelp.
func Parse(sub string, f Flags, args []string) error {
	fs := flag.NewFlagSet(sub, flag.ContinueOnError)
	f.define(fs)
	if err := subcmd.Parse(ProgramName, fs, args); err != nil {
		return err
	}
	return f.Validate()
}

// Package runner is the main of every generated bench program: it knows the
// subjects compiled in and runs one measurement per invocation (check,
// sizes, bench, and the pipeline's consumer), so that cmd/wiregate can run
// base and head programs alternately, each in a fresh process.
package runner

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"sort"
	"strings"
	"syscall"

	"github.com/wiregate/wiregate/harness/avroschema"
	"github.com/wiregate/wiregate/harness/cases"
	"github.com/wiregate/wiregate/harness/codec"
	"github.com/wiregate/wiregate/harness/exitcode"
	"github.com/wiregate/wiregate/harness/roundtrip"
	"github.com/wiregate/wiregate/harness/subject"
)

// Command is one subcommand of a bench program.
type Command func(ctx context.Context, env *Env, args []string) error

// commands are the bench program's subcommands; other packages add theirs
// with Register before Main runs (the pipeline's consumer, the embedded
// broker).
var commands = map[string]Command{
	"check": runCheck,
	"sizes": runSizes,
	"bench": runBench,
	"list":  runList,
}

// Register adds a subcommand.
func Register(name string, c Command) { commands[name] = c }

// Env is what every subcommand gets: the compiled-in subjects.
type Env struct {
	Subjects []subject.Subject
	Stdout   io.Writer
}

// Main dispatches os.Args and exits with wiregate's exit codes.
func Main(subjects []subject.Subject) {
	if len(os.Args) < 2 {
		fmt.Fprintf(os.Stderr, "usage: %s <%s> [flags]\n", filepath.Base(os.Args[0]), strings.Join(names(), "|"))
		os.Exit(exitcode.Unusable)
	}
	cmd, ok := commands[os.Args[1]]
	if !ok {
		fmt.Fprintf(os.Stderr, "%s: unknown command %q (%s)\n", filepath.Base(os.Args[0]), os.Args[1], strings.Join(names(), ", "))
		os.Exit(exitcode.Unusable)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := cmd(ctx, &Env{Subjects: subjects, Stdout: os.Stdout}, os.Args[2:])
	stop()
	if err != nil {
		fmt.Fprintf(os.Stderr, "wiregate %s: %s\n", os.Args[1], strings.ReplaceAll(strings.TrimSpace(err.Error()), "\n", "; "))
	}
	os.Exit(exitcode.Code(err))
}

func names() []string {
	var ns []string
	for n := range commands {
		ns = append(ns, n)
	}
	sort.Strings(ns)
	return ns
}

// Selection is the flags every measuring subcommand shares.
type Selection struct {
	Messages string
	Formats  string
	Samples  string
	Avro     string
}

// AddFlags registers the selection flags on fs.
func (s *Selection) AddFlags(fs *flag.FlagSet) {
	fs.StringVar(&s.Messages, "messages", "", "fully qualified messages, comma separated (default: all compiled in)")
	fs.StringVar(&s.Formats, "formats", codec.DefaultNames, "formats, comma separated: "+strings.Join(codec.Names(), ", "))
	fs.StringVar(&s.Samples, "samples", "", "directory of <full.Message.Name>.jsonl protojson samples")
	fs.StringVar(&s.Avro, "avro", "", "comma-separated .avsc files; one whose record full name equals a message's is its Avro schema")
}

// CheckedCases resolves the selection and runs the correctness gate on it:
// no number is measured for a codec that does not round-trip its records.
func (s *Selection) CheckedCases(env *Env) ([]*cases.Case, error) {
	cs, err := s.Cases(env)
	if err != nil {
		return nil, err
	}
	if err := roundtrip.Check(cs); err != nil {
		return nil, exitcode.Failf("%v", err)
	}
	return cs, nil
}

// Cases resolves the selection into measured cases.
func (s *Selection) Cases(env *Env) ([]*cases.Case, error) {
	formats, err := codec.Parse(s.Formats)
	if err != nil {
		return nil, err
	}
	subs, err := s.subjects(env, formats)
	if err != nil {
		return nil, err
	}
	return cases.Build(subs, formats, s.Samples)
}

func (s *Selection) subjects(env *Env, formats []codec.Format) ([]*subject.Subject, error) {
	byName := map[string]*subject.Subject{}
	var all []string
	for i := range env.Subjects {
		sub := &env.Subjects[i]
		byName[sub.Name()] = sub
		all = append(all, sub.Name())
	}
	wanted := all
	if strings.TrimSpace(s.Messages) != "" {
		wanted = nil
		for _, n := range strings.FieldsFunc(s.Messages, func(r rune) bool { return r == ',' || r == '\n' || r == ' ' }) {
			if byName[n] == nil {
				return nil, exitcode.BadInput("--messages: %q is not in this bench program (it has %s); run prepare with it", n, strings.Join(all, ", "))
			}
			wanted = append(wanted, n)
		}
	}
	var avroFiles []string
	for _, f := range strings.Split(s.Avro, ",") {
		if f = strings.TrimSpace(f); f != "" {
			avroFiles = append(avroFiles, f)
		}
	}
	needAvro := false
	for _, f := range formats {
		needAvro = needAvro || f.Name == "avro"
	}
	var out []*subject.Subject
	for _, n := range wanted {
		sub := byName[n]
		if needAvro && sub.Avro == nil {
			sch, src, err := avroschema.ForMessage(sub.Type.Descriptor(), avroFiles)
			if err != nil {
				return nil, err
			}
			sub.Avro, sub.AvroSource = sch, src
		}
		out = append(out, sub)
	}
	return out, nil
}

func parse(fs *flag.FlagSet, args []string) error {
	fs.SetOutput(io.Discard)
	if err := fs.Parse(args); err != nil {
		return exitcode.BadInput("%v; run with -h for the flags", err)
	}
	return nil
}

func runList(ctx context.Context, env *Env, args []string) error {
	for _, s := range env.Subjects {
		fmt.Fprintln(env.Stdout, s.Name())
	}
	return nil
}

func runCheck(ctx context.Context, env *Env, args []string) error {
	var sel Selection
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	sel.AddFlags(fs)
	if err := parse(fs, args); err != nil {
		return err
	}
	cs, err := sel.CheckedCases(env)
	if err != nil {
		return err
	}
	for _, c := range cs {
		fmt.Fprintf(env.Stdout, "ok %s (%d records, %s)\n", c.Name(), len(c.Records), c.Source)
	}
	return nil
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// Package runner is the main of every generated bench program: it knows the
// subjects compiled in and runs one measurement per invocation, so that the
// parent can run base and head programs alternately, each in a fresh
// process. Its subcommands, flags and outputs are package benchprog's
// contract; it dispatches through package subcmd like cmd/wiregate.
package runner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/wiregate/wiregate/harness/program/avroschema"
	"github.com/wiregate/wiregate/harness/program/benchprog"
	"github.com/wiregate/wiregate/harness/program/cases"
	"github.com/wiregate/wiregate/harness/program/codec"
	"github.com/wiregate/wiregate/harness/program/exitcode"
	"github.com/wiregate/wiregate/harness/program/roundtrip"
	"github.com/wiregate/wiregate/harness/program/subcmd"
	"github.com/wiregate/wiregate/harness/program/subject"
)

// grace is how long a subcommand may take to stop after SIGINT or SIGTERM
// before the program exits anyway: long enough for a fill to delete the
// topic it was producing into, well inside the parent's proc.KillAfter.
const grace = 2 * time.Second

// Env is what every subcommand gets: the compiled-in subjects.
type Env struct {
	Subjects []subject.Subject
	Stdout   io.Writer
	// buildCases replaces cases.ForMessage in tests that watch which cases
	// are alive.
	buildCases func(*subject.Subject, []codec.Format, cases.From) ([]*cases.Case, error)
}

// Main dispatches os.Args and exits with wiregate's exit codes.
func Main(subjects []subject.Subject) {
	Registry(&Env{Subjects: subjects, Stdout: os.Stdout}).Main(grace)
}

// Registry is the bench program's subcommands over env.
func Registry(env *Env) *subcmd.Registry {
	r := subcmd.New(benchprog.ProgramName)
	for _, c := range []struct {
		name, summary string
		run           func(ctx context.Context, env *Env, args []string) error
		noCleanup     bool
	}{
		{benchprog.CmdList, "the messages compiled in, one a line", runList, true},
		{benchprog.CmdCheck, "correctness gate: every codec round-trips every record exactly (JSON)", runCheck, true},
		{benchprog.CmdSizes, "exact bytes per message per format (JSON)", runSizes, true},
		{benchprog.CmdBench, "encode/decode benchmarks in benchfmt", runBench, true},
		{benchprog.CmdFill, "fill one backlog topic per case (JSON)", runFill, false},
		{benchprog.CmdConsume, "drain one backlog as the capped consumer (JSON)", runConsume, false},
		{benchprog.CmdConsumer, "drain backlog after backlog as the capped consumer, as stdin asks (JSON lines)", runConsumer, false},
		{benchprog.CmdEmbeddedBroker, "serve franz-go's kfake broker; prints its address", runEmbeddedBroker, false},
		{benchprog.CmdCount, "count each loop's instructions, under callgrind (cpucost)", runCount, true},
	} {
		run := c.run
		r.Add(subcmd.Command{Name: c.name, Summary: c.summary, NoCleanup: c.noCleanup,
			Run: func(ctx context.Context, args []string) error { return run(ctx, env, args) }})
	}
	return r
}

// checkedStream resolves the selection (every message, format and Avro
// schema it names is checked before anything is built) and streams it one
// message at a time: the message's cases built and put through the
// correctness gate — no number is measured for a codec that does not
// round-trip its records — with the setup priced on every case. It builds
// whatever sel.Saved holds: its callers (sizes, check, the pipeline's
// fill and consumer) need the proto records, which saved cases lack.
func checkedStream(env *Env, sel benchprog.Selection) (cases.Stream, error) {
	sel.Saved = ""
	return loadedStream(env, sel)
}

// loadedStream is checkedStream that loads a message's cases instead when
// sel.Saved holds them (the bench rounds: they only run loops).
func loadedStream(env *Env, sel benchprog.Selection) (cases.Stream, error) {
	subs, formats, err := resolve(env, sel)
	if err != nil {
		return nil, err
	}
	return streamOf(subs, func(s *subject.Subject) ([]*cases.Case, error) { return setUp(env, s, formats, sel) }), nil
}

// streamOf streams subs, each message's cases made by set when it is
// reached, its setup's seconds priced on every case.
func streamOf(subs []*subject.Subject, set func(*subject.Subject) ([]*cases.Case, error)) cases.Stream {
	return func(fn func([]*cases.Case) error) error {
		for _, s := range subs {
			start := time.Now()
			cs, err := set(s)
			if err != nil {
				return err
			}
			setup := time.Since(start).Seconds()
			for _, c := range cs {
				c.Cold.SetupSeconds = setup
			}
			if err := fn(cs); err != nil {
				return err
			}
		}
		return nil
	}
}

// setupGCPercent is the collector's target (GOGC) while a message's cases
// are built and checked. Holding one message at a time leaves a small live
// heap, so at Go's default of 100 the collector runs every few tens of MB
// allocated, and marks the compiled-in descriptors each time: `check` of
// 300 generated messages took 15% less CPU at 400, for a peak RSS of 240
// instead of 110 MB (docs/harness.md, "One message at a time"). Measuring
// runs at the process's own setting: a benchmark's collections are part of
// what it measures.
const setupGCPercent = 400

// setUp loads one message's cases when the selection's saved directory
// holds them (a sizes run built and checked those records with this
// program), else builds them and runs the correctness gate on them.
func setUp(env *Env, s *subject.Subject, formats []codec.Format, sel benchprog.Selection) ([]*cases.Case, error) {
	defer debug.SetGCPercent(debug.SetGCPercent(setupGCPercent))
	if sel.Saved != "" {
		cs, err := cases.Load(s, formats, sel.Saved, func(string) int { return 0 })
		if !errors.Is(err, cases.ErrNotSaved) {
			return cs, err
		}
	}
	cs, err := env.build(s, formats, from(sel))
	if err != nil {
		return nil, err
	}
	if err := roundtrip.Check(cs); err != nil {
		return nil, exitcode.Failf("%v", err)
	}
	return cs, nil
}

// resolve turns the selection into its subjects and formats.
func resolve(env *Env, sel benchprog.Selection) ([]*subject.Subject, []codec.Format, error) {
	names := codec.DefaultNames
	if len(sel.Formats) > 0 {
		names = strings.Join(sel.Formats, ",")
	}
	formats, err := codec.Parse(names)
	if err != nil {
		return nil, nil, err
	}
	subs, err := subjects(env, sel, formats)
	return subs, formats, err
}

// build is cases.ForMessage unless a test watches what is built.
func (env *Env) build(s *subject.Subject, formats []codec.Format, from cases.From) ([]*cases.Case, error) {
	if env.buildCases != nil {
		return env.buildCases(s, formats, from)
	}
	return cases.ForMessage(s, formats, from)
}

func subjects(env *Env, sel benchprog.Selection, formats []codec.Format) ([]*subject.Subject, error) {
	byName := map[string]*subject.Subject{}
	var all []string
	for i := range env.Subjects {
		sub := &env.Subjects[i]
		byName[sub.Name()] = sub
		all = append(all, sub.Name())
	}
	wanted := all
	if len(sel.Messages) > 0 {
		wanted = nil
		for _, n := range sel.Messages {
			if byName[n] == nil {
				return nil, exitcode.BadInput("--messages: %q is not in this bench program (it has %s); run prepare with it", n, strings.Join(all, ", "))
			}
			wanted = append(wanted, n)
		}
	}
	needAvro := false
	for _, f := range formats {
		needAvro = needAvro || f.Avro
	}
	var avsc *avroschema.Set
	if needAvro {
		// One set: a record may use named types its file does not define.
		set, err := avroschema.ReadSet("", sel.Avro)
		if err != nil {
			return nil, err
		}
		avsc = set
	}
	var out []*subject.Subject
	for _, n := range wanted {
		sub := byName[n]
		sub.NoAvro = slices.Contains(sel.NoAvro, n)
		if needAvro && sub.Avro == nil && !sub.NoAvro {
			sch, src, err := avroschema.ForMessage(sub.Type.Descriptor(), avsc)
			if err != nil {
				return nil, err
			}
			sub.Avro, sub.AvroSource = sch, src
		}
		out = append(out, sub)
	}
	return out, nil
}

func runList(ctx context.Context, env *Env, args []string) error {
	if err := benchprog.Parse(benchprog.CmdList, &benchprog.NoFlags{}, args); err != nil {
		return err
	}
	for _, s := range env.Subjects {
		fmt.Fprintln(env.Stdout, s.Name())
	}
	return nil
}

func runCheck(ctx context.Context, env *Env, args []string) error {
	var f benchprog.CheckFlags
	if err := benchprog.Parse(benchprog.CmdCheck, &f, args); err != nil {
		return err
	}
	stream, err := checkedStream(env, f.Selection)
	if err != nil {
		return err
	}
	out := []benchprog.Checked{}
	err = stream(func(cs []*cases.Case) error {
		for _, c := range cs {
			out = append(out, benchprog.Checked{Message: c.Subject.Name(), Format: c.Format.Name,
				Records: len(c.Records), Source: c.Source, Aliasing: c.Format.Aliasing})
		}
		return nil
	})
	if err != nil {
		return err
	}
	return writeJSON(env.Stdout, out)
}

// writeJSON writes v as one line: the parent reads the last JSON line.
func writeJSON(w io.Writer, v any) error { return json.NewEncoder(w).Encode(v) }

// from is where a selection's records come from.
func from(sel benchprog.Selection) cases.From {
	return cases.From{Samples: sel.Samples, SamplesLoose: sel.SamplesLoose, Records: sel.Records}
}

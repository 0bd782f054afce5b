package gate

import (
	"context"
	"fmt"
	"slices"

	"github.com/wiregate/wiregate/harness/parent/prepare"
	"github.com/wiregate/wiregate/harness/parent/report"
	"github.com/wiregate/wiregate/harness/program/benchprog"
)

// program is one side's bench program and everything it measures.
type program struct {
	name string // base, head
	prep *prepare.Result
	prog *benchprog.Program
	sel  benchprog.Selection
}

// has says whether the program measures message.
func (p *program) has(message string) bool {
	return p != nil && slices.Contains(p.sel.Messages, message)
}

// only is the program's selection narrowed to messages it has, or false
// when it has none of them.
func (p *program) only(messages []string) (benchprog.Selection, bool) {
	sel := p.sel
	sel.Messages = nil
	for _, m := range messages {
		if p.has(m) {
			sel.Messages = append(sel.Messages, m)
		}
	}
	return sel, len(sel.Messages) > 0
}

// wrap names the side in an error, keeping its exit code.
func (p *program) wrap(err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("%s: %w", p.name, err)
}

// programs are both sides' programs; base is nil when it measures none
// of the messages (they are all new).
type programs struct {
	base, head *program
}

// sides are the programs that exist, base first.
func (ps programs) sides() []*program {
	var out []*program
	for _, p := range []*program{ps.base, ps.head} {
		if p != nil {
			out = append(out, p)
		}
	}
	return out
}

// holding is how many sides measure message.
func (ps programs) holding(message string) int {
	n := 0
	for _, p := range ps.sides() {
		if p.has(message) {
			n++
		}
	}
	return n
}

// buildPrograms builds each side's program for the messages to measure
// and nothing else (prepare.Schema.Build): head's for all of them, the
// base's for those it declares.
func (g *run) buildPrograms(ctx context.Context, sch *schemas, list []string) (programs, string, error) {
	var ps programs
	var err error
	if ps.head, err = g.program(ctx, "head", sch.head, list, sch.headAvro, sch.noAvro); err != nil {
		return ps, "", err
	}
	note := "head " + prepared(ps.head.prep)
	var onBase []string
	for _, m := range list {
		if sch.status[m] != report.StatusNew {
			onBase = append(onBase, m)
		}
	}
	if len(onBase) > 0 {
		if ps.base, err = g.program(ctx, "base", sch.base, onBase, sch.baseAvro, sch.noAvro); err != nil {
			return ps, note, err
		}
		note += "; base " + prepared(ps.base.prep)
	}
	return ps, note, nil
}

func (g *run) program(ctx context.Context, name string, s *prepare.Schema, messages, avro, noAvro []string) (*program, error) {
	res, err := s.Build(ctx, messages)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	// The samples are head's records: the base drops a field head adds
	// (head's are checked strictly first, checkSamples).
	return &program{name: name, prep: res, prog: &benchprog.Program{Binary: res.Binary},
		sel: benchprog.Selection{Messages: messages, Formats: g.s.Formats, Samples: g.s.Samples, SamplesLoose: name == "base", Avro: avro, NoAvro: noAvro}}, nil
}

// prepared says how a program came to be: "reused" (the cache had it), or
// "built in 2.5 s (go build 2.0 s, plugins 0.4 s)".
func prepared(p *prepare.Result) string {
	if p.Reused {
		return fmt.Sprintf("reused (%s)", plural(len(p.Messages), "message"))
	}
	return fmt.Sprintf("built for %s in %.1f s (go build %.1f s, plugins %.1f s)", plural(len(p.Messages), "message"), p.Seconds, p.Timings["go_build"], p.Timings["plugins"])
}

// skipped lists the messages the schemas declare that wiregate cannot
// measure, each once: head's when it measures every message (a requested
// one that cannot be measured is Load's error instead), and the base's
// that head measures.
func skipped(requested []string, sch *schemas) []report.Skipped {
	var out []report.Skipped
	if len(requested) == 0 {
		for _, k := range sch.head.Skipped {
			out = append(out, report.Skipped{Message: k.Message, File: k.File, Reason: k.Reason, Side: "head"})
		}
	}
	if sch.base != nil {
		for _, k := range sch.base.Skipped {
			if slices.Contains(sch.head.Messages, k.Message) {
				out = append(out, report.Skipped{Message: k.Message, File: k.File, Reason: k.Reason, Side: "base"})
			}
		}
	}
	if len(requested) == 0 && sch.headFirst != nil {
		out = append(out, sch.headFirst.skips("head")...)
	}
	return out
}

// sideIndex is 0 for the base program, 1 for head's.
func sideIndex(ps programs, i int) int {
	if ps.base == nil {
		return 1
	}
	return i
}

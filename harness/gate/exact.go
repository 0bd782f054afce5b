package gate

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/wiregate/wiregate/harness/benchprog"
	"github.com/wiregate/wiregate/harness/codec"
	"github.com/wiregate/wiregate/harness/compare"
	"github.com/wiregate/wiregate/harness/report"
)

// exactChunk is how many messages one bench program process sizes: small
// enough that the deadline is checked often and a 1,300-message module is
// never one process, large enough that starting processes costs little.
const exactChunk = 32

// sizes are the exact stage's results: the correctness gate (every codec
// round-trips every record, inside the program's sizes) and bytes per
// message, per side.
type sizes struct {
	pairs map[string][2]*benchprog.Size // "message/format" → base, head
	// carried are head's sizes on its records without what head adds
	// (pools.newContent), by "message/format".
	carried map[string]*benchprog.Size
	// unmeasured are the messages the budget left no time for.
	unmeasured []string
}

// measured is list less what the budget cut here.
func (s sizes) measured(list []string) []string { return without(list, s.unmeasured) }

// measureSizes sizes list on both sides, a chunk of messages per process,
// while the budget lasts: nothing is cut before the timing stages are, so
// this stage may run until the deadline, and stops launching chunks that
// would not end in time by what the chunks before cost per message.
func (g *run) measureSizes(ctx context.Context, ps programs, p pools, list []string) (sizes, string, error) {
	res := sizes{pairs: map[string][2]*benchprog.Size{}, carried: map[string]*benchprog.Size{}}
	prog := newProgress(g.o.Log, "sizes", progressEvery)
	defer prog.stop()
	deadline := g.budget.Deadline()
	var perMessage time.Duration
	for i := 0; i < len(list); i += exactChunk {
		chunk := list[i:min(i+exactChunk, len(list))]
		if i > 0 && time.Now().Add(perMessage*time.Duration(len(chunk))).After(deadline) {
			res.unmeasured = list[i:]
			break
		}
		prog.step("messages %d–%d of %d", i+1, i+len(chunk), len(list))
		start := time.Now()
		for side, sp := range ps.sides() {
			sel, ok := sp.only(chunk)
			if !ok {
				continue
			}
			ss, err := sp.prog.Sizes(ctx, benchprog.SizesFlags{Selection: sel})
			if err != nil {
				return res, "", sp.wrap(err)
			}
			for j := range ss {
				k := ss[j].Message + "/" + ss[j].Format
				pair := res.pairs[k]
				pair[sideIndex(ps, side)] = &ss[j]
				res.pairs[k] = pair
			}
		}
		if err := g.sizeCarried(ctx, ps, p, chunk, res.carried); err != nil {
			return res, "", err
		}
		perMessage = time.Since(start) / time.Duration(len(chunk))
	}
	note := ""
	if n := len(res.unmeasured); n > 0 {
		note = fmt.Sprintf("to fit the time budget: %d of %d messages not measured", n, len(list))
	}
	return res, note, nil
}

// sideIndex is 0 for the base program, 1 for head's.
func sideIndex(ps programs, i int) int {
	if ps.base == nil {
		return 1
	}
	return i
}

// sizeCarried sizes head's records of chunk's messages that hold new
// content without it: head's bytes less these are what the new and
// regenerated fields cost, in each format.
func (g *run) sizeCarried(ctx context.Context, ps programs, p pools, chunk []string, into map[string]*benchprog.Size) error {
	var ms []string
	for _, m := range chunk {
		for _, n := range p.newContent {
			if m == n {
				ms = append(ms, m)
			}
		}
	}
	if len(ms) == 0 || ps.head == nil {
		return nil
	}
	sel, _ := ps.head.only(ms)
	sel.Records = p.carried
	ss, err := ps.head.prog.Sizes(ctx, benchprog.SizesFlags{Selection: sel})
	if err != nil {
		return ps.head.wrap(fmt.Errorf("records without new content: %w", err))
	}
	for j := range ss {
		into[ss[j].Message+"/"+ss[j].Format] = &ss[j]
	}
	return nil
}

// recordSizes puts the exact stage's sizes in the report, with the plan's
// cut and the records' notes.
func (g *run) recordSizes(s sizes, p pools) {
	if len(s.unmeasured) > 0 {
		g.r.Plan.Exact = &report.ExactPlan{Unmeasured: s.unmeasured,
			Note: fmt.Sprintf("to fit the time budget: %d messages not measured", len(s.unmeasured))}
	}
	aliasing := map[string]bool{}
	if fs, err := codec.Parse(strings.Join(g.s.Formats, ",")); err == nil {
		for _, f := range fs {
			aliasing[f.Name] = f.Aliasing
		}
	}
	for k, pair := range s.pairs {
		head := pair[1]
		if head == nil {
			continue
		}
		msg, format, _ := strings.Cut(k, "/")
		f := g.r.Format(msg, format)
		f.Aliasing = aliasing[format]
		f.Size = &report.Size{Head: head.BytesMean, VsJSON: head.VsJSON}
		if base := pair[0]; base != nil {
			f.Size.Base = base.BytesMean
			f.Size.DeltaPct = compare.DeltaPct(base.BytesMean, head.BytesMean)
		}
		if c := s.carried[k]; c != nil && c.BytesMean != head.BytesMean {
			d := head.BytesMean - c.BytesMean
			f.Size.NewContent = &d
		}
	}
	for name, notes := range p.notes {
		if g.r.HasMessage(name) {
			g.r.Message(name).Records = notes
		}
	}
}

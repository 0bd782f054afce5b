package gate

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/wiregate/wiregate/harness/parent/budget"
	"github.com/wiregate/wiregate/harness/program/benchprog"
)

// exactChunk is the most messages one bench program process sizes: small
// enough that the budget is asked often and a 1,300-message module is
// never one process, large enough that starting processes costs little.
const exactChunk = 32

// sizes are the exact stage's results: the correctness gate (every codec
// round-trips every record, inside the program's sizes) and bytes per
// message, per side.
type sizes struct {
	pairs map[string][2]*benchprog.Size // "message/format" → base, head (its same content)
	// added are head's sizes on its records whole, with the content head
	// adds (pools.withAdded), by "message/format".
	added map[string]*benchprog.Size
	// unmeasured are the messages the budget left no time for.
	unmeasured []string
	// seconds is what sizing each message took on one side: its part of
	// its chunk's wall time.
	seconds map[string]float64
	// saved are each side's directory (base, head) of the sized cases'
	// records, which the count processes and the bench rounds load instead
	// of building them again (benchprog.Selection.Saved), and head's
	// records whole (added: what its added-content loops count); root holds
	// all three.
	saved      [2]string
	savedAdded string
	root       string
}

// remove deletes the saved records.
func (s sizes) remove() {
	if s.root != "" {
		os.RemoveAll(s.root)
	}
}

// fitted is list less what the budget cut here.
func (s sizes) fitted(list []string) []string { return without(list, s.unmeasured) }

// measureSizes sizes list on both sides, a chunk of messages per process,
// up to workers chunks at once, while the budget lets a chunk start (the
// first chunk of each worker always starts: the exact figures are the
// verdict's core): nothing is cut here before the timing stages are, so
// this stage may run until the deadline.
func (g *run) measureSizes(ctx context.Context, ps programs, p pools, list []string) (sizes, string, error) {
	res := sizes{pairs: map[string][2]*benchprog.Size{}, added: map[string]*benchprog.Size{}, seconds: map[string]float64{}}
	root, err := os.MkdirTemp(g.tmpDir(), "wiregate-saved-")
	if err != nil {
		return res, "", fmt.Errorf("sizes: %w", err)
	}
	res.root, res.saved, res.savedAdded = root, [2]string{filepath.Join(root, "base"), filepath.Join(root, "head")}, filepath.Join(root, "added")
	prog := newProgress(g.o.Log, "sizes", progressEvery)
	defer prog.stop()
	chunks := chunked(list, exactChunk, g.s.Workers)
	var mu sync.Mutex
	done := 0
	started, err := pool(ctx, lanes{Workers: g.s.Workers}, g.budget.Meter(g.budget.Deadline()), g.s.Workers, chunks,
		func(c []string) time.Duration { return budget.SizePrice * time.Duration(len(c)) },
		func(ctx context.Context, chunk []string) error {
			start := g.budget.Now()
			found := map[string][2]*benchprog.Size{}
			ran := 0
			for side, sp := range ps.sides() {
				sel, ok := sp.only(chunk)
				if !ok {
					continue
				}
				ran++
				ss, err := sp.prog.Sizes(ctx, benchprog.SizesFlags{Selection: sel, Batching: g.batching(), Save: res.saved[sideIndex(ps, side)]})
				if err != nil {
					return sp.wrap(err)
				}
				for j := range ss {
					k := ss[j].Message + "/" + ss[j].Format
					pair := found[k]
					pair[sideIndex(ps, side)] = &ss[j]
					found[k] = pair
				}
			}
			added, err := g.sizeAdded(ctx, ps, p, chunk, res.savedAdded)
			if err != nil {
				return err
			}
			mu.Lock()
			defer mu.Unlock()
			maps.Copy(res.pairs, found)
			maps.Copy(res.added, added)
			for _, m := range chunk {
				res.seconds[m] = g.budget.Now().Sub(start).Seconds() / float64(len(chunk)*max(ran, 1))
			}
			done += len(chunk)
			prog.step("%d of %d messages", done, len(list))
			return nil
		})
	for _, c := range chunks[started:] {
		res.unmeasured = append(res.unmeasured, c...)
	}
	if err != nil {
		return res, "", err
	}
	note := fmt.Sprintf("%s on %s", plural(len(list)-len(res.unmeasured), "message"), plural(g.s.Workers, "worker"))
	if n := len(res.unmeasured); n > 0 {
		note += fmt.Sprintf("; to fit the time budget: %d of %d messages not measured", n, len(list))
	}
	return res, note, nil
}

// chunked splits list into chunks of at most size, and into at least
// workers chunks where it has that many messages, so every worker has one.
func chunked(list []string, size, workers int) [][]string {
	if n := (len(list) + workers - 1) / max(workers, 1); n < size {
		size = max(n, 1)
	}
	var out [][]string
	for i := 0; i < len(list); i += size {
		out = append(out, list[i:min(i+size, len(list))])
	}
	return out
}

// sizeAdded sizes head's records whole of chunk's messages that hold
// added content (and checks them, and saves them in save for the count
// processes): these against head's same content are what the added
// content costs when filled, in each format.
func (g *run) sizeAdded(ctx context.Context, ps programs, p pools, chunk []string, save string) (map[string]*benchprog.Size, error) {
	var ms []string
	for _, m := range chunk {
		if slices.Contains(p.withAdded, m) {
			ms = append(ms, m)
		}
	}
	if len(ms) == 0 || ps.head == nil {
		return nil, nil
	}
	sel, _ := ps.head.only(ms)
	sel.Records = p.added
	ss, err := ps.head.prog.Sizes(ctx, benchprog.SizesFlags{Selection: sel, Batching: g.batching(), Save: save})
	if err != nil {
		return nil, ps.head.wrap(fmt.Errorf("records with their added content: %w", err))
	}
	out := map[string]*benchprog.Size{}
	for j := range ss {
		out[ss[j].Message+"/"+ss[j].Format] = &ss[j]
	}
	return out, nil
}

// of is one side's (0 base, 1 head) sizes of messages.
func (s sizes) of(side int, messages []string) []benchprog.Size {
	var out []benchprog.Size
	for _, pair := range s.pairs {
		if pair[side] != nil && slices.Contains(messages, pair[side].Message) {
			out = append(out, *pair[side])
		}
	}
	return out
}

// rows is one side's (0 base, 1 head) sizes of message in formats (every
// format when nil), in formats' order.
func (s sizes) rows(side int, message string, formats []string) []benchprog.Size {
	var out []benchprog.Size
	if formats == nil {
		return s.of(side, []string{message})
	}
	for _, f := range formats {
		if r := s.pairs[message+"/"+f][side]; r != nil { // else a format that does not measure it (codec.Format.Measures)
			out = append(out, *r)
		}
	}
	return out
}

// addedRows are head's sizes of message's records with their added
// content in formats, in formats' order; none when they hold none.
func (s sizes) addedRows(message string, formats []string) []benchprog.Size {
	var out []benchprog.Size
	for _, f := range formats {
		if r := s.added[message+"/"+f]; r != nil {
			out = append(out, *r)
		}
	}
	return out
}

// withSaved is ps loading the records the sizes stage saved, each side its
// own: what the count processes and the bench rounds run on.
func (ps programs) withSaved(s sizes) programs {
	for i, p := range []**program{&ps.base, &ps.head} {
		if *p != nil {
			c := **p
			c.sel.Saved = s.saved[i]
			*p = &c
		}
	}
	return ps
}

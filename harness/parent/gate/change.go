package gate

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/wiregate/wiregate/harness/parent/bufcheck"
	"github.com/wiregate/wiregate/harness/parent/prepare"
	"github.com/wiregate/wiregate/harness/parent/report"
	"github.com/wiregate/wiregate/harness/program/avroschema"
)

// schemas are both sides' schemas, loaded (buf build, no code generated
// yet), and the change set between them: the first thing the gate knows
// after the schema checks, and what every later stage is planned from.
type schemas struct {
	base, head *prepare.Schema // base is nil when the base has no buf input yet: every message is new
	baseAvro   []string        // each side's .avsc files, absolute
	headAvro   []string
	// baseSet and headSet are each side's .avsc files read as one set.
	baseSet, headSet *avroschema.Set
	// baseFirst and headFirst are each side's Avro-first records, which
	// the sides' schemas hold as synthesized messages.
	baseFirst, headFirst *avroFirst
	// noAvro are head's proto messages whose own .avsc disagrees with
	// them (mismatches has the findings): not measured in Avro.
	noAvro     []string
	mismatches []report.Finding
	change     report.Change
	status     map[string]string // head's messages by status (report.Status*)
	// prints are head's schema prints (schemaPrint) by message: what
	// history keys carried figures on.
	prints map[string]string
}

func (s *schemas) close() {
	if s == nil {
		return
	}
	for _, x := range []*prepare.Schema{s.base, s.head} {
		if x != nil {
			x.Close()
		}
	}
}

// order is head's messages to measure, in priority order: changed, then
// new, then unchanged (measured only with measure: all, or when history
// cannot carry them). keep says which to take.
func (s *schemas) order(keep func(name, status string) bool) []string {
	var out []string
	for _, st := range []string{report.StatusChanged, report.StatusNew, report.StatusUnchanged} {
		for _, m := range s.head.Messages {
			if s.status[m] == st && keep(m, st) {
				out = append(out, m)
			}
		}
	}
	return out
}

// loadSchemas loads head (the messages asked for, or every top-level one)
// and the base (those of them it declares, or all of its own to find the
// removed ones), and sorts head's messages by change: a message whose
// schema print is the same on both sides is unchanged.
func (g *run) loadSchemas(ctx context.Context) (*schemas, string, error) {
	opts := func(s *side, c bufcheck.Config) (prepare.Options, error) {
		built, err := buildConfig(c)
		return prepare.Options{BufInput: s.bufInput(g.s.BufInput), BufConfig: built, Buf: g.tools.buf, Messages: g.s.Messages,
			Formats: g.s.Formats, HarnessDir: g.tools.harness, CacheDir: g.o.CacheDir}, err
	}
	sch := &schemas{status: map[string]string{}, prints: map[string]string{},
		change: report.Change{Measure: g.s.Measure, Changed: []string{}, New: []string{}, Removed: []string{}, Unchanged: []string{}}}
	var err error
	if sch.baseAvro, err = g.base.avro(g.s.AvroSchemas); err != nil {
		return nil, "", fmt.Errorf("base: %w", err)
	}
	if sch.headAvro, err = g.head.avro(g.s.AvroSchemas); err != nil {
		return nil, "", fmt.Errorf("head: %w", err)
	}
	if sch.baseSet, err = avroschema.ReadSet(g.base.dir, sch.baseAvro); err != nil {
		return nil, "", fmt.Errorf("base: %w", err)
	}
	if sch.headSet, err = avroschema.ReadSet(g.head.dir, sch.headAvro); err != nil {
		return nil, "", fmt.Errorf("head: %w", err)
	}
	ref := reference(sch.baseSet)
	sch.baseFirst = &avroFirst{root: g.base.dir, set: sch.baseSet, noBuf: !g.tools.bufs.base.Found()}
	sch.headFirst = &avroFirst{root: g.head.dir, set: sch.headSet, noBuf: !g.tools.bufs.head.Found(), ref: ref}
	// Both sides at once: each is mostly a buf build.
	var baseErr error
	var wg sync.WaitGroup
	_, statErr := os.Stat(g.base.bufInput(g.s.BufInput))
	if statErr == nil && (!sch.baseFirst.noBuf || len(ref.GetFile()) > 0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			o, err := opts(g.base, g.tools.bufs.base)
			o.SkipMissing, o.Extra = true, sch.baseFirst
			if err == nil {
				sch.base, err = prepare.Load(ctx, o)
			}
			if err != nil {
				baseErr = fmt.Errorf("base: %w", err)
			}
		}()
	}
	o, err := opts(g.head, g.tools.bufs.head)
	o.Extra = sch.headFirst
	if err == nil {
		sch.head, err = prepare.Load(ctx, o)
	}
	if err != nil {
		err = fmt.Errorf("head: %w", err)
	}
	wg.Wait()
	if err = cmp.Or(err, baseErr); err != nil {
		sch.close()
		return nil, "", err
	}
	for _, m := range sch.head.Messages {
		h := schemaPrint(sch.head, m, sch.headSet, g.s.Samples)
		sch.prints[m] = h
		st := report.StatusNew
		if sch.base != nil && slices.Contains(sch.base.Messages, m) {
			st = report.StatusChanged
			if b := schemaPrint(sch.base, m, sch.baseSet, g.s.Samples); b != "" && b == h {
				st = report.StatusUnchanged
			}
		}
		sch.status[m] = st
		switch st {
		case report.StatusChanged:
			sch.change.Changed = append(sch.change.Changed, m)
		case report.StatusNew:
			sch.change.New = append(sch.change.New, m)
		default:
			sch.change.Unchanged = append(sch.change.Unchanged, m)
		}
	}
	if sch.base != nil && len(g.s.Messages) == 0 {
		for _, m := range sch.base.Messages {
			if !slices.Contains(sch.head.Messages, m) {
				sch.change.Removed = append(sch.change.Removed, m)
			}
		}
	}
	for _, l := range [][]string{sch.change.Changed, sch.change.New, sch.change.Removed, sch.change.Unchanged} {
		sort.Strings(l)
	}
	if g.asksAvro() {
		sch.noAvro, sch.mismatches = disagreements(sch.head, sch.headSet)
	}
	if sch.change.Groups, err = groups(sch.change.Changed, sch.base, sch.head, sch.headFirst.names, sch.baseFirst.names); err != nil {
		sch.close()
		return nil, "", err
	}
	c := sch.change
	sch.change.NoSchemaChanged = len(c.Changed)+len(c.New)+len(c.Removed) == 0
	var parts []string
	for _, n := range []struct {
		what string
		list []string
	}{{"changed", c.Changed}, {"new", c.New}, {"removed", c.Removed}, {"unchanged", c.Unchanged}} {
		if len(n.list) > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", len(n.list), n.what))
		}
	}
	note := strings.Join(parts, ", ")
	if sch.base == nil {
		note += fmt.Sprintf(" (the base has no %s: every message is new)", g.s.BufInput)
	}
	return sch, note, nil
}

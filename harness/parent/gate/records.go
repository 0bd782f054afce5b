package gate

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/dynamicpb"

	"github.com/wiregate/wiregate/harness/parent/report"
	"github.com/wiregate/wiregate/harness/program/avroschema"
	"github.com/wiregate/wiregate/harness/program/record"
)

// pools are the record pools the parent wrote for the changed messages,
// so both sides measure the same logical records: the base's generated
// records, and the same records carried to head's schema by field number
// (record.Pair); or the user's samples, read under each side's schema
// (record.Split). A message without a pool is generated (or read from its
// samples) by each program itself: a new one has no base to pair with,
// and an unchanged one measures the same records on both sides from the
// same schema.
type pools struct {
	// base, head and added are directories of <message>.binpb pools:
	// the base's records; head's same content (its records without what
	// head adds: the regression gate's records, which every gated stage
	// measures); and head's records whole, for the messages with added
	// content (what the added content costs when filled). Empty when no
	// message has a pool.
	base, head, added string
	// notes say, per measured message, where its records came from and
	// what head's hold that the base's did not.
	notes map[string]*report.Records
	// withAdded are the pooled messages whose head records hold added
	// content: their added pool is sized and counted too.
	withAdded []string
	// unpaired are the messages the budget left no time to pair: not
	// measured.
	unpaired []string
	dir      string // the pools' root, removed by remove
}

func (p pools) remove() {
	if p.dir != "" {
		os.RemoveAll(p.dir)
	}
}

// pairRecords writes the pools of the changed messages (both sides) and
// says, for every measured message, where its records come from. Pairing
// is in the parent because only the parent has both sides' schemas; the
// programs read the pools before any samples.
func (g *run) pairRecords(ctx context.Context, sch *schemas, ps programs) (pools, string, error) {
	p := pools{notes: map[string]*report.Records{}}
	var pooled []string
	withSamples := map[string]bool{}
	for _, m := range ps.head.sel.Messages {
		samples := g.hasSamples(m)
		pooledHere := sch.status[m] != report.StatusNew && sch.status[m] != report.StatusUnchanged
		// A pooled message's samples are read strictly under head's
		// schema by split: that is their check.
		if samples && !pooledHere {
			if err := checkSamples(sch, m, g.s.Samples); err != nil {
				return p, "", err
			}
		}
		switch {
		case sch.status[m] == report.StatusNew:
			p.notes[m] = &report.Records{Source: fmt.Sprintf("%d records generated from head's schema (a new message: nothing to pair with)", record.PoolSize)}
		case samples && sch.status[m] == report.StatusUnchanged:
			p.notes[m] = samplesRecords(g.s.Samples, m)
		case sch.status[m] == report.StatusUnchanged:
			p.notes[m] = &report.Records{Source: fmt.Sprintf("%d records generated from the schema, the same on both sides", record.PoolSize)}
		default:
			pooled = append(pooled, m)
			withSamples[m] = samples
		}
	}
	if len(pooled) == 0 {
		return p, "", nil
	}
	root, err := os.MkdirTemp(g.tmpDir(), "wiregate-records-")
	if err != nil {
		return p, "", err
	}
	p.dir, p.base, p.head, p.added = root, filepath.Join(root, "base"), filepath.Join(root, "head"), filepath.Join(root, "added")
	for _, d := range []string{p.base, p.head, p.added} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return p, "", err
		}
	}
	prog := newProgress(g.o.Log, "records", progressEvery)
	defer prog.stop()
	var mu sync.Mutex
	done := 0
	started, err := pool(ctx, lanes{Workers: g.s.Workers}, g.budget.Meter(g.budget.Deadline()), g.s.Workers, pooled,
		func(string) time.Duration { return pairPrice },
		func(ctx context.Context, m string) error {
			notes, added, err := g.split(sch, m, withSamples[m], p)
			if err != nil {
				return fmt.Errorf("%s: %w", m, err)
			}
			mu.Lock()
			defer mu.Unlock()
			p.notes[m] = notes
			if added {
				p.withAdded = append(p.withAdded, m)
			}
			done++
			prog.step("%d of %d messages", done, len(pooled))
			return nil
		})
	p.unpaired = pooled[started:]
	slices.Sort(p.withAdded)
	if err != nil {
		return p, "", err
	}
	note := fmt.Sprintf("%s pooled (the base's records carried to head by field number, or the samples read on each side), %d of them with added content",
		plural(started, "message"), len(p.withAdded))
	if len(p.unpaired) > 0 {
		note += fmt.Sprintf("; to fit the time budget: %d of %d messages not paired", len(p.unpaired), len(pooled))
	}
	return p, note, nil
}

// samplesRecords is the records note of a message measured on the user's
// samples as given.
func samplesRecords(dir, message string) *report.Records {
	return &report.Records{Source: "the samples file " + filepath.Base(record.SamplesFile(dir, protoreflect.FullName(message))) + ", the same on both sides", FromSamples: true}
}

// pairPrice is what the meter prices pairing one message at before the
// first is done (353 messages near the 8 KiB cap took 0.3 s each).
const pairPrice = 300 * time.Millisecond

// split writes message's three pools: the base's records, head's same
// content and head's records whole; added says whether they hold added
// content (record.Notes.Added; else the added pool is not written).
// Without samples the base's records are generated and carried to head
// (record.Pair); with them, each side reads the samples under its own
// schema (head's strictly first: what checkSamples is for the messages
// not pooled; the base dropping what it lacks) and head's are split
// (record.Split).
func (g *run) split(sch *schemas, message string, samples bool, p pools) (notes *report.Records, added bool, err error) {
	baseMD, err := sch.base.Message(message)
	if err != nil {
		return nil, false, err
	}
	headMD, err := sch.head.Message(message)
	if err != nil {
		return nil, false, err
	}
	var base, same, whole []proto.Message
	var n record.Notes
	if samples {
		notes = samplesRecords(g.s.Samples, message)
		if whole, _, err = record.LoadSamples(g.s.Samples, dynamicpb.NewMessageType(headMD), false); err != nil {
			return nil, false, err
		}
		if base, _, err = record.LoadSamples(g.s.Samples, dynamicpb.NewMessageType(baseMD), true); err != nil {
			return nil, false, err
		}
		if same, n, err = record.Split(whole, baseMD); err != nil {
			return nil, false, err
		}
	} else {
		base = record.Generate(dynamicpb.NewMessageType(baseMD), record.PoolSize, record.Seed)
		pr, err := record.Pair(base, dynamicpb.NewMessageType(headMD))
		if err != nil {
			return nil, false, err
		}
		same, whole, n = pr.Same, pr.Records, pr.Notes
		notes = &report.Records{Source: fmt.Sprintf("paired: the base's %d generated records, carried to head's schema by field number", len(base))}
	}
	added = n.Added
	pools := map[string][]proto.Message{p.base: base, p.head: same}
	if added {
		pools[p.added] = whole
	}
	for dir, recs := range pools {
		if err := record.WritePool(record.PoolFile(dir, protoreflect.FullName(message)), recs); err != nil {
			return nil, false, err
		}
	}
	notes.NewFields, notes.Regenerated, notes.NewOneofMembers = reportNotes(n.NewFields), reportNotes(n.Regenerated), reportNotes(n.NewOneofMembers)
	notes.Renamed, notes.Removed = reportNotes(n.Renamed), reportNotes(n.Removed)
	_, baseAvro := sch.baseSet.Record(message)
	_, headAvro := sch.headSet.Record(message)
	notes.OnlyAdded = n.OnlyAdded && avroschema.OnlyAdds(baseAvro, headAvro)
	return notes, added, nil
}

func reportNotes(ns []record.FieldNote) []report.FieldNote {
	out := make([]report.FieldNote, len(ns))
	for i, n := range ns {
		out[i] = report.FieldNote(n)
	}
	return slices.Clip(out)
}

// hasSamples says whether the user's samples hold message: then each side
// measures them as given.
func (g *run) hasSamples(message string) bool {
	if g.s.Samples == "" {
		return false
	}
	_, err := os.Stat(record.SamplesFile(g.s.Samples, protoreflect.FullName(message)))
	return !errors.Is(err, fs.ErrNotExist)
}

// checkSamples reads message's samples strictly against head's schema:
// the programs drop a field their side lacks (so the base can measure
// samples of a field head adds), and only here (or, for a pooled message,
// in split, which reads them so) is a misspelt one caught.
func checkSamples(sch *schemas, message, dir string) error {
	if sch.head == nil {
		return nil // no schema to read them against: the program's reading stands
	}
	md, err := sch.head.Message(message)
	if err != nil {
		return err
	}
	_, _, err = record.LoadSamples(dir, dynamicpb.NewMessageType(md), false)
	return err
}

// with points each program at its side's pools.
func (ps programs) with(p pools) programs {
	if ps.base != nil {
		b := *ps.base
		b.sel.Records = p.base
		ps.base = &b
	}
	if ps.head != nil {
		h := *ps.head
		h.sel.Records = p.head
		ps.head = &h
	}
	return ps
}

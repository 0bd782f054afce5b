package gate

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"slices"
	"sort"
	"strings"
	"sync"

	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/wiregate/wiregate/harness/parent/prepare"
	"github.com/wiregate/wiregate/harness/parent/report"
	"github.com/wiregate/wiregate/harness/program/avroschema"
	"github.com/wiregate/wiregate/harness/program/codec"
	"github.com/wiregate/wiregate/harness/program/record"
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
	opts := func(s *side) prepare.Options {
		return prepare.Options{BufInput: s.bufInput(g.s.BufInput), Buf: g.tools.buf, Messages: g.s.Messages, Formats: g.s.Formats,
			HarnessDir: g.o.HarnessDir, CacheDir: g.o.CacheDir}
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
	sch.baseFirst = &avroFirst{root: g.base.dir, set: sch.baseSet, noBuf: !hasBufModule(g.base.bufInput(g.s.BufInput))}
	sch.headFirst = &avroFirst{root: g.head.dir, set: sch.headSet, noBuf: !hasBufModule(g.head.bufInput(g.s.BufInput)), ref: ref}
	// Both sides at once: each is mostly a buf build.
	var baseErr error
	var wg sync.WaitGroup
	_, statErr := os.Stat(g.base.bufInput(g.s.BufInput))
	if statErr == nil && (!sch.baseFirst.noBuf || len(ref.GetFile()) > 0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			o := opts(g.base)
			o.SkipMissing, o.Extra = true, sch.baseFirst
			if sch.base, baseErr = prepare.Load(ctx, o); baseErr != nil {
				baseErr = fmt.Errorf("base: %w", baseErr)
			}
		}()
	}
	o := opts(g.head)
	o.Extra = sch.headFirst
	if sch.head, err = prepare.Load(ctx, o); err != nil {
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
	if sch.change.Groups, err = groups(sch); err != nil {
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

// schemaPrint hashes everything on one side that decides what the bench
// program does for message: its descriptor closure (prepare's
// fingerprint), the Avro schema it is measured with (self-contained: a
// named type another .avsc defines is part of it), and its samples file.
// "" when the side lacks it or a file cannot be read (then it counts as
// changed: measuring a message needlessly is safe, not measuring a real
// change is not).
func schemaPrint(s *prepare.Schema, message string, avsc *avroschema.Set, samples string) string {
	if s == nil || s.Fingerprints[message] == "" {
		return ""
	}
	h := sha256.New()
	fmt.Fprintf(h, "descriptors %s\n", s.Fingerprints[message])
	_, rec := avsc.Record(message)
	switch md, err := s.Message(message); {
	case rec == nil:
		fmt.Fprintf(h, "avro none\n")
	case err == nil && avroschema.IsSynthesized(md.ParentFile().Path()):
		// An Avro-first record: its Parsing Canonical Form, so a doc, an
		// alias or a default changes nothing that is measured.
		fmt.Fprintf(h, "avro canonical %s\n", rec.Canonical())
	default:
		fmt.Fprintf(h, "avro schema %s\n", rec.String())
	}
	if samples != "" && !content(h, "samples", record.SamplesFile(samples, protoreflect.FullName(message))) {
		return ""
	}
	return hex.EncodeToString(h.Sum(nil))
}

// content hashes a file's bytes under a label: "none" for no file (an
// empty path: the Avro schema is derived; a missing samples file: records
// are generated). False when the file exists but cannot be read.
func content(h io.Writer, label, path string) bool {
	if path == "" {
		fmt.Fprintf(h, "%s none\n", label)
		return true
	}
	b, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		fmt.Fprintf(h, "%s none\n", label)
		return true
	case err != nil:
		return false
	}
	fmt.Fprintf(h, "%s %d\n", label, len(b))
	h.Write(b)
	return true
}

// groups sorts the changed messages by cause: the parts of each one's
// closure (prepare.Schema.Parts) that differ between the sides. Groups of
// more messages come first, then by cause.
func groups(sch *schemas) ([]report.Group, error) {
	byCause := map[string]*report.Group{}
	var out []*report.Group
	for _, m := range sch.change.Changed {
		cause, err := causeOf(sch, m)
		if err != nil {
			return nil, err
		}
		key := strings.Join(cause, "\n")
		if byCause[key] == nil {
			byCause[key] = &report.Group{Cause: cause}
			out = append(out, byCause[key])
		}
		byCause[key].Messages = append(byCause[key].Messages, m)
	}
	slices.SortStableFunc(out, func(a, b *report.Group) int {
		return cmp.Or(cmp.Compare(len(b.Messages), len(a.Messages)), slices.Compare(a.Cause, b.Cause))
	})
	res := make([]report.Group, len(out))
	for i, g := range out {
		res[i] = *g
	}
	return res, nil
}

// causeOf is what in message's closure differs between base and head.
func causeOf(sch *schemas, message string) ([]string, error) {
	base, err := sch.base.Parts(message)
	if err != nil {
		return nil, err
	}
	head, err := sch.head.Parts(message)
	if err != nil {
		return nil, err
	}
	var cause []string
	name := func(k string) string { return causeName(k, sch.headFirst.names, sch.baseFirst.names) }
	for k := range maps.Keys(head) {
		if head[k] != base[k] {
			cause = append(cause, name(k))
		}
	}
	for k := range maps.Keys(base) {
		if _, ok := head[k]; !ok {
			cause = append(cause, name(k))
		}
	}
	cause = slices.DeleteFunc(cause, func(c string) bool { return c == "" })
	if len(cause) == 0 {
		cause = []string{message} // its Avro schema or samples changed
	}
	slices.Sort(cause)
	return slices.Compact(cause), nil
}

// causeName is a closure part's key as a cause reads: a synthesized
// message by the Avro named type it stands for (in either side's names).
func causeName(key string, names ...map[string]string) string {
	kind, name, _ := strings.Cut(key, " ")
	if kind == "file" {
		if avroschema.IsSynthesized(name) {
			return "" // the record's own file: its message says it
		}
		return name + " (file options)"
	}
	for _, n := range names {
		if avro, ok := n[name]; ok {
			return avro
		}
	}
	return name
}

// asksAvro says whether an Avro format is measured: only then does an
// .avsc that disagrees with its proto message matter to the gate.
func (g *run) asksAvro() bool {
	fs, err := codec.Parse(strings.Join(g.s.Formats, ","))
	return err == nil && slices.ContainsFunc(fs, func(f codec.Format) bool { return f.Avro })
}

// disagreements are head's proto messages whose own .avsc (the record of
// the same full name) disagrees with them, each a finding naming the file
// and the field: their Avro formats are not measured, every other format
// is, and the gate goes on.
func disagreements(head *prepare.Schema, avsc *avroschema.Set) (noAvro []string, findings []report.Finding) {
	for _, m := range head.Messages {
		md, err := head.Message(m)
		if err != nil || avroschema.IsSynthesized(md.ParentFile().Path()) {
			continue
		}
		file, rec := avsc.Record(m)
		if rec == nil {
			continue
		}
		why := avroschema.Disagreement(md, rec)
		if why == nil {
			continue
		}
		noAvro = append(noAvro, m)
		findings = append(findings, report.Finding{Kind: report.KindAvroMismatch, File: file,
			Message: fmt.Sprintf("record %s disagrees with its proto message: %v; make the .avsc agree (its Avro figures are not measured)", m, why)})
	}
	return noAvro, findings
}

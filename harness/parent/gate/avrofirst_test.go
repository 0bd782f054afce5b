package gate_test

import (
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/wiregate/wiregate/harness/parent/gate"
	"github.com/wiregate/wiregate/harness/parent/report"
)

// An Avro-only repository of this test's making: two records, each
// defining the Address they share, and no .proto or buf.yaml at all.
const (
	orderAvsc = `{"type": "record", "name": "Order", "namespace": "shop.v1", "fields": [
  {"name": "id", "type": "long"},
  {"name": "qty", "type": "int"},
  {"name": "price", "type": "double"},
  {"name": "note", "type": ["null", "string"], "default": null},
  {"name": "status", "type": {"type": "enum", "name": "Status", "symbols": ["NEW", "PAID"]}},
  {"name": "ship_to", "type": {"type": "record", "name": "Address", "fields": [{"name": "city", "type": "string"}, {"name": "zip", "type": "string"}]}},
  {"name": "tags", "type": {"type": "array", "items": "string"}},
  {"name": "attrs", "type": {"type": "map", "values": "long"}}
]}
`
	invoiceAvsc = `{"type": "record", "name": "Invoice", "namespace": "shop.v1", "fields": [
  {"name": "number", "type": "string"},
  {"name": "total", "type": "double"},
  {"name": "bill_to", "type": {"type": "record", "name": "Address", "fields": [{"name": "city", "type": "string"}, {"name": "zip", "type": "string"}]}}
]}
`
)

// avroRepo writes the two records into a fresh directory, each edited.
func avroRepo(t *testing.T, order, invoice string) string {
	t.Helper()
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "shop"), 0o755)
	os.WriteFile(filepath.Join(dir, "shop", "order.avsc"), []byte(order), 0o644)
	os.WriteFile(filepath.Join(dir, "shop", "invoice.avsc"), []byte(invoice), 0o644)
	return dir
}

// avroGate gates head against base, both Avro-only: the default formats,
// no counting or pipeline.
func avroGate(t *testing.T, base, head string, edit func(in map[string]string)) *report.Report {
	t.Helper()
	return run(t, base, head, func(in map[string]string, o *gate.Options) {
		in["working-directory"], in["messages"], in["cpu-cost"] = head, "", "off"
		if edit != nil {
			edit(in)
		}
	})
}

func sizeOf(t *testing.T, r *report.Report, message, format string) *report.Size {
	t.Helper()
	for _, m := range r.Messages {
		for _, f := range m.Formats {
			if m.Name == message && f.Format == format {
				return f.Size
			}
		}
	}
	t.Fatalf("no %s/%s in %+v", message, format, r.Messages)
	return nil
}

// A field added with a default grows Avro by exactly its own bytes on the
// same records (its protobuf bytes less the one-byte tag: Avro writes the
// same length and value), in json and avro only — nobody ships these
// records' protobuf; buf lint and breaking are skipped, not failed.
func TestAvroOnlyAddedFieldGrowsByExactlyItsBytes(t *testing.T) {
	base := avroRepo(t, orderAvsc, invoiceAvsc)
	head := avroRepo(t, strings.Replace(orderAvsc, `{"name": "price", "type": "double"},`,
		`{"name": "price", "type": "double"}, {"name": "channel", "type": "string", "default": "web"},`, 1), invoiceAvsc)
	r := avroGate(t, base, head, nil)
	if len(r.Errors) != 0 {
		t.Fatalf("errors %v", r.Errors)
	}
	for _, st := range r.Stages {
		if (st.Name == "buf lint" || st.Name == "buf breaking") && (st.Error != "" || !strings.HasPrefix(st.Note, "skipped: no buf.yaml")) {
			t.Errorf("%s: %+v", st.Name, st)
		}
	}
	if !slices.Equal(r.Change.Changed, []string{"shop.v1.Order"}) || !slices.Equal(r.Change.Unchanged, []string{"shop.v1.Invoice"}) {
		t.Fatalf("change %+v", r.Change)
	}
	m := r.Messages[0]
	var formats []string
	for _, f := range m.Formats {
		formats = append(formats, f.Format)
	}
	if slices.Sort(formats); !slices.Equal(formats, []string{"avro", "json"}) {
		t.Fatalf("formats %v, want avro and json", formats)
	}
	if m.Records == nil || len(m.Records.NewFields) != 1 || m.Records.NewFields[0].Field != "channel" {
		t.Fatalf("records %+v", m.Records)
	}
	// The same content (channel unset) writes its empty string: one byte
	// a record, the addition's unset cost. Filled, it adds its value:
	// protobuf's bytes less the tag and the length both formats write.
	avro := sizeOf(t, r, "shop.v1.Order", "avro")
	if got := avro.Head - avro.Base; got != 1 || !strings.Contains(avro.Unset, "`channel` is empty") {
		t.Fatalf("avro's same content grew %.4f B/msg (%q), want the empty string's one byte", got, avro.Unset)
	}
	want := *m.Records.NewFields[0].ProtobufBytes - 2
	if fig := addedFigure(m, "avro", report.AddedSize); fig == nil || math.Abs(fig.With-fig.Without-want) > 1e-9 {
		t.Fatalf("avro's added content %+v, the new field's value is %.4f", fig, want)
	}
	if len(r.Violations) != 0 {
		t.Fatalf("an addition failed at the defaults: %+v", r.Violations)
	}
}

// A field renamed with an alias keeps its values and every Avro byte
// (Avro resolves it by the alias); JSON's key changes, so JSON moves.
func TestAvroOnlyAliasRenameMovesNoAvroByte(t *testing.T) {
	base := avroRepo(t, orderAvsc, invoiceAvsc)
	head := avroRepo(t, strings.Replace(orderAvsc, `{"name": "qty", "type": "int"}`, `{"name": "quantity", "aliases": ["qty"], "type": "int"}`, 1), invoiceAvsc)
	r := avroGate(t, base, head, nil)
	if avro := sizeOf(t, r, "shop.v1.Order", "avro"); avro.Base != avro.Head {
		t.Fatalf("avro moved: %+v", avro)
	}
	if json := sizeOf(t, r, "shop.v1.Order", "json"); json.Head-json.Base <= 0 {
		t.Fatalf("json's longer key moved nothing: %+v", json)
	}
	if rec := r.Messages[0].Records; rec == nil || len(rec.Renamed) != 1 || rec.Renamed[0].From != "qty" || len(rec.NewFields) != 0 {
		t.Fatalf("records %+v", rec)
	}
}

// A change to a named type several records use marks each of them
// changed, one group under the type's own name.
func TestAvroOnlySharedTypeChangeChangesEveryRecordThatUsesIt(t *testing.T) {
	base := avroRepo(t, orderAvsc, invoiceAvsc)
	grow := func(s string) string {
		return strings.Replace(s, `{"name": "zip", "type": "string"}]`, `{"name": "zip", "type": "string"}, {"name": "country", "type": "string", "default": "NL"}]`, 1)
	}
	head := avroRepo(t, grow(orderAvsc), grow(invoiceAvsc))
	r := avroGate(t, base, head, nil)
	if !slices.Equal(r.Change.Changed, []string{"shop.v1.Invoice", "shop.v1.Order"}) {
		t.Fatalf("changed %v", r.Change.Changed)
	}
	if len(r.Change.Groups) != 1 || !slices.Equal(r.Change.Groups[0].Cause, []string{"shop.v1.Address"}) || len(r.Change.Groups[0].Messages) != 2 {
		t.Fatalf("groups %+v", r.Change.Groups)
	}
}

// Samples of an Avro-first record are plain JSON lines (keys = field
// names, as the json format writes them; not Avro's JSON encoding, which
// wraps union values): both sides measure them as given.
func TestAvroOnlySamples(t *testing.T) {
	base := avroRepo(t, orderAvsc, invoiceAvsc)
	head := avroRepo(t, strings.Replace(orderAvsc, `{"name": "price", "type": "double"},`, `{"name": "price", "type": "double"}, {"name": "channel", "type": "string", "default": "web"},`, 1), invoiceAvsc)
	samples := t.TempDir()
	lines := `{"id": 1, "qty": 2, "price": 9.5, "note": "gift", "status": "PAID", "ship_to": {"city": "Delft", "zip": "2611"}, "tags": ["a"], "attrs": {"x": 3}}
{"id": 2, "qty": 1, "price": 1.25, "status": "NEW", "ship_to": {"city": "Gouda", "zip": "2801"}, "tags": [], "attrs": {}}
`
	os.WriteFile(filepath.Join(samples, "shop.v1.Order.jsonl"), []byte(lines), 0o644)
	r := avroGate(t, base, head, func(in map[string]string) { in["samples"] = samples })
	if len(r.Errors) != 0 {
		t.Fatalf("errors %v", r.Errors)
	}
	if rec := r.Messages[0].Records; rec == nil || !strings.Contains(rec.Source, "samples file shop.v1.Order.jsonl") {
		t.Fatalf("records %+v", rec)
	}
	// The same samples on both sides: head's Avro differs by the one byte
	// of the new field's empty string, which the samples do not set.
	if avro := sizeOf(t, r, "shop.v1.Order", "avro"); avro.Base == 0 || avro.Head-avro.Base != 1 {
		t.Fatalf("avro %+v", avro)
	}
}

// A proto field the message's own .avsc lacks is a finding naming the
// field, and the gate goes on: protobuf and json are measured, Avro is
// not, and the verdict is a failure (exit 1), not "could not run".
func TestAvscThatDisagreesWithItsProtoIsAFinding(t *testing.T) {
	base, head := checkouts(t)
	replaceIn(t, filepath.Join(head, telemetryProto), "string region = 12;", "string region = 12;\n  sint32 rssi = 13;")
	r := run(t, base, head, func(in map[string]string, o *gate.Options) { in["cpu-cost"] = "off" })
	if r.ExitCode != 1 || len(r.Errors) != 0 {
		t.Fatalf("exit %d, errors %v", r.ExitCode, r.Errors)
	}
	var found *report.Violation
	for i, v := range r.Violations {
		if v.Kind == report.KindAvroMismatch {
			found = &r.Violations[i]
		}
	}
	if found == nil || found.File != "schemas/telemetry/v1/telemetry_event.avsc" || !strings.Contains(found.Detail, "field `rssi` of the proto message is missing") {
		t.Fatalf("violations %+v", r.Violations)
	}
	var formats []string
	for _, f := range r.Messages[0].Formats {
		formats = append(formats, f.Format)
	}
	if slices.Sort(formats); !slices.Equal(formats, []string{"json", "protobuf"}) {
		t.Fatalf("measured %v, want json and protobuf", formats)
	}
}

// An Avro-first record travels in avro: pipeline-formats auto drains it in
// avro only (its json is sized, counted and timed, not drained), marks
// that format, and counts it piped.
func TestAvroFirstRecordsDrainInAvro(t *testing.T) {
	base := avroRepo(t, orderAvsc, invoiceAvsc)
	head := avroRepo(t, strings.Replace(orderAvsc, `{"name": "price", "type": "double"},`,
		`{"name": "price", "type": "double"}, {"name": "channel", "type": "string", "default": "web"},`, 1), invoiceAvsc)
	r := avroGate(t, base, head, func(in map[string]string) {
		in["pipeline"], in["broker"], in["pipeline-messages"], in["count"] = "true", "embedded", "2000", "3"
	})
	if len(r.Errors) != 0 || len(r.Pipeline) == 0 {
		t.Fatalf("errors %v, pipeline %+v", r.Errors, r.Pipeline)
	}
	for _, p := range r.Pipeline {
		if p.Format != "avro" {
			t.Errorf("%s drained in %s, want avro only", p.Message, p.Format)
		}
	}
	for _, m := range r.Messages {
		for _, f := range m.Formats {
			if f.Piped != (f.Format == "avro") {
				t.Errorf("%s/%s marked piped %v", m.Name, f.Format, f.Piped)
			}
		}
	}
	if r.Coverage == nil || r.Coverage.Changed == 0 || r.Coverage.Piped != r.Coverage.Changed {
		t.Errorf("coverage %+v: a record drained in avro is not piped", r.Coverage)
	}
}

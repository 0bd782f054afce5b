package gate_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/wiregate/wiregate/harness/parent/gate"
	"github.com/wiregate/wiregate/harness/parent/report"
)

// Paired records through the gate: base and head measure the same logical
// records (the base's, carried to head by field number), so an edit that
// does not touch the wire moves no exact figure.

// pairedRun gates telemetry (or orders) in json, protobuf and avro with
// the Avro schema derived on both sides (it follows the proto), counting
// instructions only when asked.
func pairedRun(t *testing.T, base, head, message string, counts bool) *report.Report {
	t.Helper()
	return run(t, base, head, func(in map[string]string, o *gate.Options) {
		// buf breaking rightly fails renames and retypes (FILE rules): only
		// what is measured matters here.
		in["messages"], in["avro-schemas"], in["breaking"] = message, "no-such-dir/*.avsc", "false"
		if !counts {
			in["cpu-cost"] = "off"
		}
	})
}

// sizesOf is each format's size entry of the report's only message.
func sizesOf(t *testing.T, r *report.Report) map[string]*report.Size {
	t.Helper()
	if len(r.Messages) != 1 || len(r.Errors) != 0 {
		t.Fatalf("messages %d, errors %v", len(r.Messages), r.Errors)
	}
	out := map[string]*report.Size{}
	for _, f := range r.Messages[0].Formats {
		out[f.Format] = f.Size
	}
	return out
}

// Renaming a field — even to a name whose generated values would look
// different — keeps every protobuf and Avro byte and their instruction
// counts within the noise floor; JSON grows by exactly the longer key,
// once per record.
func TestRenameMovesOnlyJSONKeys(t *testing.T) {
	counts := counting(t)
	base, head := checkouts(t)
	replaceIn(t, filepath.Join(head, telemetryProto), "string region = 12;", "string deployment_zone = 12;")
	r := pairedRun(t, base, head, "telemetry.v1.TelemetryEvent", counts)
	s := sizesOf(t, r)
	for _, f := range []string{"protobuf", "avro"} {
		if s[f].Base != s[f].Head {
			t.Errorf("%s: %.2f → %.2f B/msg after a rename", f, s[f].Base, s[f].Head)
		}
	}
	if d := s["json"].Head - s["json"].Base; d != float64(len("deployment_zone")-len("region")) {
		t.Errorf("json grew %.3f B/msg, want exactly the key's %d more bytes", d, len("deployment_zone")-len("region"))
	}
	if recs := r.Messages[0].Records; recs == nil || len(recs.Renamed) != 1 || recs.Renamed[0].From != "region" ||
		recs.Renamed[0].To != "deployment_zone" || len(recs.NewFields)+len(recs.Regenerated) != 0 {
		t.Errorf("records %+v", recs)
	}
	for _, v := range r.Violations {
		if !strings.Contains(v.Subject, "/json/") {
			t.Errorf("violation on a format the rename does not touch: %+v", v)
		}
	}
	for s, m := range instrs(r) {
		if !strings.Contains(s, "/json/") && m.Significant {
			t.Errorf("%s: %.1f → %.1f instr/op, past the noise floor", s, m.Base.Center, m.Head.Center)
		}
	}
}

// Widening varints, reordering declarations and editing comments change
// no byte in any format.
func TestWideningAndReorderingChangeNoByte(t *testing.T) {
	base, head := checkouts(t)
	proto := filepath.Join(head, telemetryProto)
	replaceIn(t, proto, "int32 battery_pct = 8;", "int64 battery_pct = 8;")
	replaceIn(t, proto, "// Degrees Celsius.\n  double temperature = 3;", "double temperature = 3; // in degrees Celsius")
	replaceIn(t, proto, "string device_id = 1;", "")
	replaceIn(t, proto, "string region = 12;", "string region = 12;\n  string device_id = 1;")
	r := pairedRun(t, base, head, "telemetry.v1.TelemetryEvent", false)
	if r.Messages[0].Status != "changed" {
		t.Fatalf("status %q", r.Messages[0].Status)
	}
	for f, s := range sizesOf(t, r) {
		if s.Base != s.Head || s.Unset != "" {
			t.Errorf("%s: %.2f → %.2f B/msg (unset %q)", f, s.Base, s.Head, s.Unset)
		}
	}
	if a := r.Messages[0].AddedContent; a != nil {
		t.Errorf("added content %+v where head adds no field", a)
	}
	if len(r.Violations) != 0 {
		t.Errorf("violations %+v", r.Violations)
	}
}

// A field added at the end: the same content (the field unset) keeps
// every protobuf byte, while Avro and JSON, which write every field, grow
// by what they write for an unset one and say so; the added content
// (head's records with rssi filled) grows protobuf by exactly the field's
// own bytes, and every format by something.
func TestAddedFieldIsTheAddedContentAndTheSameContentKeepsItsBytes(t *testing.T) {
	base, head := checkouts(t)
	addRSSI(t, head)
	r := pairedRun(t, base, head, "telemetry.v1.TelemetryEvent", false)
	s := sizesOf(t, r)
	recs := r.Messages[0].Records
	if recs == nil || len(recs.NewFields) != 1 || recs.NewFields[0].Field != "rssi" || recs.NewFields[0].Number != "13" || recs.NewFields[0].ProtobufBytes == nil {
		t.Fatalf("records %+v", recs)
	}
	if pb := s["protobuf"]; pb.Base != pb.Head || pb.Unset != "" {
		t.Errorf("protobuf same content %.3f → %.3f (unset %q): an unset field costs protobuf nothing", pb.Base, pb.Head, pb.Unset)
	}
	for _, f := range []string{"avro", "json"} {
		if x := s[f]; x.Head <= x.Base || !strings.Contains(x.Unset, f+" writes every field") || !strings.Contains(x.Unset, "`rssi` is empty") {
			t.Errorf("%s same content %.3f → %.3f, unset %q", f, x.Base, x.Head, x.Unset)
		}
	}
	a := r.Messages[0].AddedContent
	if a == nil || len(a.Formats) != 3 {
		t.Fatalf("added content %+v, want every format", a)
	}
	for _, af := range a.Formats {
		size := af.Figures[0]
		if size.Metric != report.AddedSize || size.With <= size.Without || size.Without != s[af.Format].Head {
			t.Errorf("%s added size %+v (same content %.3f)", af.Format, size, s[af.Format].Head)
		}
		if af.Format == "protobuf" && size.With-size.Without != *recs.NewFields[0].ProtobufBytes {
			t.Errorf("protobuf added %.3f B/msg, the field's bytes %.3f", size.With-size.Without, *recs.NewFields[0].ProtobufBytes)
		}
	}
}

// A member added to a oneof: no record changes the member it holds, so
// protobuf's bytes stay exactly as they were, and the report names the
// new member with what it would cost.
func TestNewOneofMemberIsNotDealtToExistingRecords(t *testing.T) {
	base, head := checkouts(t)
	const payment = `
  oneof payment {
    Card card = 8;
    BankTransfer bank_transfer = 9;
  }
}

message Card { string last4 = 1; string network = 2; }
message BankTransfer { string iban = 1; string reference = 2; }
`
	for _, dir := range []string{base, head} {
		replaceIn(t, filepath.Join(dir, "schemas/orders/v1/order.proto"), "map<string, string> meta = 7;\n}\n", "map<string, string> meta = 7;"+payment)
	}
	replaceIn(t, filepath.Join(head, "schemas/orders/v1/order.proto"), "BankTransfer bank_transfer = 9;", "BankTransfer bank_transfer = 9;\n    Voucher voucher = 10;")
	replaceIn(t, filepath.Join(head, "schemas/orders/v1/order.proto"), "message Card {", "message Voucher { string code = 1; }\nmessage Card {")
	r := pairedRun(t, base, head, "orders.v1.Order", false)
	s := sizesOf(t, r)
	if s["protobuf"].Base != s["protobuf"].Head {
		t.Errorf("protobuf %.2f → %.2f B/msg: existing records changed member", s["protobuf"].Base, s["protobuf"].Head)
	}
	recs := r.Messages[0].Records
	if recs == nil || len(recs.NewOneofMembers) != 1 || recs.NewOneofMembers[0].Field != "voucher" ||
		recs.NewOneofMembers[0].ProtobufBytes == nil || *recs.NewOneofMembers[0].ProtobufBytes <= 2 {
		t.Fatalf("records %+v", recs)
	}
}

// string → int64 on one field: that field gets fresh values (the report
// names it and its kinds), every other field keeps its values.
func TestIncompatibleKindRegeneratesThatFieldOnly(t *testing.T) {
	base, head := checkouts(t)
	replaceIn(t, filepath.Join(head, telemetryProto), "string firmware = 9;", "int64 firmware = 9;")
	r := pairedRun(t, base, head, "telemetry.v1.TelemetryEvent", false)
	recs := r.Messages[0].Records
	if recs == nil || len(recs.Regenerated) != 1 || recs.Regenerated[0].Field != "firmware" || recs.Regenerated[0].From != "string" ||
		recs.Regenerated[0].To != "int64" || len(recs.NewFields) != 0 {
		t.Fatalf("records %+v", recs)
	}
	// Fresh values replace existing information: changed content, judged
	// with the same content (the size delta is the base's and head's), and
	// nothing of it is added content.
	if pb := sizesOf(t, r)["protobuf"]; pb.Head == pb.Base {
		t.Errorf("protobuf same content %.3f → %.3f: the regenerated field's values are not in it", pb.Base, pb.Head)
	}
	if a := r.Messages[0].AddedContent; a != nil {
		t.Errorf("added content %+v for a regenerated field", a)
	}
}

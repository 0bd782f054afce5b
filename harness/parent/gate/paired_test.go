package gate_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/wiregate/wiregate/harness/parent/gate"
	"github.com/wiregate/wiregate/harness/parent/report"
)

// Issue 16 through the gate: base and head measure the same logical
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
		if s.Base != s.Head || s.NewContent != nil {
			t.Errorf("%s: %.2f → %.2f B/msg (new content %v)", f, s.Base, s.Head, s.NewContent)
		}
	}
	if len(r.Violations) != 0 {
		t.Errorf("violations %+v", r.Violations)
	}
}

// A field added at the end grows protobuf by exactly its own bytes: every
// other field keeps its value, and new_content says so in every format.
func TestAddedFieldGrowsByExactlyItsBytes(t *testing.T) {
	base, head := checkouts(t)
	addRSSI(t, head)
	r := pairedRun(t, base, head, "telemetry.v1.TelemetryEvent", false)
	s := sizesOf(t, r)
	recs := r.Messages[0].Records
	if recs == nil || len(recs.NewFields) != 1 || recs.NewFields[0].Field != "rssi" || recs.NewFields[0].Number != "13" || recs.NewFields[0].ProtobufBytes == nil {
		t.Fatalf("records %+v", recs)
	}
	pb := s["protobuf"]
	if pb.NewContent == nil || *pb.NewContent != pb.Head-pb.Base || *pb.NewContent != *recs.NewFields[0].ProtobufBytes {
		t.Errorf("protobuf %.3f → %.3f, new content %v, the field's bytes %v", pb.Base, pb.Head, pb.NewContent, *recs.NewFields[0].ProtobufBytes)
	}
	for f, x := range s {
		if x.NewContent == nil || *x.NewContent <= 0 || *x.NewContent > x.Head-x.Base {
			t.Errorf("%s: %.3f → %.3f, new content %v", f, x.Base, x.Head, x.NewContent)
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
	pb := sizesOf(t, r)["protobuf"]
	// Every other field is the same: the delta is the firmware field's old
	// bytes out and its new bytes in, which is exactly what new_content
	// less the carried records' loss of it says.
	if pb.NewContent == nil || *pb.NewContent != *recs.Regenerated[0].ProtobufBytes {
		t.Errorf("protobuf new content %v, the regenerated field's bytes %v", pb.NewContent, *recs.Regenerated[0].ProtobufBytes)
	}
}

package render

import (
	"regexp"
	"strings"
	"testing"

	"github.com/wiregate/wiregate/harness/parent/report"
)

// What head's records add, in words: a delta that comes from new content
// says which content; a regenerated field says its kinds; a new oneof
// member says what one would cost; a rename is one quiet line.

// withRecords is the fail fixture with TelemetryEvent's records and each
// format's new content set.
func withRecords(t *testing.T, records report.Records, newContent map[string]float64) *report.Report {
	r := fixture(t, "fail")
	for i := range r.Messages {
		m := &r.Messages[i]
		if m.Name != telemetry {
			continue
		}
		m.Status = report.StatusChanged
		records.Source = "paired: the base's 256 generated records carried to head by field number"
		m.Records = &records
		for j := range m.Formats {
			f := &m.Formats[j]
			f.Size.NewContent = nil // the fixture's own, from a real run
			if v, ok := newContent[f.Format]; ok {
				f.Size.NewContent = f64(v)
			}
		}
	}
	return reparse(t, r)
}

// headOf is the message's part of the report, heading to the table.
func headOf(out string) string {
	return strings.Split(strings.SplitN(out, "\n### `"+telemetry+"`\n", 2)[1], "\n| format |")[0]
}

func TestADeltaFromANewFieldSaysSo(t *testing.T) {
	out := headOf(Report(withRecords(t, report.Records{NewFields: []report.FieldNote{{Field: "notes", Number: "12", ProtobufBytes: f64(12)}}},
		map[string]float64{"protobuf": 12, "json": 25, "avro": 11}), Context{}))
	// The other formats follow in the report's order.
	mustMatch(t, out, "\n📦 \\+12\\.0 B/msg from new field `notes` \\(protobuf; (avro \\+11\\.0, json \\+25\\.0|json \\+25\\.0, avro \\+11\\.0)\\)\\.\n")
	mustContain(t, out, "\n<sub>Records: paired: the base's 256 generated records carried to head by field number.</sub>\n")
}

func TestSeveralFieldsEachSayTheirBytesARegeneratedOneItsKinds(t *testing.T) {
	out := headOf(Report(withRecords(t, report.Records{
		NewFields:   []report.FieldNote{{Field: "lines.notes", Number: "3.12", ProtobufBytes: f64(9.5)}},
		Regenerated: []report.FieldNote{{Field: "amount", Number: "4", From: "string", To: "int64", ProtobufBytes: f64(-2.5)}},
	}, map[string]float64{"protobuf": 7}), Context{}))
	mustContain(t, out, "\n📦 +7.0 B/msg from new field `lines.notes` (+9.5), regenerated field `amount` (string → int64, -2.5) (protobuf).\n")
	// Without a new_content figure the fields are still named.
	out = headOf(Report(withRecords(t, report.Records{Regenerated: []report.FieldNote{{Field: "amount", Number: "4", From: "string", To: "int64"}}}, nil), Context{}))
	mustContain(t, out, "\n📦 Head's records add regenerated field `amount` (string → int64).\n")
}

func TestANewOneofMemberSaysNoRecordHoldsIt(t *testing.T) {
	out := headOf(Report(withRecords(t, report.Records{NewOneofMembers: []report.FieldNote{{Field: "voucher", Number: "13", ProtobufBytes: f64(14)}}}, nil), Context{}))
	mustContain(t, out, "\n➕ New oneof member `voucher` (one would cost 14.0 B in protobuf): no record holds it (each keeps the member it had), so no figure above counts its content (a format that marks an empty member, as Avro's null branch does, still pays that mark).\n")
	if strings.Contains(out, "📦") {
		t.Error("a bytes line without new content")
	}
}

func TestARenameAndARemovalAreQuietLines(t *testing.T) {
	out := headOf(Report(withRecords(t, report.Records{Renamed: []report.FieldNote{{Field: "currency_code", Number: "10", From: "currency", To: "currency_code"}},
		Removed: []report.FieldNote{{Field: "legacy", Number: "9"}}}, nil), Context{}))
	mustContain(t, out, "\n<sub>Renamed, same number, no value changed: `currency` → `currency_code`.</sub>\n", "\n<sub>Removed on head: `legacy`.</sub>\n")
	if regexp.MustCompile("📦|➕").MatchString(out) {
		t.Error("a rename or removal claims bytes")
	}
}

func TestFieldNamesAreCodeSpansHoldingThemAsTheyAre(t *testing.T) {
	field := "x` <img src=x> @team [a](http://e.vil)"
	out := headOf(Report(withRecords(t, report.Records{NewFields: []report.FieldNote{{Field: field, Number: "1"}}}, map[string]float64{"protobuf": 1}), Context{}))
	mustContain(t, out, "📦 +1.0 B/msg from new field ``x` <img src=x> @team [a](http://e.vil)`` (protobuf).")
}

func TestAMessageWithoutRecordsHasNoRecordsLines(t *testing.T) {
	r := fixture(t, "fail")
	for i := range r.Messages {
		if m := &r.Messages[i]; m.Name == telemetry {
			if m.Records == nil {
				t.Fatal("the fail fixture is a real run: it has records")
			}
			m.Records = nil
			for j := range m.Formats {
				m.Formats[j].Size.NewContent = nil
			}
		}
	}
	if regexp.MustCompile("📦|➕|<sub>Records:").MatchString(headOf(Report(reparse(t, r), Context{}))) {
		t.Error("records lines without records")
	}
}

func TestARegeneratedFieldAlsoRenamedIsSaidOnce(t *testing.T) {
	lines := recordsNotes(report.Message{Name: "profiles.v1.Sample", Records: &report.Records{Source: "paired",
		Regenerated: []report.FieldNote{{Field: "profile_id", Number: "7", From: "int32", To: "bytes", Was: "comment_strindices"}},
		Renamed:     []report.FieldNote{{Field: "samples", Number: "1", From: "sample", To: "samples"}}}})
	var all []string
	renamed := ""
	for _, l := range lines {
		all = append(all, l.Source())
		if strings.Contains(l.Source(), "Renamed, same number") {
			renamed = l.Source()
		}
	}
	mustContain(t, strings.Join(all, "\n"), "📦 Head's records add regenerated field `profile_id` (was `comment_strindices`, int32 → bytes).")
	if !strings.Contains(renamed, "`sample` → `samples`") || regexp.MustCompile("profile_id|comment_strindices").MatchString(renamed) {
		t.Error(renamed)
	}
}

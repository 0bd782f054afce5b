package render

import (
	"regexp"
	"strings"
	"testing"

	"github.com/wiregate/wiregate/harness/parent/report"
)

// What head's records add, in words: the added content names its fields
// and says how it was judged, with its figures filled; a regenerated field
// says its kinds; a new oneof member says what one would cost; a rename is
// one quiet line.

// withRecords is the fail fixture with TelemetryEvent's records set and
// its added content as given (nil: none).
func withRecords(t *testing.T, records report.Records, added *report.AddedContent) *report.Report {
	r := fixture(t, "fail")
	for i := range r.Messages {
		m := &r.Messages[i]
		if m.Name != telemetry {
			continue
		}
		m.Status = report.StatusChanged
		records.Source = "paired: the base's 256 generated records carried to head by field number"
		m.Records = &records
		m.AddedContent = added
		for j := range m.Formats {
			m.Formats[j].Size.Unset = ""
		}
	}
	return reparse(t, r)
}

// addedSize is added content of bytes/msg in each format, without → with.
func addedSize(sizes map[string][2]float64, threshold *float64) *report.AddedContent {
	a := &report.AddedContent{}
	for _, f := range []string{"json", "protobuf", "avro"} {
		if v, ok := sizes[f]; ok {
			d := (v[1]/v[0] - 1) * 100
			a.Formats = append(a.Formats, report.AddedFormat{Format: f, Figures: []report.AddedFigure{
				{Metric: report.AddedSize, Unit: "B/msg", Without: v[0], With: v[1], DeltaPct: &d, ThresholdPct: threshold}}})
		}
	}
	return a
}

// headOf is the message's part of the report, heading to its figures'
// table.
func headOf(out string) string {
	return strings.Split(strings.SplitN(out, "\n### `"+telemetry+"`\n", 2)[1], "\n| format |")[0]
}

func TestAnAddedFieldIsNamedJudgedAndItsCostFilledTabled(t *testing.T) {
	notes := report.FieldNote{Field: "notes", Number: "12", To: "string", ProtobufBytes: f64(12)}
	out := headOf(Report(withRecords(t, report.Records{NewFields: []report.FieldNote{notes}, OnlyAdded: true},
		addedSize(map[string][2]float64{"protobuf": {100, 112}, "json": {200, 225}}, nil)), Context{}))
	mustContain(t, out,
		"\n➕ **Added content**: `notes` (new string). Stated, never failing (`added-content-threshold` is off); filled, it costs what the table after the figures says.\n",
		"<sub>Head only adds here: what the same content costs more below is what the added fields cost unset, judged with the added content.</sub>",
		"\n<sub>Records: paired: the base's 256 generated records carried to head by field number.</sub>\n")
	full := Report(withRecords(t, report.Records{NewFields: []report.FieldNote{notes}, OnlyAdded: true},
		addedSize(map[string][2]float64{"protobuf": {100, 112}, "json": {200, 225}}, nil)), Context{})
	mustContain(t, full, "| added content | bytes/msg |\n|---|---|\n| json | 200.0 → 225.0 (+12.5%) |\n| protobuf | 100.0 → 112.0 (+12.0%) |\n\n<sub>Added content filled:")
	if strings.Index(full, "| added content |") < strings.Index(full, "| format |") {
		t.Error("the added content's table comes before the message's figures")
	}
	ten, one := 10.0, 1.0
	within := headOf(Report(withRecords(t, report.Records{NewFields: []report.FieldNote{notes}}, addedSize(map[string][2]float64{"protobuf": {100, 105}}, &ten)), Context{}))
	mustContain(t, within, ". Within `added-content-threshold`;")
	if strings.Contains(within, "Head only adds") {
		t.Error("a message that does more than add said it only adds")
	}
	// Past is the verdict's call, read from its violation: a figure over
	// the threshold it did not fail (under the noise floor, ignored) is
	// within.
	pastReport := withRecords(t, report.Records{NewFields: []report.FieldNote{notes}}, addedSize(map[string][2]float64{"protobuf": {100, 105}}, &one))
	unjudged := headOf(Report(pastReport, Context{}))
	mustContain(t, unjudged, ". Within `added-content-threshold`;")
	v := report.Violation{Kind: report.KindAddedContent, Subject: telemetry + "/protobuf/size/added", Unit: "B/msg", Base: f64(100), Head: f64(105),
		DeltaPct: f64(5), ThresholdPct: &one, Detail: "notes (new string) costs +5.0% protobuf bytes/msg when filled, by more than the added-content threshold"}
	v.ID = report.ViolationID(v)
	pastReport.Violations = append(pastReport.Violations, v)
	past := headOf(Report(pastReport, Context{}))
	mustContain(t, past, ". ❌ Past `added-content-threshold`;")
}

func TestARegeneratedFieldSaysItsKindsAndIsTheSameContents(t *testing.T) {
	out := headOf(Report(withRecords(t, report.Records{
		Regenerated: []report.FieldNote{{Field: "amount", Number: "4", From: "string", To: "int64", ProtobufBytes: f64(-2.5)}},
	}, nil), Context{}))
	mustContain(t, out, "\n🔁 Regenerated field `amount` (string → int64): fresh values replace the base's, so the same content's figures include them (changed content, judged at the usual thresholds).\n")
	if strings.Contains(out, "Added content") {
		t.Error("a regenerated field called added content")
	}
}

func TestANewOneofMemberSaysNoRecordHoldsIt(t *testing.T) {
	out := headOf(Report(withRecords(t, report.Records{NewOneofMembers: []report.FieldNote{{Field: "voucher", Number: "13", ProtobufBytes: f64(14)}}}, nil), Context{}))
	mustContain(t, out, "\n➕ New oneof member `voucher` (one would cost 14.0 B in protobuf): no record holds it (each keeps the member it had), so no figure above counts its content (a format that marks an empty member, as Avro's null branch does, still pays that mark).\n")
	if strings.Contains(out, "Added content") {
		t.Error("an unheld member called added content")
	}
}

func TestARenameAndARemovalAreQuietLines(t *testing.T) {
	out := headOf(Report(withRecords(t, report.Records{Renamed: []report.FieldNote{{Field: "currency_code", Number: "10", From: "currency", To: "currency_code"}},
		Removed: []report.FieldNote{{Field: "legacy", Number: "9"}}}, nil), Context{}))
	mustContain(t, out, "\n<sub>Renamed, same number, no value changed: `currency` → `currency_code`.</sub>\n", "\n<sub>Removed on head: `legacy`.</sub>\n")
	if regexp.MustCompile("🔁|➕").MatchString(out) {
		t.Error("a rename or removal claims content")
	}
}

func TestFieldNamesAreCodeSpansHoldingThemAsTheyAre(t *testing.T) {
	field := "x` <img src=x> @team [a](http://e.vil)"
	out := headOf(Report(withRecords(t, report.Records{NewFields: []report.FieldNote{{Field: field, Number: "1", To: "string"}}}, nil), Context{}))
	mustContain(t, out, "➕ **Added content**: ``x` <img src=x> @team [a](http://e.vil)`` (new string). Stated")
}

func TestAMessageWithoutRecordsHasNoRecordsLines(t *testing.T) {
	r := fixture(t, "fail")
	for i := range r.Messages {
		if m := &r.Messages[i]; m.Name == telemetry {
			if m.Records == nil {
				t.Fatal("the fail fixture is a real run: it has records")
			}
			m.Records, m.AddedContent = nil, nil
		}
	}
	if regexp.MustCompile("🔁|➕|<sub>Records:").MatchString(headOf(Report(reparse(t, r), Context{}))) {
		t.Error("records lines without records")
	}
}

func TestARegeneratedFieldAlsoRenamedIsSaidOnce(t *testing.T) {
	lines := recordsNotes(report.Message{Name: "profiles.v1.Sample", Records: &report.Records{Source: "paired",
		Regenerated: []report.FieldNote{{Field: "profile_id", Number: "7", From: "int32", To: "bytes", Was: "comment_strindices"}},
		Renamed:     []report.FieldNote{{Field: "samples", Number: "1", From: "sample", To: "samples"}}}}, nil)
	var all []string
	renamed := ""
	for _, l := range lines {
		all = append(all, l.Source())
		if strings.Contains(l.Source(), "Renamed, same number") {
			renamed = l.Source()
		}
	}
	mustContain(t, strings.Join(all, "\n"), "🔁 Regenerated field `profile_id` (was `comment_strindices`, int32 → bytes): fresh values")
	if !strings.Contains(renamed, "`sample` → `samples`") || regexp.MustCompile("profile_id|comment_strindices").MatchString(renamed) {
		t.Error(renamed)
	}
}

package verdict

import (
	"testing"

	"github.com/wiregate/wiregate/harness/parent/report"
)

// compressed is a JSON size that moved raw by rawGrow% and after zstd by
// zstdGrow%, measured on the user's samples.
func compressed(rawGrow, zstdGrow float64) *report.Report {
	r := generated(rawGrow, zstdGrow)
	r.Messages[0].Records = &report.Records{Source: "the samples file", FromSamples: true}
	return r
}

// generated is compressed on generated records.
func generated(rawGrow, zstdGrow float64) *report.Report {
	s := size(300, 300*(1+rawGrow/100))
	s.Compressed = []report.CompressedSize{{Codec: "zstd", BatchBytes: 16384, Base: f(60), Head: 60 * (1 + zstdGrow/100), DeltaPct: f(zstdGrow),
		Reading: "the new bytes are hard to compress"}}
	r := withFormat("json", s)
	r.Messages[0].Records = &report.Records{Source: "paired: the base's 256 generated records"}
	return r
}

// On generated records a compressed-size growth that raw size does not
// show past its own threshold is stated, not failed: the figure keeps its
// numbers and reading and says why it was not gated. Raw size past its
// threshold gates compressed size too; a growth within the threshold is
// not marked; deciding again decides anew.
func TestCompressedSizeOnGeneratedRecordsIsStated(t *testing.T) {
	r := generated(3, 8)
	Apply(r, defaults(), Allow{}, Options{})
	c := r.Messages[0].Formats[0].Size.Compressed[0]
	if r.Result != "pass" || len(r.Violations) != 0 || c.Ungated != UngatedGenerated || *c.DeltaPct != 8 || c.Reading == "" {
		t.Fatalf("+3%% raw, +8%% zstd on generated records: %s %+v %+v", r.Result, r.Violations, c)
	}
	// No records note (a report from before the note): generated too.
	r.Messages[0].Records = nil
	if Apply(r, defaults(), Allow{}, Options{}); r.Result != "pass" {
		t.Fatalf("no records note: %+v", r.Violations)
	}
	r = generated(12, 8)
	Apply(r, defaults(), Allow{}, Options{})
	if k := kinds(r.Violations); len(r.Violations) != 2 || k[report.KindSize] != 1 || k[report.KindCompressedSize] != 1 ||
		r.Messages[0].Formats[0].Size.Compressed[0].Ungated != "" {
		t.Fatalf("+12%% raw, +8%% zstd: want both to fail, got %+v", r.Violations)
	}
	r = generated(3, 4)
	if Apply(r, defaults(), Allow{}, Options{}); r.Result != "pass" || r.Messages[0].Formats[0].Size.Compressed[0].Ungated != "" {
		t.Fatalf("+4%% zstd is within the threshold: %+v", r.Messages[0].Formats[0].Size.Compressed[0])
	}
	r = compressed(3, 8)
	r.Messages[0].Formats[0].Size.Compressed[0].Ungated = UngatedGenerated // a stale mark
	if Apply(r, defaults(), Allow{}, Options{}); r.Result != "fail" || r.Messages[0].Formats[0].Size.Compressed[0].Ungated != "" {
		t.Fatalf("samples: %s %+v", r.Result, r.Messages[0].Formats[0].Size.Compressed[0])
	}
}

func kinds(vs []report.Violation) map[string]int {
	k := map[string]int{}
	for _, v := range vs {
		k[v.Kind]++
	}
	return k
}

// Compressed size is its own kind with its own threshold: past it fails
// whatever raw size did, within it passes; wiregate.yaml overrides it per
// format (key compressed-size), the regression label allows it, and an
// approval covers it by its own id, not raw size's.
func TestCompressedSizeIsItsOwnViolation(t *testing.T) {
	r := compressed(0, 8)
	Apply(r, defaults(), Allow{}, Options{})
	if r.Result != "fail" || len(r.Violations) != 1 || r.Violations[0].Kind != report.KindCompressedSize ||
		r.Violations[0].Subject != msg+"/json/compressed-size/zstd" || *r.Violations[0].ThresholdPct != 5 || r.Violations[0].Unit != "B/record" {
		t.Fatalf("8%% after zstd: %s %+v", r.Result, r.Violations)
	}
	r = compressed(31, 2)
	Apply(r, defaults(), Allow{}, Options{})
	if len(r.Violations) != 1 || r.Violations[0].Kind != report.KindSize {
		t.Fatalf("+31%% raw, +2%% zstd: only raw fails, got %+v", r.Violations)
	}
	r = compressed(0, 8)
	Apply(r, cfgWith("overrides:\n  - format: json\n    compressed-size: 10%"), Allow{}, Options{})
	if r.Result != "pass" {
		t.Fatalf("override to 10%%: %+v", r.Violations)
	}
	r = compressed(0, 8)
	Apply(r, cfgWith("thresholds:\n  size: 1%"), Allow{}, Options{})
	if r.Result != "fail" {
		t.Fatal("a size threshold changed the compressed-size one")
	}
	r = compressed(0, 8)
	Apply(r, defaults(), Allow{Regression: true}, Options{})
	if r.Result != "pass" || !r.Violations[0].Allowed {
		t.Fatalf("allow regression: %s %+v", r.Result, r.Violations)
	}
	raw := decide(compressed(8, 0), "").Violations[0].ID
	id := decide(compressed(0, 8), "").Violations[0].ID
	if id == raw {
		t.Fatal("compressed and raw size share an id")
	}
	if r := decide(compressed(0, 8), "", comment(1, "writer", "/wiregate approve "+id+" up to 8% ids are random", "2026-11-24T10:00:00Z")); r.Result != "pass" {
		t.Fatalf("approved: %s %+v", r.Result, r.Approvals)
	}
	// A new message has no base: nothing to compare, nothing fails.
	r = compressed(0, 8)
	r.Messages[0].Formats[0].Size.Compressed[0].Base = nil
	Apply(r, defaults(), Allow{}, Options{})
	if r.Result != "pass" {
		t.Fatalf("no base: %+v", r.Violations)
	}
}

// A message that only adds is judged by the added-content thresholds
// (added.go), and its compressed size by the same rule as any other's:
// on generated records a growth that raw size does not show past its own
// (added-size) threshold is stated and marked ungated, whether it is the
// same content's (the cost unset) or the added content's filled; raw size
// past it gates both, wherever the size figure sits in the list; on
// samples compressed size fails on its own.
func TestCompressedSizeOfAnOnlyAddsMessageIsGatedAsTheSameContents(t *testing.T) {
	added := cfgWith("thresholds:\n  added-content: 5%")
	onlyAdds := func(r *report.Report, raw, zstd float64) *report.Report {
		m := &r.Messages[0]
		m.Records.OnlyAdded = true
		m.AddedContent = &report.AddedContent{Formats: []report.AddedFormat{{Format: "json", Figures: []report.AddedFigure{
			{Metric: report.AddedCompressedSize, Codec: "zstd", Unit: "B/record", Without: 60, With: 60 * (1 + zstd/100), DeltaPct: f(zstd)},
			{Metric: report.AddedSize, Unit: "B/msg", Without: 300, With: 300 * (1 + raw/100), DeltaPct: f(raw)}}}}}
		return r
	}
	subjects := func(r *report.Report) []string {
		var s []string
		for _, x := range r.Violations {
			s = append(s, x.Subject)
		}
		return s
	}
	r := onlyAdds(generated(3, 8), 3, 8)
	Apply(r, added, Allow{}, Options{})
	if c := r.Messages[0].Formats[0].Size.Compressed[0]; r.Result != "pass" || len(r.Violations) != 0 || c.Ungated != UngatedGenerated {
		t.Fatalf("+3%% raw, +8%% zstd on generated records: %s %v %+v", r.Result, subjects(r), c)
	}
	r = onlyAdds(generated(12, 8), 12, 8)
	Apply(r, added, Allow{}, Options{})
	want := []string{msg + "/json/compressed-size/zstd/added", msg + "/json/compressed-size/zstd/unset", msg + "/json/size/added", msg + "/json/size/unset"}
	if got := subjects(r); r.Result != "fail" || len(got) != len(want) || r.Messages[0].Formats[0].Size.Compressed[0].Ungated != "" {
		t.Fatalf("+12%% raw, +8%% zstd: want %v, got %v", want, got)
	} else {
		for i := range want {
			if got[i] != want[i] || r.Violations[i].Kind != report.KindAddedContent {
				t.Fatalf("+12%% raw, +8%% zstd: want %v, got %+v", want, r.Violations)
			}
		}
	}
	r = onlyAdds(compressed(3, 8), 3, 8)
	r.Messages[0].Formats[0].Size.Compressed[0].Ungated = UngatedGenerated // a stale mark
	Apply(r, added, Allow{}, Options{})
	if got := subjects(r); r.Result != "fail" || len(got) != 2 || r.Messages[0].Formats[0].Size.Compressed[0].Ungated != "" {
		t.Fatalf("samples: %s %v %+v", r.Result, got, r.Messages[0].Formats[0].Size.Compressed[0])
	}
	// Off (the default): stated, never failing, never marked.
	r = onlyAdds(generated(3, 8), 3, 8)
	if Apply(r, defaults(), Allow{}, Options{}); r.Result != "pass" || r.Messages[0].Formats[0].Size.Compressed[0].Ungated != "" {
		t.Fatalf("added-content off: %s %v %+v", r.Result, subjects(r), r.Messages[0].Formats[0].Size.Compressed[0])
	}
}

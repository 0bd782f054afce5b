package render

import (
	"strings"
	"testing"

	"github.com/wiregate/wiregate/harness/parent/report"
)

// Compressed size in the comment: raw and each codec side by side where
// size moved, the failing one first, the gate's words where the two
// disagree — report data, escaped like all of it.

const telemetry = "telemetry.v1.TelemetryEvent"

// withCompressed is the fail fixture with json's raw size moved by rawPct
// and its zstd size from 60 by zstdPct, and the violations the gate would
// decide for them.
func withCompressed(t *testing.T, rawPct, zstdPct float64, reading string) *report.Report {
	r := fixture(t, "fail")
	// The fixture's own compressed-size findings go: json's is the one the
	// headline must name.
	r.Violations = violationsWhere(r.Violations, func(v report.Violation) bool {
		return !strings.HasPrefix(v.Subject, telemetry+"/json/") && v.Kind != "compressed-size"
	})
	f := jsonFormat(r)
	f.Size = &report.Size{Base: 250, Head: 250 * (1 + rawPct/100), DeltaPct: f64(rawPct), Compressed: []report.CompressedSize{
		{Codec: "zstd", BatchBytes: 16384, Base: f64(60), Head: 60 * (1 + zstdPct/100), DeltaPct: f64(zstdPct), Reading: reading},
		{Codec: "lz4", BatchBytes: 16384, Base: f64(90), Head: 90, DeltaPct: f64(0)},
	}}
	v := func(kind, suffix string, base, delta float64, unit string) report.Violation {
		return report.Violation{Kind: kind, Subject: telemetry + "/json/" + suffix, Detail: "json " + kind, Unit: unit, Base: f64(base),
			Head: f64(base * (1 + delta/100)), DeltaPct: f64(delta), ThresholdPct: f64(5)}
	}
	if rawPct > 5 {
		r.Violations = append(r.Violations, v("size", "size", 250, rawPct, "B/msg"))
	}
	if zstdPct > 5 {
		r.Violations = append(r.Violations, v("compressed-size", "compressed-size/zstd", 60, zstdPct, "B/record"))
	}
	return reparse(t, r)
}

func jsonFormat(r *report.Report) *report.Format {
	for i := range r.Messages {
		if r.Messages[i].Name == telemetry {
			for j := range r.Messages[i].Formats {
				if r.Messages[i].Formats[j].Format == "json" {
					return &r.Messages[i].Formats[j]
				}
			}
		}
	}
	return nil
}

func TestAFailingCompressedSizeLeadsItsCell(t *testing.T) {
	out := Report(withCompressed(t, 2, 10, "+2.0% raw, +10.0% after zstd: the new bytes are hard to compress"), Context{})
	mustContain(t, formatRow(t, out, telemetry, "json"), "| zstd: 60.0 → 66.0 (+10.0%)<br><sub>+2.0% raw, +10.0% after zstd: the new bytes are hard to compress</sub><br>raw: 250.0 → 255.0 (+2.0%)<br>lz4: 90.0 (=) |")
	mustContain(t, out, "compressed-size +10.0% on json/compressed-size/zstd")
}

func TestAFailingRawSizeLeadsCompressedFollows(t *testing.T) {
	out := Report(withCompressed(t, 31, 2, "+31.0% raw, +2.0% after zstd: the growth is mostly repeated bytes"), Context{})
	mustContain(t, formatRow(t, out, telemetry, "json"), "| raw: 250.0 → 327.5 (+31.0%)<br>zstd: 60.0 → 61.2 (+2.0%)<br><sub>+31.0% raw, +2.0% after zstd: the growth is mostly repeated bytes</sub><br>lz4")
}

func TestWhereNothingMovedTheCellIsRawSizeAlone(t *testing.T) {
	r := withCompressed(t, 0, 0, "")
	jsonFormat(r).Size.Head = jsonFormat(r).Size.Base
	mustContain(t, formatRow(t, Report(r, Context{}), telemetry, "json"), "| 250.0 (=) |")
}

func TestCompressedWordsAreEscaped(t *testing.T) {
	cell := formatRow(t, Report(withCompressed(t, 2, 10, "<img src=x onerror=alert(1)> | `x` *y*"), Context{}), telemetry, "json")
	if strings.Contains(cell, "<img") || !strings.Contains(cell, "&lt;img") {
		t.Error(cell)
	}
	r := withCompressed(t, 2, 0, "+2.0% raw, +10.0% after zstd: the new bytes are hard to compress")
	zstd := &jsonFormat(r).Size.Compressed[0]
	zstd.Head, zstd.DeltaPct, zstd.Ungated = 66, f64(10), "on generated records; give samples to gate it"
	mustContain(t, formatRow(t, Report(r, Context{}), telemetry, "json"), "| raw: 250.0 → 255.0 (+2.0%)<br>zstd: 60.0 → 66.0 (+10.0%)<br><sub>+2.0% raw, +10.0% after zstd: the new bytes are hard to compress</sub><br><sub>not gated: on generated records; give samples to gate it</sub><br>lz4")
	zstd.Ungated = "<img src=x> | *y*"
	if cell := formatRow(t, Report(r, Context{}), telemetry, "json"); strings.Contains(cell, "<img") || !strings.Contains(cell, "not gated: &lt;img") {
		t.Error(cell)
	}
}

func TestThePipelineRowsSayWhichCodecTheProducerCompressedWith(t *testing.T) {
	r := fixture(t, "fail")
	for i := range r.Pipeline {
		r.Pipeline[i].Compression = "zstd"
	}
	out := Report(reparse(t, r), Context{})
	mustContain(t, strings.SplitN(out, "### `"+telemetry+"`", 2)[1], "<sub>Pipeline producer batches: `zstd` (the first compression codec); records/s include decompressing them.</sub>")
	for i := range r.Pipeline {
		r.Pipeline[i].Compression = ""
	}
	if strings.Contains(Report(reparse(t, r), Context{}), "Pipeline producer batches") {
		t.Error("a producer note without compression")
	}
}

package gate_test

import (
	"math"
	"path/filepath"
	"testing"

	"github.com/wiregate/wiregate/harness/parent/gate"
	"github.com/wiregate/wiregate/harness/parent/report"
)

// Compressed size through the gate: bytes per record after batch compression,
// for every codec, from the same paired records as raw size.

var everyCodec = []string{"gzip", "snappy", "lz4", "zstd"}

// compressedRun gates telemetry in json, protobuf and avro (Avro derived
// from the proto on both sides) with every codec, timing nothing.
func compressedRun(t *testing.T, base, head string, edit func(in map[string]string)) *report.Report {
	t.Helper()
	return run(t, base, head, func(in map[string]string, o *gate.Options) {
		in["messages"], in["avro-schemas"], in["breaking"] = "telemetry.v1.TelemetryEvent", "no-such-dir/*.avsc", "false"
		in["cpu-cost"], in["compression"] = "off", "gzip,snappy,lz4,zstd"
		if edit != nil {
			edit(in)
		}
	})
}

// byCodec is each codec's compressed size of s, checking every codec is
// there with both sides.
func byCodec(t *testing.T, format string, s *report.Size) map[string]report.CompressedSize {
	t.Helper()
	out := map[string]report.CompressedSize{}
	for _, c := range s.Compressed {
		out[c.Codec] = c
	}
	for _, c := range everyCodec {
		if x, ok := out[c]; !ok || x.Base == nil || x.Head <= 0 || x.BatchBytes != 16384 {
			t.Fatalf("%s/%s: %+v", format, c, s.Compressed)
		}
	}
	return out
}

// An A/A (the same schema on both sides, measured anyway) gives identical
// compressed bytes for every codec and format, also for a message with a
// map (its entries measured in key order).
func TestAACompressesToTheSameBytes(t *testing.T) {
	base, head := checkouts(t)
	// orders.v1.Order has a map, which encoders write in random order.
	r := compressedRun(t, base, head, func(in map[string]string) {
		in["measure"], in["messages"] = "all", "telemetry.v1.TelemetryEvent,orders.v1.Order"
	})
	if len(r.Messages) != 2 || len(r.Errors) != 0 {
		t.Fatalf("messages %d, errors %v", len(r.Messages), r.Errors)
	}
	for _, m := range r.Messages {
		for _, f := range m.Formats {
			for c, x := range byCodec(t, f.Format, f.Size) {
				if *x.Base != x.Head || *x.DeltaPct != 0 || x.Reading != "" {
					t.Errorf("%s/%s/%s: %.3f → %.3f B/record in an A/A (%q)", m.Name, f.Format, c, *x.Base, x.Head, x.Reading)
				}
			}
		}
	}
}

// Renaming a field grows raw JSON by the longer key in every record; after
// batch compression JSON moves by less than a tenth of that (the key
// repeats in every record of a batch; lz4 by less than a fifth); Protobuf
// and Avro move by zero in both.
func TestRenameIsAlmostFreeAfterCompression(t *testing.T) {
	base, head := checkouts(t)
	replaceIn(t, filepath.Join(head, telemetryProto), "string region = 12;", "string deployment_zone = 12;")
	s := sizesOf(t, compressedRun(t, base, head, nil))
	raw := s["json"].Head - s["json"].Base
	if raw <= 0 {
		t.Fatalf("raw json grew %.3f B/msg", raw)
	}
	for c, x := range byCodec(t, "json", s["json"]) {
		t.Logf("json %s: raw %+.2f B, compressed %+.3f B %q", c, raw, x.Head-*x.Base, x.Reading)
		// lz4 at franz-go's level (the fastest) finds shorter matches and
		// keeps more of a key: 1.10 B of 9 on these records, so it is held
		// to a fifth; the others stay under a tenth (0.31 to 0.47 B).
		limit := raw / 10
		if c == "lz4" {
			limit = raw / 5
		}
		if d := x.Head - *x.Base; math.Abs(d) >= limit {
			t.Errorf("json after %s moved %.3f B/record, raw %.3f: not under %.3f", c, d, raw, limit)
		}
	}
	for _, f := range []string{"protobuf", "avro"} {
		if s[f].Head != s[f].Base {
			t.Errorf("%s raw moved %.3f", f, s[f].Head-s[f].Base)
		}
		for c, x := range byCodec(t, f, s[f]) {
			if x.Head != *x.Base {
				t.Errorf("%s after %s moved %.3f B/record", f, c, x.Head-*x.Base)
			}
		}
	}
}

// addedByCodec is a message's added content in format: its raw bytes/msg
// growth and each codec's growth of bytes per record, checking every codec
// is there.
func addedByCodec(t *testing.T, r *report.Report, format string) (raw float64, byCodec map[string]float64) {
	t.Helper()
	byCodec = map[string]float64{}
	m := r.Messages[0]
	if m.AddedContent == nil {
		t.Fatalf("no added content: %+v", m.Records)
	}
	for _, af := range m.AddedContent.Formats {
		if af.Format != format {
			continue
		}
		for _, fig := range af.Figures {
			switch fig.Metric {
			case report.AddedSize:
				raw = fig.With - fig.Without
			case report.AddedCompressedSize:
				byCodec[fig.Codec] = fig.With - fig.Without
			}
		}
	}
	for _, c := range everyCodec {
		if _, ok := byCodec[c]; !ok {
			t.Fatalf("%s: no added content after %s: %+v", format, c, m.AddedContent)
		}
	}
	return raw, byCodec
}

// A new random id (a hash: bytes no codec can shrink), as added content,
// grows compressed bytes by at least half its raw growth, in every format
// and codec.
func TestRandomIDCostsAboutItsRawSize(t *testing.T) {
	base, head := checkouts(t)
	replaceIn(t, filepath.Join(head, telemetryProto), "string region = 12;", "string region = 12;\n  bytes trace_hash = 13;")
	r := compressedRun(t, base, head, nil)
	for _, f := range []string{"json", "protobuf", "avro"} {
		raw, byCodec := addedByCodec(t, r, f)
		if raw <= 0 {
			t.Fatalf("%s raw grew %.3f", f, raw)
		}
		for c, d := range byCodec {
			if d < raw/2 {
				t.Errorf("%s after %s grew %.3f B/record, raw %.3f: less than half", f, c, d, raw)
			}
			t.Logf("%s %s: raw %+.2f B, compressed %+.2f B", f, c, raw, d)
		}
	}
}

// A small field added (rssi, an int32 of random readings), filled, grows
// raw size in every format and compressed size too, in every codec.
// Compressed growth is not bounded by raw growth: in Avro it can be larger,
// since the new bytes also cut matches the codec found between records
// before.
func TestAddedFieldAfterCompression(t *testing.T) {
	base, head := checkouts(t)
	addRSSI(t, head)
	r := compressedRun(t, base, head, nil)
	for _, f := range []string{"json", "protobuf", "avro"} {
		raw, byCodec := addedByCodec(t, r, f)
		for c, d := range byCodec {
			t.Logf("%s %s: raw %+.2f B, compressed %+.2f B", f, c, raw, d)
			if raw <= 0 || d <= 0 {
				t.Errorf("%s after %s: raw %+.3f B/msg, compressed %+.3f B/record", f, c, raw, d)
			}
		}
	}
}

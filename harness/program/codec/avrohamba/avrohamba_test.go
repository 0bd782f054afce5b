package avrohamba_test

import (
	"bytes"
	"testing"

	"github.com/hamba/avro/v2"

	"github.com/wiregate/wiregate/harness/internal/codectest"
	"github.com/wiregate/wiregate/harness/program/avroschema"
	"github.com/wiregate/wiregate/harness/program/cases"
	"github.com/wiregate/wiregate/harness/program/codec"
	"github.com/wiregate/wiregate/harness/program/codec/avrohamba"
	"github.com/wiregate/wiregate/harness/program/roundtrip"
)

const repoAvsc = "../../../../schemas/telemetry/v1/telemetry_event.avsc"

func formats(t *testing.T) (twmb, hamba codec.Format) {
	t.Helper()
	fs, err := codec.Parse("avro," + avrohamba.Name)
	if err != nil {
		t.Fatal(err)
	}
	if !fs[1].Linked() {
		t.Fatal("avro-hamba is not linked although this package is")
	}
	return fs[0], fs[1]
}

// TestHambaStillWritesTheRecordedBytes: avro-hamba is what `avro` was
// before the move, byte count for byte count (map entries come in Go's
// random order, so bytes are compared in canonical form).
func TestHambaStillWritesTheRecordedBytes(t *testing.T) {
	_, hamba := formats(t)
	got := codectest.GoldenAvro(t, hamba, codectest.Subjects(t, repoAvsc), "../testdata/avro-golden")
	for msg, before := range codectest.RecordedSizes {
		if g := got[msg]; g.Written != before || g.Recorded != before {
			t.Errorf("%s: avro-hamba writes %v bytes/msg, recorded %v, measured before the move %v", msg, g.Written, g.Recorded, before)
		}
	}
}

// TestAvroAndHambaSameRecordsSameBytes: both formats pass the correctness
// gate on the same records and write the same data. The one difference is
// hamba/avro's default framing of arrays and maps (each block's byte size
// after a negative count): with it turned off, hamba writes as many bytes as
// twmb/avro, and exactly the same bytes where no map has two entries to
// order.
func TestAvroAndHambaSameRecordsSameBytes(t *testing.T) {
	twmb, hamba := formats(t)
	subjects := codectest.Subjects(t, repoAvsc)
	cs, err := cases.Build(subjects, []codec.Format{twmb, hamba}, cases.From{})
	if err != nil {
		t.Fatal(err)
	}
	if err := roundtrip.Check(cs); err != nil {
		t.Fatal(err)
	}
	counted := avro.Config{DisableBlockSizeHeader: true}.Freeze()
	for i := 0; i < len(cs); i += 2 {
		tw, hb := cs[i], cs[i+1]
		schema, err := avro.Parse(tw.Subject.Avro.String())
		if err != nil {
			t.Fatal(err)
		}
		exact := 0
		for r := range tw.Encoded {
			a, err := avroschema.CanonicalBinary(tw.Subject.Avro, tw.Encoded[r])
			if err != nil {
				t.Fatal(err)
			}
			b, err := avroschema.CanonicalBinary(tw.Subject.Avro, hb.Encoded[r])
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(a, b) {
				t.Fatalf("%s record %d: avro wrote\n%x\navro-hamba wrote\n%x", tw.Subject.Name(), r, tw.Encoded[r], hb.Encoded[r])
			}
			plain, err := counted.Marshal(schema, hb.Values[r])
			if err != nil {
				t.Fatal(err)
			}
			if len(plain) != len(tw.Encoded[r]) {
				t.Fatalf("%s record %d: hamba without block sizes wrote %d bytes, twmb %d", tw.Subject.Name(), r, len(plain), len(tw.Encoded[r]))
			}
			if bytes.Equal(plain, tw.Encoded[r]) {
				exact++
			}
		}
		if tw.Subject.Name() == "telemetry.v1.TelemetryEvent" && exact != len(tw.Encoded) {
			t.Errorf("telemetry (no arrays or maps): %d of %d records byte for byte", exact, len(tw.Encoded))
		}
		if exact == 0 {
			t.Errorf("%s: no record the same byte for byte", tw.Subject.Name())
		}
	}
}

// TestHambaStringPolicy: hamba/avro copies decoded strings (into a shared
// slab, not the input), as the format's Aliasing flag says.
func TestHambaStringPolicy(t *testing.T) {
	_, hamba := formats(t)
	codectest.StringPolicy(t, hamba, codectest.Subjects(t, repoAvsc))
}

// Package codectest holds checks every codec's tests run, shared with the
// opt-in codec modules (codec/avrohamba), whose tests import it: the Avro
// bytes of this repo's records, and the string policy.
package codectest

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/wiregate/wiregate/harness/internal/fixture/wgplain"
	"github.com/wiregate/wiregate/harness/program/avroschema"
	"github.com/wiregate/wiregate/harness/program/cases"
	"github.com/wiregate/wiregate/harness/program/codec"
	"github.com/wiregate/wiregate/harness/program/roundtrip"
	"github.com/wiregate/wiregate/harness/program/subject"
)

// Subjects are this repo's messages with the Avro schema `wiregate sizes`
// gives each: the first of avsc whose record is the message, else derived.
func Subjects(t testing.TB, avsc ...string) []*subject.Subject {
	t.Helper()
	set, err := avroschema.ReadSet("", avsc)
	if err != nil {
		t.Fatal(err)
	}
	var out []*subject.Subject
	for _, s := range wgplain.Subjects() {
		s := s
		sch, src, err := avroschema.ForMessage(s.Type.Descriptor(), set)
		if err != nil {
			t.Fatal(err)
		}
		s.Avro, s.AvroSource = sch, src
		out = append(out, &s)
	}
	return out
}

// Golden is what GoldenAvro measured of one message: bytes/msg of the
// recorded bytes, of their canonical form, and of what the format wrote.
type Golden struct {
	Records                      int
	Recorded, Canonical, Written float64
}

// GoldenAvro checks format f against the Avro bytes recorded in dir
// (codec/testdata/avro-golden: its README says how they were made): every
// record encodes to the recorded data (equal canonical forms: the same
// bytes but for the block framing and map order a writer chooses) and
// decodes from the recorded bytes back to the record.
func GoldenAvro(t testing.TB, f codec.Format, subjects []*subject.Subject, dir string) map[string]Golden {
	t.Helper()
	out := map[string]Golden{}
	for _, s := range subjects {
		path := filepath.Join(dir, s.Name()+".avro.jsonl")
		file, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		c, err := f.New(s)
		if err != nil {
			t.Fatal(err)
		}
		var recorded, canonical, written int
		n := 0
		lines := bufio.NewScanner(file)
		lines.Buffer(nil, 1<<20)
		for ; lines.Scan(); n++ {
			var rec struct{ Protobuf, Avro string }
			if err := json.Unmarshal(lines.Bytes(), &rec); err != nil {
				t.Fatalf("%s:%d: %v", path, n+1, err)
			}
			pb, _ := base64.StdEncoding.DecodeString(rec.Protobuf)
			want, _ := base64.StdEncoding.DecodeString(rec.Avro)
			m := s.Type.New().Interface()
			if err := proto.Unmarshal(pb, m); err != nil {
				t.Fatalf("%s:%d: %v", path, n+1, err)
			}
			encode, err := c.Encoder([]any{f.Value(s, m)})
			if err != nil {
				t.Fatalf("%s: %v", s.Name(), err)
			}
			got, err := encode(0)
			if err != nil {
				t.Fatalf("%s record %d: encode: %v", s.Name(), n, err)
			}
			wantCanon, err := avroschema.CanonicalBinary(s.Avro, want)
			if err != nil {
				t.Fatalf("%s record %d: the recorded bytes: %v", s.Name(), n, err)
			}
			gotCanon, err := avroschema.CanonicalBinary(s.Avro, got)
			if err != nil {
				t.Fatalf("%s record %d: %s's bytes: %v", s.Name(), n, f.Name, err)
			}
			if !bytes.Equal(gotCanon, wantCanon) {
				t.Fatalf("%s record %d: %s wrote\n%x\nthe recorded bytes are\n%x", s.Name(), n, f.Name, got, want)
			}
			v := f.NewValue(s)
			if err := c.Decode(want, v); err != nil {
				t.Fatalf("%s record %d: decode: %v", s.Name(), n, err)
			}
			if back := f.ToProto(s, v); !proto.Equal(back, m) {
				t.Fatalf("%s record %d: %s does not read the recorded bytes back: %s", s.Name(), n, f.Name,
					roundtrip.FirstDiff(m.ProtoReflect(), back.ProtoReflect(), ""))
			}
			recorded += len(want)
			canonical += len(wantCanon)
			written += len(got)
		}
		file.Close()
		if err := lines.Err(); err != nil || n == 0 {
			t.Fatalf("%s: %d records, %v", path, n, err)
		}
		mean := func(total int) float64 { return float64(total) / float64(n) }
		out[s.Name()] = Golden{Records: n, Recorded: mean(recorded), Canonical: mean(canonical), Written: mean(written)}
	}
	return out
}

// RecordedSizes are bytes/msg of this repo's messages in `avro` as
// `wiregate sizes` measured them before the move to twmb/avro (hamba/avro
// v2.31.0, commit c86ce32): what the recorded bytes must add up to.
var RecordedSizes = map[string]float64{
	"orders.v1.Order":             142.28125,
	"pingpong.v1.PingPong":        145.7109375,
	"telemetry.v1.TelemetryEvent": 88.78125,
}

// StringPolicy checks that f's Aliasing flag is true to its decoder: it
// decodes every record of the pool, overwrites the input it decoded from,
// and compares the value with the record. A copying decoder's value does
// not change; an aliasing one's does for some record with a string.
func StringPolicy(t testing.TB, f codec.Format, subjects []*subject.Subject) {
	t.Helper()
	cs, err := cases.Build(subjects, []codec.Format{f}, cases.From{})
	if err != nil {
		t.Fatal(err)
	}
	changed := 0
	for _, c := range cs {
		for i, enc := range c.Encoded {
			in := bytes.Clone(enc)
			v := f.NewValue(c.Subject)
			if err := c.Codec.Decode(in, v); err != nil {
				t.Fatalf("%s record %d: %v", c.Name(), i, err)
			}
			for j := range in {
				in[j] = 'Z'
			}
			if back := f.ToProto(c.Subject, v); !proto.Equal(back, c.Records[i]) {
				changed++
				if !f.Aliasing {
					t.Fatalf("%s record %d: overwriting the input changed the decoded value (%s), yet the format is not marked Aliasing",
						c.Name(), i, roundtrip.FirstDiff(c.Records[i].ProtoReflect(), back.ProtoReflect(), ""))
				}
			}
		}
	}
	if f.Aliasing && changed == 0 {
		t.Errorf("%s is marked Aliasing, but no decoded value changed when its input was overwritten", f.Name)
	}
}

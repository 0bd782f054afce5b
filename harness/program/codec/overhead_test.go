package codec_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/fxamacker/cbor/v2"
	"github.com/twmb/avro"
	"github.com/vmihailenco/msgpack/v5"
	"google.golang.org/protobuf/proto"

	telemetryv1 "github.com/wiregate/wiregate/harness/internal/fixture/gen/telemetry/v1"
	"github.com/wiregate/wiregate/harness/internal/fixture/wgplain"
	"github.com/wiregate/wiregate/harness/program/bench"
	"github.com/wiregate/wiregate/harness/program/cases"
	"github.com/wiregate/wiregate/harness/program/codec"
	"github.com/wiregate/wiregate/harness/program/subject"
)

// The overhead benchmarks time the same decode and encode loops twice: once
// through the harness (bench.Decode/Encode over the Codec interface) and
// once calling each library directly on the concrete generated types. Their
// ratio is the harness's overhead (target ≤ 1.05). Run:
//
//	go test ./codec -run '^$' -bench Overhead -count 10 | tee /tmp/o.txt
//
// and compare Harness vs Direct lines.

func telemetryCase(b *testing.B, format string) *cases.Case {
	b.Helper()
	f, ok := codec.Lookup(format)
	if !ok {
		b.Fatalf("no format %s", format)
	}
	var tel *subject.Subject
	for _, s := range fixtureSubjects(b) {
		if s.Name() == "telemetry.v1.TelemetryEvent" {
			tel = s
		}
	}
	cs, err := cases.Build([]*subject.Subject{tel}, []codec.Format{f}, cases.From{})
	if err != nil {
		b.Fatal(err)
	}
	return cs[0]
}

var overheadFormats = []string{"json", "protobuf", "avro", "msgpack", "cbor"}

func BenchmarkOverheadDecode(b *testing.B) {
	for _, format := range overheadFormats {
		c := telemetryCase(b, format)
		b.Run("Harness/"+format, bench.Decode(c))
		b.Run("Direct/"+format, directDecode(b, c))
	}
}

func BenchmarkOverheadEncode(b *testing.B) {
	for _, format := range overheadFormats {
		c := telemetryCase(b, format)
		b.Run("Harness/"+format, bench.Encode(c))
		b.Run("Direct/"+format, directEncode(b, c))
	}
}

// directDecode is the loop a service would write, on concrete types.
func directDecode(b *testing.B, c *cases.Case) func(*testing.B) {
	enc := c.Encoded
	schema := c.Subject.Avro
	switch c.Format.Name {
	case "protobuf":
		return func(b *testing.B) {
			var m telemetryv1.TelemetryEvent
			b.ReportAllocs()
			for i, j := 0, 0; i < b.N; i++ {
				if err := proto.Unmarshal(enc[j], &m); err != nil {
					b.Fatal(err)
				}
				if j++; j == len(enc) {
					j = 0
				}
			}
		}
	}
	unmarshal := map[string]func([]byte, any) error{
		"json":    json.Unmarshal,
		"avro":    func(d []byte, v any) error { _, err := schema.Decode(d, v); return err },
		"msgpack": msgpack.Unmarshal,
		"cbor":    cbor.Unmarshal,
	}[c.Format.Name]
	return func(b *testing.B) {
		var v wgplain.Telemetry_v1_TelemetryEvent
		b.ReportAllocs()
		for i, j := 0, 0; i < b.N; i++ {
			v = wgplain.Telemetry_v1_TelemetryEvent{}
			if err := unmarshal(enc[j], &v); err != nil {
				b.Fatal(err)
			}
			if j++; j == len(enc) {
				j = 0
			}
		}
	}
}

func directEncode(b *testing.B, c *cases.Case) func(*testing.B) {
	schema := c.Subject.Avro
	if c.Format.Name == "protobuf" {
		msgs := make([]*telemetryv1.TelemetryEvent, len(c.Records))
		for i, r := range c.Records {
			msgs[i] = r.(*telemetryv1.TelemetryEvent)
		}
		return func(b *testing.B) {
			b.ReportAllocs()
			for i, j := 0, 0; i < b.N; i++ {
				if _, err := proto.Marshal(msgs[j]); err != nil {
					b.Fatal(err)
				}
				if j++; j == len(msgs) {
					j = 0
				}
			}
		}
	}
	vals := make([]*wgplain.Telemetry_v1_TelemetryEvent, len(c.Values))
	for i, v := range c.Values {
		vals[i] = v.(*wgplain.Telemetry_v1_TelemetryEvent)
	}
	marshal := map[string]func(any) ([]byte, error){
		"json":    json.Marshal,
		"avro":    appendEncodeClone(schema),
		"msgpack": msgpack.Marshal,
		"cbor":    cbor.Marshal,
	}[c.Format.Name]
	return func(b *testing.B) {
		b.ReportAllocs()
		for i, j := 0, 0; i < b.N; i++ {
			if _, err := marshal(vals[j]); err != nil {
				b.Fatal(err)
			}
			if j++; j == len(vals) {
				j = 0
			}
		}
	}
}

// appendEncodeClone is twmb/avro's encode as a service that hands the
// bytes off writes it: into a reused buffer, copied out once (what the
// codec does, see avro.go).
func appendEncodeClone(schema *avro.Schema) func(any) ([]byte, error) {
	var buf []byte
	return func(v any) ([]byte, error) {
		b, err := schema.AppendEncode(buf[:0], v)
		buf = b
		return bytes.Clone(b), err
	}
}

// noop does no work: timing it through the harness isolates what the
// harness itself adds per operation (the step's calls, reset, rotation).
var noop = codec.Plain(func(any) ([]byte, error) { return nil, nil }, func([]byte, any) error { return nil })

//go:noinline
func noopDecode(b []byte, v *wgplain.Telemetry_v1_TelemetryEvent) error { return nil }

// BenchmarkOverheadFloor: the harness's absolute per-op cost, against a
// direct loop calling a function that does nothing. Divided by a codec's
// own ns/op it bounds the harness's overhead ratio.
func BenchmarkOverheadFloor(b *testing.B) {
	c := telemetryCase(b, "json")
	c.Codec = noop
	b.Run("Harness/decode", bench.Decode(c))
	b.Run("Direct/decode", func(b *testing.B) {
		enc := c.Encoded
		var v wgplain.Telemetry_v1_TelemetryEvent
		for i, j := 0, 0; i < b.N; i++ {
			v = wgplain.Telemetry_v1_TelemetryEvent{}
			if err := noopDecode(enc[j], &v); err != nil {
				b.Fatal(err)
			}
			if j++; j == len(enc) {
				j = 0
			}
		}
	})
}

package codec_test

import (
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/wiregate/wiregate/harness/internal/fixture/wgplain"
	"github.com/wiregate/wiregate/harness/program/avroschema"
	"github.com/wiregate/wiregate/harness/program/cases"
	"github.com/wiregate/wiregate/harness/program/codec"
	"github.com/wiregate/wiregate/harness/program/exitcode"
	"github.com/wiregate/wiregate/harness/program/roundtrip"
	"github.com/wiregate/wiregate/harness/program/subject"
)

// fixtureSubjects are the repo's schemas with derived Avro schemas.
func fixtureSubjects(t testing.TB) []*subject.Subject {
	t.Helper()
	var out []*subject.Subject
	for _, s := range wgplain.Subjects() {
		s := s
		sch, err := avroschema.Derive(s.Type.Descriptor())
		if err != nil {
			t.Fatal(err)
		}
		s.Avro, s.AvroSource = sch, "derived"
		out = append(out, &s)
	}
	return out
}

// linkedCases are the fixture's cases in every format linked into this
// package's test binary, and those formats' names.
func linkedCases(t *testing.T) ([]*cases.Case, []string) {
	t.Helper()
	var linked []string
	for _, n := range codec.Names() {
		if f, _ := codec.Lookup(n); f.Linked() {
			linked = append(linked, n)
		}
	}
	formats, err := codec.Parse(strings.Join(linked, ","))
	if err != nil {
		t.Fatal(err)
	}
	cs, err := cases.Build(fixtureSubjects(t), formats, cases.From{})
	if err != nil {
		t.Fatal(err)
	}
	return cs, linked
}

// Every format linked into this package's test binary; the opt-in ones
// (codec.Format.Module) are tested in their own modules.
func TestEveryFormatRoundTripsEveryFixtureRecord(t *testing.T) {
	cs, linked := linkedCases(t)
	if want := 3 * len(linked); len(cs) != want {
		t.Fatalf("got %d cases, want %d", len(cs), want)
	}
	if err := roundtrip.Check(cs); err != nil {
		t.Fatal(err)
	}
}

// The measured operations (codec.Encoder, codec.Decoder) round-trip: each
// record Encoder encodes decodes, through the one-shot Decode, to itself,
// and a Decoder's one reused value, reset before each record, holds
// exactly the record decoded last, in every linked format (a stale field,
// a merge, a map entry left from the record before would show).
func TestMeasuredOperationsRoundTripIntoOneReusedValue(t *testing.T) {
	cs, _ := linkedCases(t)
	for _, c := range cs {
		enc, err := c.Codec.Encoder(c.Values)
		if err != nil {
			t.Fatalf("%s: %v", c.Name(), err)
		}
		v := c.Format.NewValue(c.Subject)
		dec, err := c.Codec.Decoder(v)
		if err != nil {
			t.Fatalf("%s: %v", c.Name(), err)
		}
		// Backwards, then forwards: every record after one it differs from.
		for pass, order := range [][2]int{{len(c.Values) - 1, -1}, {0, 1}} {
			for i := order[0]; i >= 0 && i < len(c.Values); i += order[1] {
				b, err := enc(i)
				if err != nil {
					t.Fatalf("%s record %d: %v", c.Name(), i, err)
				}
				once := c.Format.NewValue(c.Subject)
				if err := c.Codec.Decode(b, once); err != nil || !proto.Equal(c.Format.ToProto(c.Subject, once), c.Records[i]) {
					t.Fatalf("%s record %d: Encoder's bytes do not decode to the record (%v)", c.Name(), i, err)
				}
				if err := dec(c.Encoded[i]); err != nil {
					t.Fatalf("%s record %d: %v", c.Name(), i, err)
				}
				if got := c.Format.ToProto(c.Subject, v); !proto.Equal(got, c.Records[i]) {
					t.Fatalf("%s record %d, pass %d, decoded into the reused value: %s", c.Name(), i, pass,
						roundtrip.FirstDiff(c.Records[i].ProtoReflect(), got.ProtoReflect(), ""))
				}
			}
		}
	}
}

// An opt-in format whose module is not linked is a clear error, naming
// the fix, not a crash.
func TestOptInFormatNotLinkedSaysPrepareAgain(t *testing.T) {
	f, ok := codec.Lookup("avro-hamba")
	if !ok || f.Module == "" || f.Linked() {
		t.Fatalf("avro-hamba: %+v", f)
	}
	_, err := f.New(fixtureSubjects(t)[0])
	if exitcode.Code(err) != exitcode.Unusable || !strings.Contains(err.Error(), "prepare again with avro-hamba in --formats") {
		t.Errorf("got %v", err)
	}
}

func TestParseRejectsUnknownFormatListingValidOnes(t *testing.T) {
	_, err := codec.Parse("json,protobuff")
	if err == nil {
		t.Fatal("want an error")
	}
	if exitcode.Code(err) != exitcode.Unusable {
		t.Errorf("exit code %d, want 2", exitcode.Code(err))
	}
	for _, want := range []string{`"protobuff"`, "protobuf", "avro", "cbor"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %s", err, want)
		}
	}
}

func TestDefaultFormatsAreTheDesignedThree(t *testing.T) {
	var got []string
	for _, n := range codec.Names() {
		if f, _ := codec.Lookup(n); f.Default {
			got = append(got, n)
		}
	}
	if strings.Join(got, ",") != "avro,json,protobuf" {
		t.Errorf("default formats %v", got)
	}
}

// protojson's random space after commas (chosen per binary) must not reach
// the measured bytes; spaces inside strings stay.
func TestProtojsonBytesDoNotDependOnTheBinary(t *testing.T) {
	for in, want := range map[string]string{
		`{"a":1, "b":"x, y", "c":[1, 2]}`: `{"a":1,"b":"x, y","c":[1,2]}`,
		`{"a":1,"b":"x, y","c":[1,2]}`:    `{"a":1,"b":"x, y","c":[1,2]}`,
		`{"s":"q\", r", "t":2}`:           `{"s":"q\", r","t":2}`,
	} {
		if got := string(codec.DropDetrandSpaces([]byte(in))); got != want {
			t.Errorf("%s → %s, want %s", in, got, want)
		}
	}
}

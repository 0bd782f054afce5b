package codec_test

import (
	"strings"
	"testing"

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

// Every format linked into this package's test binary; the opt-in ones
// (codec.Format.Module) are tested in their own modules.
func TestEveryFormatRoundTripsEveryFixtureRecord(t *testing.T) {
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
	if want := 3 * len(linked); len(cs) != want {
		t.Fatalf("got %d cases, want %d", len(cs), want)
	}
	if err := roundtrip.Check(cs); err != nil {
		t.Fatal(err)
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

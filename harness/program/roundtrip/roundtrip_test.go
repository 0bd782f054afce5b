package roundtrip_test

import (
	"strings"
	"testing"

	"github.com/wiregate/wiregate/harness/internal/fixture/wgplain"
	"github.com/wiregate/wiregate/harness/program/cases"
	"github.com/wiregate/wiregate/harness/program/codec"
	"github.com/wiregate/wiregate/harness/program/roundtrip"
	"github.com/wiregate/wiregate/harness/program/subject"
)

// lossy spoils every value its measured decode (codec.Decoder, what the
// gate checks) decodes, like a codec with a bug would.
type lossy struct {
	codec.Codec
	spoil func(v any)
}

func (l lossy) Decoder(into any) (func([]byte) error, error) {
	dec, err := l.Codec.Decoder(into)
	return func(b []byte) error {
		if err := dec(b); err != nil {
			return err
		}
		l.spoil(into)
		return nil
	}, err
}

func jsonCase(t *testing.T, message string) []*cases.Case {
	t.Helper()
	var sub subject.Subject
	for _, s := range wgplain.Subjects() {
		if s.Name() == message {
			sub = s
		}
	}
	f, _ := codec.Lookup("json")
	cs, err := cases.Build([]*subject.Subject{&sub}, []codec.Format{f}, cases.From{})
	if err != nil {
		t.Fatal(err)
	}
	return cs
}

func TestCheckNamesMessageFormatRecordAndField(t *testing.T) {
	cs := jsonCase(t, "telemetry.v1.TelemetryEvent")
	if err := roundtrip.Check(cs); err != nil {
		t.Fatalf("the honest codec fails: %v", err)
	}
	if cs[0].Cold.DecodeNs <= 0 || cs[0].Cold.EncodeNs <= 0 {
		t.Errorf("building and checking priced nothing: %+v", cs[0].Cold)
	}
	cs[0].Codec = lossy{cs[0].Codec, func(v any) { v.(*wgplain.Telemetry_v1_TelemetryEvent).Status = "" }}
	err := roundtrip.Check(cs)
	if err == nil {
		t.Fatal("a codec that drops a field passed the correctness gate")
	}
	for _, want := range []string{"telemetry.v1.TelemetryEvent/json", "record 0", "field status", "want \"ok\"", "got (unset)"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
}

// A map the decode loses is named as such: building the two maps to
// compare must not trip over the empty one (it panicked: an unset map
// field reads as a read-only map, which Set refuses).
func TestCheckNamesALostMap(t *testing.T) {
	cs := jsonCase(t, "orders.v1.Order")
	cs[0].Codec = lossy{cs[0].Codec, func(v any) { v.(*wgplain.Orders_v1_Order).Meta = nil }}
	err := roundtrip.Check(cs)
	if err == nil || !strings.Contains(err.Error(), "orders.v1.Order/json") || !strings.Contains(err.Error(), "field meta") {
		t.Fatalf("a codec that drops a map: %v", err)
	}
}

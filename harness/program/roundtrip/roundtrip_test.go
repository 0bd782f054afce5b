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

// lossy drops the status field on decode, like a codec with a bug would.
type lossy struct{ codec.Codec }

func (l lossy) Decode(b []byte, v any) error {
	if err := l.Codec.Decode(b, v); err != nil {
		return err
	}
	v.(*wgplain.Telemetry_v1_TelemetryEvent).Status = ""
	return nil
}

func TestCheckNamesMessageFormatRecordAndField(t *testing.T) {
	var tel subject.Subject
	for _, s := range wgplain.Subjects() {
		if s.Name() == "telemetry.v1.TelemetryEvent" {
			tel = s
		}
	}
	f, _ := codec.Lookup("json")
	cs, err := cases.Build([]*subject.Subject{&tel}, []codec.Format{f}, cases.From{})
	if err != nil {
		t.Fatal(err)
	}
	if err := roundtrip.Check(cs); err != nil {
		t.Fatalf("the honest codec fails: %v", err)
	}
	if cs[0].Cold.DecodeNs <= 0 || cs[0].Cold.EncodeNs <= 0 {
		t.Errorf("building and checking priced nothing: %+v", cs[0].Cold)
	}
	cs[0].Codec = lossy{cs[0].Codec}
	err = roundtrip.Check(cs)
	if err == nil {
		t.Fatal("a codec that drops a field passed the correctness gate")
	}
	for _, want := range []string{"telemetry.v1.TelemetryEvent/json", "record 0", "field status", "want \"ok\"", "got (unset)"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
}

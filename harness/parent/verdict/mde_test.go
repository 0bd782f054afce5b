package verdict

import (
	"strings"
	"testing"

	"github.com/wiregate/wiregate/harness/parent/report"
)

// A changed message's timing whose minimum detectable effect is above the
// time threshold (10% by default), or that no change could make
// significant, is named as unable to fail; one that could see a
// threshold-size slowdown is not; allocation counts are exact enough not
// to be named; a decision made again starts the list anew.
func TestTimingsThatCannotReachTheirThresholdAreNamed(t *testing.T) {
	sees := timing("encode", "sec/op", 1, 0.5)
	sees.MDE = f(4)
	blind := timing("decode", "sec/op", 1, 0.5)
	blind.MDE = f(25)
	never := timing("decode", "sec/op", 1, 0.5)
	never.MDEReason = "n=3 samples per side can never reach alpha=0.0008"
	allocs := timing("decode", "allocs/op", 0, 1)
	r := withFormat("json", nil, sees, blind, allocs)
	r.Messages[0].Formats = append(r.Messages[0].Formats, report.Format{Format: "avro", Metrics: []report.Metric{never}})
	Apply(r, defaults(), Allow{}, Options{})
	if got := strings.Join(r.UnableToFail, ","); got != msg+"/json/decode,"+msg+"/avro/decode" {
		t.Fatalf("unable to fail: %q", got)
	}
	Apply(r, defaults(), Allow{}, Options{})
	if len(r.UnableToFail) != 2 {
		t.Fatalf("decided again: %v", r.UnableToFail)
	}
	r.Messages[0].UnchangedSchema = true
	Apply(r, defaults(), Allow{}, Options{})
	if len(r.UnableToFail) != 0 {
		t.Fatalf("an unchanged schema's timings are not gated, so none is named: %v", r.UnableToFail)
	}
}

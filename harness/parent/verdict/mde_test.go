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

// A pipeline row is named as a timing is: one whose MDE is above the
// throughput threshold, or that has none, could not fail on a fall of
// the threshold's size. A figure that fails anyway (a fall far past its
// MDE) is a violation, not "unable to fail": the list never contradicts
// the verdict.
func TestPipelineRowsThatCannotReachTheirThresholdAreNamed(t *testing.T) {
	blind := pipeline("json", -1, 0.6)
	blind.Pipeline[0].MDE = f(30)
	Apply(blind, defaults(), Allow{}, Options{})
	if got := strings.Join(blind.UnableToFail, ","); got != msg+"/json/pipeline" {
		t.Fatalf("unable to fail: %q", got)
	}
	sees := pipeline("json", -1, 0.6)
	sees.Pipeline[0].MDE = f(4)
	if Apply(sees, defaults(), Allow{}, Options{}); len(sees.UnableToFail) != 0 {
		t.Fatalf("a row that could see a 10%% fall is named: %v", sees.UnableToFail)
	}
	fails := pipeline("json", -40, 0.001)
	fails.Pipeline[0].MDE = f(30)
	Apply(fails, defaults(), Allow{}, Options{})
	if len(fails.UnableToFail) != 0 || len(fails.Violations) != 1 || fails.Violations[0].Kind != report.KindThroughput {
		t.Fatalf("a row that fails: unable %v, violations %+v", fails.UnableToFail, fails.Violations)
	}
	slow := timing("decode", "sec/op", 40, 0.001)
	slow.MDE = f(30)
	timed := withFormat("json", nil, slow)
	if Apply(timed, defaults(), Allow{}, Options{}); len(timed.UnableToFail) != 0 || len(timed.Violations) != 1 {
		t.Fatalf("a timing that fails: unable %v, violations %+v", timed.UnableToFail, timed.Violations)
	}
}

package codec_test

import (
	"testing"

	"github.com/wiregate/wiregate/harness/internal/codectest"
	"github.com/wiregate/wiregate/harness/program/codec"
)

const repoAvsc = "../../../schemas/telemetry/v1/telemetry_event.avsc"

// TestAvroBytesAreTheRecordedOnes: twmb/avro writes, record for record,
// the data hamba/avro wrote for this repo's messages before the move, and
// reads hamba's bytes back. It frames arrays and maps with a plain count
// where hamba adds each block's byte size, so bytes/msg is today's minus
// those sizes: equal to the byte for telemetry (no arrays or maps), smaller
// for the others.
func TestAvroBytesAreTheRecordedOnes(t *testing.T) {
	f, _ := codec.Lookup("avro")
	got := codectest.GoldenAvro(t, f, codectest.Subjects(t, repoAvsc), "testdata/avro-golden")
	for msg, before := range codectest.RecordedSizes {
		g := got[msg]
		if g.Recorded != before {
			t.Errorf("%s: the recorded bytes are %v bytes/msg, `wiregate sizes` measured %v", msg, g.Recorded, before)
		}
		t.Logf("%s: %v bytes/msg before, %v now", msg, g.Recorded, g.Written)
		if g.Written != g.Canonical {
			t.Errorf("%s: avro writes %v bytes/msg, the recorded data without block sizes is %v", msg, g.Written, g.Canonical)
		}
	}
	if tel := got["telemetry.v1.TelemetryEvent"]; tel.Written != tel.Recorded {
		t.Errorf("telemetry: %v bytes/msg, %v before the move", tel.Written, tel.Recorded)
	}
}

// TestStringPolicyIsTrue: every linked format's Aliasing flag says what its
// decoder does with strings.
func TestStringPolicyIsTrue(t *testing.T) {
	subjects := codectest.Subjects(t, repoAvsc)
	for _, n := range codec.Names() {
		f, _ := codec.Lookup(n)
		if !f.Linked() {
			continue
		}
		t.Run(n, func(t *testing.T) { codectest.StringPolicy(t, f, subjects) })
	}
}

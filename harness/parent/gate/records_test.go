package gate_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A pooled message's samples are read strictly under head's schema once,
// by the split that pools them: a misspelt field is still caught there,
// the file and line named, and nothing is measured on them.
func TestAPooledMessagesBadSamplesAreCaughtBySplit(t *testing.T) {
	base, head := checkouts(t)
	addEventName(t, head) // head changes the message: it is pooled
	samples := t.TempDir()
	file := filepath.Join(samples, "telemetry.v1.TelemetryEvent.jsonl")
	if err := os.WriteFile(file, []byte("{\"deviceId\":\"d-1\"}\n{\"deviceId\":\"d-2\",\"bogus\":1}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := eventNameRun(t, base, head, func(in map[string]string) { in["samples"] = samples })
	all := strings.Join(r.Errors, "\n")
	if r.ExitCode != 2 || !strings.Contains(all, file+":2") || !strings.Contains(all, "protojson") {
		t.Fatalf("exit %d, errors %q: want the samples' line named as not valid protojson", r.ExitCode, r.Errors)
	}
	if len(r.Messages) > 0 && r.Messages[0].Records != nil {
		t.Errorf("records %+v measured on bad samples", r.Messages[0].Records)
	}
}

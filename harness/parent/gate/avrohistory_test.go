package gate_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wiregate/wiregate/harness/parent/gate"
	"github.com/wiregate/wiregate/harness/parent/report"
)

// Three versions of an Avro record: v2 adds zone with a default (BACKWARD
// against v1), v3 drops the default, which v2's data never needs but v1's
// does: v3 is BACKWARD against v2 only.
const (
	eventV1 = `{"type": "record", "name": "Event", "namespace": "compat", "fields": [{"name": "id", "type": "string"}]}`
	eventV2 = `{"type": "record", "name": "Event", "namespace": "compat", "fields": [{"name": "id", "type": "string"}, {"name": "zone", "type": "string", "default": ""}]}`
	eventV3 = `{"type": "record", "name": "Event", "namespace": "compat", "fields": [{"name": "id", "type": "string"}, {"name": "zone", "type": "string"}]}`
)

func writeEvent(t *testing.T, dir, schema string) {
	t.Helper()
	os.MkdirAll(filepath.Join(dir, "compat"), 0o755)
	if err := os.WriteFile(filepath.Join(dir, "compat", "event.avsc"), []byte(schema), 0o644); err != nil {
		t.Fatal(err)
	}
}

func transitive(in map[string]string, o *gate.Options) {
	in["avro-compatibility"], in["avro-schemas"], in["formats"] = "BACKWARD_TRANSITIVE", "compat/*.avsc", "protobuf"
}

func avroFindings(r *report.Report) int {
	n := 0
	for _, f := range r.Findings {
		if f.Kind == report.KindAvro {
			n++
		}
	}
	return n
}

// Avro history: a _TRANSITIVE level where the base has no whole history (a plain
// directory, a shallow clone) checks the one pair it can and says so in one
// warning; with the history it checks every earlier version.
func TestTransitiveAvroWithoutHistoryChecksOnePairAndSaysSo(t *testing.T) {
	base, head := checkouts(t)
	writeEvent(t, base, eventV1)
	writeEvent(t, head, eventV3)
	r := run(t, base, head, transitive)
	if len(r.Errors) != 0 || avroFindings(r) != 1 {
		t.Fatalf("plain directories, v1 → v3: errors %v, findings %+v", r.Errors, r.Findings)
	}
	if len(r.Warnings) != 1 || !strings.Contains(r.Warnings[0], "BACKWARD_TRANSITIVE, but each .avsc was checked against the base's version only") ||
		!strings.Contains(r.Warnings[0], base+") is not a git checkout") {
		t.Errorf("warnings %q", r.Warnings)
	}

	// A repository whose history has v1 then v2; head's working tree has v3.
	repo := t.TempDir()
	for _, f := range []string{"schemas", "buf.yaml"} {
		os.Rename(filepath.Join(head, f), filepath.Join(repo, f))
	}
	gitIn(t, repo, "init", "-q", "-b", "main")
	for _, v := range []string{eventV1, eventV2} {
		writeEvent(t, repo, v)
		gitIn(t, repo, "add", ".")
		gitIn(t, repo, "commit", "-qm", "event")
	}
	shallow := filepath.Join(t.TempDir(), "shallow")
	gitIn(t, repo, "clone", "-q", "--depth", "1", "file://"+repo, shallow)
	againstHEAD := func(dir string) func(in map[string]string, o *gate.Options) {
		return func(in map[string]string, o *gate.Options) {
			transitive(in, o)
			in["working-directory"], o.BaseDir, o.BaseRef = dir, "", "HEAD"
		}
	}
	writeEvent(t, repo, eventV3)
	if r := run(t, "", repo, againstHEAD(repo)); len(r.Errors) != 0 || avroFindings(r) != 1 || len(r.Warnings) != 0 {
		t.Errorf("whole history: v3 breaks v1: errors %v, findings %+v, warnings %q", r.Errors, r.Findings, r.Warnings)
	}
	writeEvent(t, shallow, eventV3)
	r = run(t, "", shallow, againstHEAD(shallow))
	if len(r.Errors) != 0 || avroFindings(r) != 0 || len(r.Warnings) != 1 || !strings.Contains(r.Warnings[0], "is a shallow clone") {
		t.Errorf("shallow clone: v3 against v2 only: errors %v, findings %+v, warnings %q", r.Errors, r.Findings, r.Warnings)
	}
}

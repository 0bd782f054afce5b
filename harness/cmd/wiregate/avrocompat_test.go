package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wiregate/wiregate/harness/parent/report"
)

func TestAvroCompatCLI(t *testing.T) {
	td := filepath.Join("..", "..", "parent", "avrocompat", "testdata")
	v1, v2 := filepath.Join(td, "order_v1.avsc.json"), filepath.Join(td, "order_v2_region.avsc.json")

	r := runWiregate(t, "avro-compat", "--level", "FORWARD", v1, v2)
	if r.code != 0 || r.stdout != "" {
		t.Errorf("FORWARD (old readers ignore the new field): %+v", r)
	}
	r = runWiregate(t, "avro-compat", "--level", "BACKWARD", v1, v2)
	if r.code != 1 || !strings.Contains(r.stdout, v2+":9: new readers cannot read old data: record `fixture.v1.Order`: field `region` has no default") {
		t.Errorf("BACKWARD: %+v", r)
	}
	r = runWiregate(t, "avro-compat", v2, v1, "--level", "FULL", "--json")
	var fs []report.Finding
	if err := json.Unmarshal([]byte(r.stdout), &fs); err != nil || r.code != 1 || len(fs) != 1 || !strings.Contains(fs[0].Message, "old readers cannot read new data") {
		t.Errorf("FULL, region removed: %+v %v", r, err)
	}

	base, head := t.TempDir(), t.TempDir()
	for dir, src := range map[string]string{base: v1, head: v2} {
		data, _ := os.ReadFile(src)
		os.MkdirAll(filepath.Join(dir, "s"), 0o755)
		os.WriteFile(filepath.Join(dir, "s", "order.avsc"), data, 0o644)
	}
	r = runWiregate(t, "avro-compat", "--level", "BACKWARD", base, head)
	if r.code != 1 || !strings.HasPrefix(r.stdout, "s/order.avsc:9: ") {
		t.Errorf("directories: %+v", r)
	}
	// A transitive level with no history to read checks the one pair and says so.
	r = runWiregate(t, "avro-compat", "--level", "BACKWARD_TRANSITIVE", "--history-ref", "HEAD", base, head)
	if r.code != 1 || !strings.HasPrefix(r.stdout, "s/order.avsc:9: ") ||
		!strings.Contains(r.stderr, "BACKWARD_TRANSITIVE checked only one pair: each schema was checked against BASE_DIR's version only: HEAD_DIR is not a git checkout") {
		t.Errorf("transitive, no git history: %+v", r)
	}

	wantBadInput(t, runWiregate(t, "avro-compat", "--level", "SIDEWAYS", v1, v2), `"SIDEWAYS" is not one of BACKWARD, FORWARD, FULL`)
	wantBadInput(t, runWiregate(t, "avro-compat", filepath.Join(td, "order_v1.avsc.json"), filepath.Join(td, "bad_json.avsc.json")), "bad_json.avsc.json: not JSON")
	wantBadInput(t, runWiregate(t, "avro-compat", v1, filepath.Join(td, "bad_schema.avsc.json")), "bad_schema.avsc.json: not a valid Avro schema")
	wantBadInput(t, runWiregate(t, "avro-compat", v1), "want OLD.avsc NEW.avsc")
	wantBadInput(t, runWiregate(t, "avro-compat", v1, "nope.avsc"), "nope.avsc: cannot read it")
}

package gate_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wiregate/wiregate/harness/parent/gate"
	"github.com/wiregate/wiregate/harness/parent/report"
)

var update = flag.Bool("update", false, "rewrite ../../test/fixtures/*.json from real gate runs (scripts/fixtures.sh)")

// fixtures are the action's test reports: real `wiregate gate` output, so
// the TypeScript renderer is tested on what Go writes.
const fixtures = "../../../test/fixtures"

// The action's fixtures must be what this code writes: each decodes into
// report.Report with no unknown field and encodes back byte for byte (a
// renamed, dropped or retyped field, or a new field Go always writes, fails
// here). Regenerate them with scripts/fixtures.sh.
func TestActionFixturesAreFresh(t *testing.T) {
	for _, name := range []string{"pass", "all", "fail", "allowed"} {
		path := filepath.Join(fixtures, name+".json")
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var r report.Report
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&r); err != nil {
			t.Errorf("%s is stale (%v): run scripts/fixtures.sh", path, err)
			continue
		}
		out, err := json.MarshalIndent(&r, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(append(out, '\n'), b) {
			t.Errorf("%s is not what report.Write writes: run scripts/fixtures.sh", path)
		}
	}
}

// TestUpdateActionFixtures makes the fixtures from four real gate runs on
// this repo's schemas, pipeline included: identical sides (pass: no schema
// changed, nothing measured), the same measuring every message (all), a
// renumbered field, a repeated field added and the same content made to
// cost more (fail: breaking, size, cpu and allocations, the addition
// stated), and the same with both allow labels (allowed: pass, everything
// allowed).
func TestUpdateActionFixtures(t *testing.T) {
	if !*update {
		t.Skip("run with -update (scripts/fixtures.sh) to regenerate")
	}
	edit := func(in map[string]string, o *gate.Options) {
		in["messages"] = "telemetry.v1.TelemetryEvent,orders.v1.Order"
		in["pipeline"], in["pipeline-messages"], in["broker"], in["count"] = "true", "20000", "embedded", "5"
		o.BaseLabel, o.HeadLabel, o.HeadSha = "main", "feature", strings.Repeat("b", 40)
	}
	write := func(name string, r *report.Report, base, head string) {
		r.Base.Sha = strings.Repeat("a", 40)
		b, err := json.MarshalIndent(r, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		// Temp directories are the only thing that differs between machines.
		s := strings.NewReplacer(base, "/tmp/base", head, "/tmp/head").Replace(string(b))
		if err := os.WriteFile(filepath.Join(fixtures, name+".json"), []byte(s+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	base, head := checkouts(t)
	write("pass", run(t, base, head, edit), base, head)
	write("all", run(t, base, head, func(in map[string]string, o *gate.Options) { edit(in, o); in["measure"] = "all" }), base, head)

	base, head = checkouts(t)
	releasedAndRecorded(t, head)
	replaceIn(t, filepath.Join(head, "schemas/orders/v1/order.proto"), "double price = 2;", "double price = 12;")
	replaceIn(t, filepath.Join(head, telemetryProto), "string region = 12;", "string region = 12;\n  repeated string tags = 13;")
	replaceIn(t, filepath.Join(head, "schemas/telemetry/v1/telemetry_event.avsc"),
		`{"name": "region", "type": "string"}`, `{"name": "region", "type": "string"},
    {"name": "tags", "type": {"type": "array", "items": "string"}, "default": []}`)
	costMore(t, head)
	release := func(in map[string]string, o *gate.Options) {
		edit(in, o)
		in["breaking-against"] = "latest-tag:v*"
	}
	write("fail", run(t, base, head, release), base, head)
	write("allowed", run(t, base, head, func(in map[string]string, o *gate.Options) {
		release(in, o)
		labeled(o, "wiregate allow breaking", "wiregate allow regression")
	}), base, head)
}

// releasedAndRecorded gives head (still this repo's schemas) a history: v1;
// v2 adds Order.note; a later commit deletes it again. Each commit is
// gated as a push to main would be, recording its exact figures on a bare
// origin's history branch. A change on top then breaks v2 in one more
// way than it breaks the base, and its PR comment has history to chart.
func releasedAndRecorded(t *testing.T, head string) {
	origin := filepath.Join(t.TempDir(), "origin.git")
	gitIn(t, head, "init", "-q", "--bare", "-b", "main", origin)
	gitIn(t, head, "init", "-q", "-b", "main")
	gitIn(t, head, "remote", "add", "origin", origin)
	record := func(message string) {
		gitIn(t, head, "add", ".")
		gitIn(t, head, "commit", "-qm", message)
		r := run(t, "", head, func(in map[string]string, o *gate.Options) {
			in["messages"] = "telemetry.v1.TelemetryEvent,orders.v1.Order"
			o.BaseDir, o.BaseRef, o.RecordHistory = "", "HEAD", true
		})
		if r.History == nil || r.History.Recorded == "" {
			t.Fatalf("%s not recorded: %+v %q", message, r.History, r.Warnings)
		}
	}
	record("v1")
	gitIn(t, head, "tag", "v1")
	replaceIn(t, filepath.Join(head, "schemas/orders/v1/order.proto"), "map<string, string> meta = 7;", "map<string, string> meta = 7;\n  string note = 8;")
	record("v2: Order.note")
	gitIn(t, head, "tag", "v2")
	replaceIn(t, filepath.Join(head, "schemas/orders/v1/order.proto"), "\n  string note = 8;", "")
	record("drop Order.note")
}

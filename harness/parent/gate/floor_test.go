package gate_test

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/wiregate/wiregate/harness/parent/gate"
	"github.com/wiregate/wiregate/harness/parent/report"
)

// mapsModule is a module of the shapes whose counts vary by hash seed:
// maps (every lookup walks a seeded hash), small messages (a few
// instructions of seed luck are a large share of them), repeated fields.
const mapsModule = `syntax = "proto3";

package floors.v1;

// Labels holds maps.
message Labels {
  map<string, string> labels = 1;
  map<string, int64> counters = 2;
  string name = 3;
}

// Tiny is three fields.
message Tiny {
  int32 a = 1;
  bool b = 2;
  string c = 3;
}

// Rows repeats a small message.
message Rows {
  repeated Row rows = 1;
}

// Row is one row.
message Row {
  int64 id = 1;
  repeated string tags = 2;
  double value = 3;
}
`

// wideModule is one message of a hundred scalar fields and no map: adding
// one more costs about one part in a hundred more work per operation.
func wideModule(extra bool) string {
	return wideWith(func(i int, field string) string { return field }, extra)
}

// wideWith is wideModule with each field's declaration as edit makes it.
func wideWith(edit func(i int, field string) string, extra bool) string {
	var b strings.Builder
	b.WriteString("syntax = \"proto3\";\n\npackage wide.v1;\n\n// Wide has many scalar fields.\nmessage Wide {\n")
	for i := 1; i <= 100; i++ {
		kind := []string{"int32", "int64", "double", "bool"}[i%4]
		b.WriteString(edit(i, fmt.Sprintf("  %s f%02d = %d;\n", kind, i, i)))
	}
	if extra {
		b.WriteString("  int32 f101 = 101;\n")
	}
	b.WriteString("}\n")
	return b.String()
}

// module writes a buf module of one file.
func module(t *testing.T, path, proto string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "buf.yaml"), []byte("version: v2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, path)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(proto), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// An A/A of maps, small messages and repeated fields, counted at a 0.5%
// cpu-threshold: every count comes from cpu-processes processes a side, every
// instr/op delta lies within the floor the report states for it, and
// nothing fails. Where a message's own counts spread past its format's
// floor, the floor it states is theirs.
func TestAAOfSeedSensitiveMessagesStaysWithinItsFloors(t *testing.T) {
	requireValgrind(t)
	dir := module(t, "floors/v1/floors.proto", mapsModule)
	r := run(t, dir, dir, func(in map[string]string, o *gate.Options) {
		in["working-directory"], in["messages"], in["measure"], in["cpu-threshold"] = dir, "", "all", "0.5%"
		in["lint"], in["breaking"] = "false", "false"
	})
	if len(r.Errors) != 0 {
		t.Fatalf("errors %v", r.Errors)
	}
	metrics := instrs(r)
	if len(metrics) != 4*3*2 {
		t.Fatalf("%d instr/op metrics, want 4 messages × 3 formats × 2 ops", len(metrics))
	}
	own := 0
	for s, m := range metrics {
		if m.Base.N < 2 || m.Head.N < 2 {
			t.Errorf("%s: %d and %d processes, want at least 2 a side", s, m.Base.N, m.Head.N)
		}
		if m.NoiseFloor == nil || math.Abs(*m.DeltaPct) > *m.NoiseFloor {
			t.Errorf("%s: A/A delta %.3f%% outside its floor %v", s, *m.DeltaPct, m.NoiseFloor)
		}
		if m.NoiseFloorFrom == report.FloorFromCounts {
			own++
		}
	}
	for _, v := range r.Violations {
		if v.Kind == report.KindCPU {
			t.Errorf("A/A cpu violation at 0.5%%: %+v", v)
		}
	}
	t.Logf("%d of %d floors set by the counts' own spread", own, len(metrics))
}

// A real change of the same content of about +1% on a message without
// maps (one of its hundred fields given explicit presence, no byte moved)
// still fails at a 0.5% cpu-threshold: its processes a
// side spread by far less, so its floor stays its format's.
func TestARealOnePercentChangeStillFails(t *testing.T) {
	requireValgrind(t)
	base := module(t, "wide/v1/wide.proto", wideModule(false))
	head := module(t, "wide/v1/wide.proto", wideWith(func(i int, field string) string {
		if i == 10 {
			return "  optional" + field[1:]
		}
		return field
	}, false))
	r := run(t, base, head, func(in map[string]string, o *gate.Options) {
		in["working-directory"], in["messages"], in["formats"], in["cpu-threshold"] = head, "wide.v1.Wide", "protobuf", "0.5%"
		in["breaking"] = "false"
	})
	if len(r.Errors) != 0 {
		t.Fatalf("errors %v", r.Errors)
	}
	var failed []string
	for s, m := range instrs(r) {
		t.Logf("%s: %+.2f%% (floor %.2f%%, %s)", s, *m.DeltaPct, *m.NoiseFloor, m.NoiseFloorFrom)
		if *m.DeltaPct > 1.5 {
			t.Errorf("%s: +%.2f%%: not the small change this test is about", s, *m.DeltaPct)
		}
	}
	for _, v := range r.Violations {
		if v.Kind == report.KindCPU {
			failed = append(failed, v.Subject)
		}
	}
	slices.Sort(failed)
	if !slices.Contains(failed, "wide.v1.Wide/protobuf/decode/instr") {
		t.Fatalf("cpu violations %v: the protobuf decode change did not fail", failed)
	}
}

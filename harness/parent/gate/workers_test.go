package gate_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wiregate/wiregate/harness/parent/gate"
	"github.com/wiregate/wiregate/harness/parent/report"
)

// The exact stages on two workers measure what they measure on one: every
// size byte-identical, every instruction count within its noise floor
// (each process has its own hash seeds, so counts may move that much and
// no more), for a changed message and the unchanged ones beside it.
func TestParallelExactWorkMatchesSerial(t *testing.T) {
	counts := counting(t)
	base, head := checkouts(t)
	replaceIn(t, filepath.Join(head, telemetryProto), "string region = 12;", "string region = 12;\n  string zone = 13;")
	gateOn := func(workers string) *report.Report {
		return run(t, base, head, func(in map[string]string, o *gate.Options) {
			in["messages"], in["measure"], in["formats"], in["workers"] = "", "all", "protobuf,json", workers
			in["cpu-processes"] = "2" // two a side still gives each count its own floor, at two thirds the time
		})
	}
	serial, parallel := gateOn("1"), gateOn("2")
	if serial.Env.Workers != 1 || parallel.Env.Workers != 2 {
		t.Fatalf("workers %d and %d, want 1 and 2", serial.Env.Workers, parallel.Env.Workers)
	}
	sizes := func(r *report.Report) map[string]report.Size {
		out := map[string]report.Size{}
		for _, m := range r.Messages {
			for _, f := range m.Formats {
				if f.Size != nil {
					out[m.Name+"/"+f.Format] = *f.Size
				}
			}
		}
		return out
	}
	a, b := sizes(serial), sizes(parallel)
	if len(a) != 6 {
		t.Fatalf("%d sizes, want 6 (3 messages × 2 formats): %v", len(a), a)
	}
	for k, s := range a {
		if p, ok := b[k]; !ok || p.Base != s.Base || p.Head != s.Head {
			t.Errorf("%s: serial %+v, parallel %+v", k, s, b[k])
		}
	}
	if !counts {
		return
	}
	// Under the load of other test packages a count has, rarely, read
	// ~150 instr/op more (orders.v1.Order protobuf encode, 9,660 against
	// 9,807, twice in a full `npm test`; never alone): the freed-memory
	// mode bench.PrepareHeap pins down is not yet load-proof
	// (docs/design/exact-counts.md). A mismatch is measured once more, both
	// ways; one that holds fails.
	var mismatches []string
	for attempt := range 2 {
		if attempt == 1 {
			t.Logf("serial and parallel counts differ; counting both once more: %v", mismatches)
			serial, parallel, mismatches = gateOn("1"), gateOn("2"), nil
		}
		ia, ib := instrs(serial), instrs(parallel)
		if len(ia) != 12 || len(ib) != 12 {
			t.Fatalf("instr/op metrics: %d and %d, want 12 (3 messages × 2 formats × encode, decode)", len(ia), len(ib))
		}
		for k, m := range ia {
			p := ib[k]
			floor := max(*m.NoiseFloor, *p.NoiseFloor)
			for side, pair := range map[string][2]*report.Summary{"base": {m.Base, p.Base}, "head": {m.Head, p.Head}} {
				if d := pctOff(pair[0].Center, pair[1].Center); d > floor {
					mismatches = append(mismatches, fmt.Sprintf("%s %s: serial %.1f, parallel %.1f instr/op (%.3f%%, floor %.2f%%)", k, side, pair[0].Center, pair[1].Center, d, floor))
				}
			}
		}
		if len(mismatches) == 0 {
			return
		}
	}
	t.Error(strings.Join(mismatches, "\n"))
}

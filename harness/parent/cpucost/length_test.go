package cpucost

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/wiregate/wiregate/harness/program/record"
)

// A count is as long as its precision needs: a tiny message's covers more
// rotations than a mid one's, a large one's only the first records of the
// pool, and in every one the fixed cost per loop stays under precisionShare
// of the floor. The warm-up shrinks with the operation's cost and always covers
// the counted span.
func TestLengthFollowsThePrecisionANoiseFloorNeeds(t *testing.T) {
	tiny := LengthFor("protobuf", 1_000)
	small := LengthFor("protobuf", 5_000)
	mid := LengthFor("protobuf", 25_000)
	large := LengthFor("json", 2_000_000)
	if !(tiny.Ops() >= small.Ops() && small.Ops() > mid.Ops() && mid.Ops() > large.Ops()) {
		t.Fatalf("ops: tiny %d, small %d, mid %d, large %d", tiny.Ops(), small.Ops(), mid.Ops(), large.Ops())
	}
	if tiny.Span.Passes < 2 || tiny.Span.Records != 0 {
		t.Errorf("tiny: %+v, want whole rotations", tiny.Span)
	}
	if mid.Span.Passes != 1 || mid.Ops() != record.PoolSize {
		t.Errorf("mid: %+v, want one rotation", mid.Span)
	}
	if large.Span.Records == 0 || large.Span.Records >= record.PoolSize || large.Span.Records < minRecords {
		t.Errorf("large: %+v, want a prefix of at least %d records", large.Span, minRecords)
	}
	for _, c := range []struct {
		format string
		instr  float64
	}{{"protobuf", 1_000}, {"protobuf", 3_400}, {"protobuf", 50_000}, {"json", 10_000}, {"json", 2_000_000}, {"msgpack", 300_000}} {
		l := LengthFor(c.format, c.instr)
		if fixed := FixedLoopInstr / float64(l.Ops()); fixed > precisionShare*FloorInstr(c.format, c.instr) && l.Span.Passes < maxPasses {
			t.Errorf("%s at %.0f instr/op: %d ops leave %.1f instr/op of fixed cost against a floor of %.1f", c.format, c.instr, l.Ops(), fixed, FloorInstr(c.format, c.instr))
		}
		if l.Warm < l.Ops() {
			t.Errorf("%s at %.0f: warm %d < counted %d", c.format, c.instr, l.Warm, l.Ops())
		}
	}
	if !(LengthFor("json", 2_000_000).Warm < LengthFor("json", 10_000).Warm) {
		t.Errorf("a costly op is warmed with as many operations as a cheap one")
	}
	if unknown := LengthFor("protobuf", 0); unknown.Ops() < small.Ops() {
		t.Errorf("unknown cost counts %d ops, fewer than a small message's %d", unknown.Ops(), small.Ops())
	}
}

// A format's bytes-to-instructions estimate stays at or under the fewest
// instructions a byte its cheaper op ran on the measured module, so a count
// sized from it is never shorter than its precision asks on those records;
// a format with no estimate of its own uses the default.
func TestInstrPerByteStaysUnderTheMeasured(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "..", "docs", "results", "instr-per-byte.txt"))
	if err != nil {
		t.Fatal(err)
	}
	least := map[string]float64{}
	for _, m := range regexp.MustCompile(`(?m)^## (\w+): cheaper op min ([0-9.]+)`).FindAllStringSubmatch(string(b), -1) {
		least[m[1]], _ = strconv.ParseFloat(m[2], 64)
	}
	if len(least) != 3 {
		t.Fatalf("read %d formats' least instructions a byte, want 3: the file's format changed?", len(least))
	}
	for format, k := range instrPerByte {
		min, ok := least[format]
		if !ok {
			t.Errorf("%s: %v instr/byte with no measurement behind it", format, k)
			continue
		}
		if k > min {
			t.Errorf("%s: %v instr/byte, over the %v measured at the least", format, k, min)
		}
		if got := EstimateInstr(format, 1000); got != 1000*k {
			t.Errorf("%s: EstimateInstr of 1,000 bytes = %v, want %v", format, got, 1000*k)
		}
	}
	if got := EstimateInstr("avro", 1000); got != 1000*defaultInstrPerByte {
		t.Errorf("avro: EstimateInstr of 1,000 bytes = %v, want the default's %v", got, 1000*defaultInstrPerByte)
	}
}

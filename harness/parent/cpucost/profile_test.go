package cpucost

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"
)

// A loop's dump in callgrind's format: the loop decodes through
// proto.Unmarshal, which runs the table-driven decoder, which calls
// ConsumeVarint and mallocgc (the latter twice as often as the loop's own
// call to it); the decoder recurses into itself (a nested message); the
// callers' call costs (the lines after calls=) are made wrong on purpose,
// as callgrind's are where Go switches stacks, and must not matter; so is
// mallocgc's one "call" back into the decoder (a cycle against the
// decoder's 20 calls to it), which callgrind reports where Go switches
// stacks, and which must not count the decoder inside itself.
const profileDump = `# callgrind format
version: 1
positions: line
events: Ir
desc: Trigger: Client Request: wiregate BenchmarkDecode/a.v1.B/protobuf ops=10
summary: 2000

fl=(1) bench/loop.go
fn=(1) wiregate.local/bench/a/v1.(*B).ProtoReflect
3 20
fn=(2) github.com/wiregate/wiregate/harness/program/bench.loop
5 100
cfn=(3) google.golang.org/protobuf/proto.UnmarshalOptions.unmarshal
calls=10 7
5 999999
cfn=(4) runtime.mallocgc
calls=10 3
+1 1
cfn=(1)
calls=10 3
* 5
fn=(3)
7 200
+1 50
cfn=(5) google.golang.org/protobuf/internal/impl.(*MessageInfo).unmarshalPointer
calls=10 9
8 1
fn=(5)
9 300
cfn=(5)
calls=5 9
9 77777
cfn=(6) google.golang.org/protobuf/encoding/protowire.ConsumeVarint
calls=30 2
9 3
cfn=(4)
calls=20 3
9 3
cfn=(7) runtime.typeAssert
calls=1 2
9 90
fn=(6)
2 600
fn=(4)
3 240
cfn=(5)
calls=1 9
3 18446744073631287439
fn=(7)
2 90
`

func TestReadDumpKeepsSelfCostsAndCalls(t *testing.T) {
	p := filepath.Join(t.TempDir(), "callgrind.out.1")
	os.WriteFile(p, []byte(profileDump), 0o644)
	d, err := readDump(p, true)
	if err != nil {
		t.Fatal(err)
	}
	self := map[string]uint64{
		"github.com/wiregate/wiregate/harness/program/bench.loop":                  100,
		"google.golang.org/protobuf/proto.UnmarshalOptions.unmarshal":              250,
		"google.golang.org/protobuf/internal/impl.(*MessageInfo).unmarshalPointer": 300,
		"google.golang.org/protobuf/encoding/protowire.ConsumeVarint":              600,
		"runtime.mallocgc": 240,
	}
	for fn, want := range self {
		if got := d.graph.self[fn]; got != want {
			t.Errorf("self of %s: %d, want %d (a call's cost is not the caller's own)", fn, got, want)
		}
	}
	if n := d.graph.calls[[2]string{"google.golang.org/protobuf/internal/impl.(*MessageInfo).unmarshalPointer", "runtime.mallocgc"}]; n != 20 {
		t.Errorf("decoder → mallocgc: %d calls, want 20", n)
	}
	if d.slowIr != 90 {
		t.Errorf("slow paths %d, want 90", d.slowIr)
	}
	if plain, _ := readDump(p, false); plain.graph != nil {
		t.Error("a dump read without profiles kept its call graph")
	}
}

func TestProfileRebuildsInclusiveCostFromSelfCostsAndCalls(t *testing.T) {
	p := filepath.Join(t.TempDir(), "callgrind.out.1")
	os.WriteFile(p, []byte(profileDump), 0o644)
	d, err := readDump(p, true)
	if err != nil {
		t.Fatal(err)
	}
	prof := profileOf(*d.graph, 10)
	// allocation is called 30 times: 10 from the loop, 20 from the
	// decoder, so the decoder includes 2/3 of its 240.
	want := map[string]FuncCost{
		"bench.loop":                       {KindFunction, 10, (100 + 250 + 300 + 600 + 240 + 20) / 10.0},
		"proto.UnmarshalOptions.unmarshal": {KindFunction, 25, (250 + 300 + 600 + 160) / 10.0},
		GroupDecoder:                       {KindGroup, 30, (300 + 600 + 160) / 10.0},
		"protowire.ConsumeVarint":          {KindFunction, 60, 60},
		GroupAllocation:                    {KindGroup, 24, 24},
		"v1.(*B).ProtoReflect":             {KindGenerated, 2, 2},
	}
	for name, w := range want {
		got, ok := prof[name]
		if !ok {
			t.Errorf("no line %q in %v", name, prof)
			continue
		}
		if got.Kind != w.Kind || math.Abs(got.Self-w.Self) > 1e-9 || math.Abs(got.Inclusive-w.Inclusive) > 1e-9 {
			t.Errorf("%s: %+v, want %+v", name, got, w)
		}
	}
	if len(prof) != len(want) {
		t.Errorf("%d lines, want %d (the uncached type assertion left out): %v", len(prof), len(want), prof)
	}
}

func TestReadableNames(t *testing.T) {
	for _, c := range []struct{ symbol, name, kind string }{
		{"encoding/json.(*decodeState).object", "json.(*decodeState).object", KindFunction},
		{"google.golang.org/protobuf/encoding/protowire.ConsumeVarint", "protowire.ConsumeVarint", KindFunction},
		{"slices.SortFunc[go.shape.[]string,go.shape.func(a/b.T)]", "slices.SortFunc[go.shape.[]string,go.shape.func(a/b.T)]", KindFunction},
		{"runtime.mallocgcSmallNoscan", GroupAllocation, KindGroup},
		{"runtime.gcWriteBarrier2", GroupAllocation, KindGroup},
		{"runtime.mallocgcTiny'2", GroupAllocation, KindGroup},
		{"runtime.(*mspan).nextFreeIndex", GroupAllocation, KindGroup},
		{"runtime.memmove", "runtime.memmove", KindFunction},
		{"google.golang.org/protobuf/internal/impl.consumeStringValidateUTF8", GroupDecoder, KindGroup},
		{"google.golang.org/protobuf/internal/impl.consumeMap", "impl.consumeMap", KindFunction},
		{"google.golang.org/protobuf/internal/impl.(*MessageInfo).marshalAppendPointer", "impl.(*MessageInfo).marshalAppendPointer", KindFunction},
		{"wiregate.local/bench/gen/shop/v1.(*Receipt).ProtoReflect", "v1.(*Receipt).ProtoReflect", KindGenerated},
		{"runtime.getitab", "", ""},
		{"0x0000000000401000", "0x0000000000401000", KindFunction},
	} {
		name, kind := readableName(c.symbol)
		if name != c.name || kind != c.kind {
			t.Errorf("%s: %q (%s), want %q (%s)", c.symbol, name, kind, c.name, c.kind)
		}
	}
}

// BenchmarkReadDump reads every dump of a count kept with --keep-dumps
// ($WIREGATE_DUMPS), without and with its profile: what the profiles add
// to the cpu stage (scripts/figures/profiles.sh; docs/figures.md, "What do
// function profiles name, and what do they cost?").
func BenchmarkReadDump(b *testing.B) {
	dir := os.Getenv("WIREGATE_DUMPS")
	if dir == "" {
		b.Skip("set WIREGATE_DUMPS to a --keep-dumps directory")
	}
	paths, _ := filepath.Glob(filepath.Join(dir, "*", "callgrind.out*"))
	if len(paths) == 0 {
		b.Fatalf("no dumps below %s", dir)
	}
	for _, profiles := range []bool{false, true} {
		b.Run(fmt.Sprintf("profiles=%v", profiles), func(b *testing.B) {
			for b.Loop() {
				for _, p := range paths {
					d, err := readDump(p, profiles)
					if err != nil {
						b.Fatal(err)
					}
					if d.graph != nil {
						profileOf(*d.graph, 1)
					}
				}
			}
			b.ReportMetric(float64(len(paths)), "dumps")
		})
	}
}

// A frame already running when instrumentation is switched on returns
// through an arc callgrind records with no call on it (calls=0). Such an
// arc has no share of its callee's calls: read as 0/0 it made every caller's
// inclusive figure NaN, and report.json could not be written (a 57-message
// change on a tight budget lost its report so). The arc's callee keeps its
// own cost; the callers' figures stay numbers.
const zeroCallsDump = `# callgrind format
version: 1
positions: line
events: Ir
desc: Trigger: Client Request: wiregate BenchmarkEncode/a.v1.B/json ops=4
summary: 1000

fl=(1) bench/loop.go
fn=(1) github.com/wiregate/wiregate/harness/program/bench.loop
5 100
cfn=(2) encoding/json.Marshal
calls=4 7
5 800
fn=(2)
7 600
cfn=(3) runtime.gcBgMarkWorker
calls=0 3
7 200
fn=(3)
3 200
`

func TestAnArcWithNoCallsLeavesEveryFigureANumber(t *testing.T) {
	p := filepath.Join(t.TempDir(), "callgrind.out.1")
	os.WriteFile(p, []byte(zeroCallsDump), 0o644)
	d, err := readDump(p, true)
	if err != nil {
		t.Fatal(err)
	}
	prof := profileOf(*d.graph, 4)
	if len(prof) == 0 {
		t.Fatal("no profile")
	}
	for name, c := range prof {
		if math.IsNaN(c.Self) || math.IsInf(c.Self, 0) || math.IsNaN(c.Inclusive) || math.IsInf(c.Inclusive, 0) {
			t.Errorf("%s: %+v is not a number", name, c)
		}
	}
	if got, want := prof["json.Marshal"].Inclusive, 600/4.0; got != want {
		t.Errorf("json.Marshal inclusive %v, want %v (its own cost; the arc with no call adds nothing)", got, want)
	}
}

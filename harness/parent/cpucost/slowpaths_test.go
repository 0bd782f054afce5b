package cpucost

import (
	"os"
	"path/filepath"
	"testing"
)

// A loop whose one uncached type assertion filled its site's cache: the
// fill's one mallocgc call carries callgrind's misread inclusive cost
// (its shadow stack charged the call with the loop's work after it, as a
// real dump of gen.v1.Message09's protobuf encode did: 2,780,998 of
// 7,727,132). What the slow path took is its own, the fill's and one
// mallocgc's share of the allocations (1 call of 1,000: 100), not the
// misread figure.
const cacheFillDump = `# callgrind format
version: 1
positions: line
events: Ir
desc: Trigger: Client Request: wiregate BenchmarkEncode/a.v1.B/protobuf ops=512
summary: 7727132

fn=(1) google.golang.org/protobuf/internal/impl.(*MessageInfo).marshalAppendPointer
1 7526832
cfn=(2) runtime.typeAssert
calls=1 1
1 2781298
cfn=(3) runtime.mallocgc
calls=999 1
1 99900
fn=(2)
1 100
cfn=(4) runtime.buildTypeAssertCache
calls=1 1
1 2781198
fn=(4)
1 200
cfn=(3)
calls=1 1
1 2780998
fn=(3)
1 100000
totals: 7627132
`

func TestACacheFillIsLeftOutAtItsOwnCost(t *testing.T) {
	p := filepath.Join(t.TempDir(), "callgrind.out.1")
	if err := os.WriteFile(p, []byte(cacheFillDump), 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := readDump(p, false)
	if err != nil {
		t.Fatal(err)
	}
	if want := uint64(100 + 200 + 100); d.slowIr != want {
		t.Errorf("slow paths took %d, want %d (callgrind's own figure for the call: 2,781,298)", d.slowIr, want)
	}
}

// A slow path called from another slow path is inside its caller's cost,
// not counted twice; a recursive call ("f'2") is the same function; each
// caller's calls count at callgrind's figure or the rebuilt one, the
// lesser.
func TestSlowPathsCountEachCallOnce(t *testing.T) {
	g := callGraph{
		self:   map[string]uint64{"main.loop": 1000, "runtime.interfaceSwitch": 50, "runtime.typeAssert": 30, "runtime.typeAssert'2": 10, "runtime.getitab": 40},
		calls:  map[[2]string]uint64{},
		callIr: map[[2]string]uint64{},
	}
	// Each edge's calls and callgrind's own figure for them: the loop's
	// call into typeAssert misread.
	for _, e := range []struct {
		from, to  string
		calls, ir uint64
	}{
		{"main.loop", "runtime.interfaceSwitch", 1, 85},
		{"runtime.interfaceSwitch", "runtime.typeAssert", 1, 40},
		{"runtime.typeAssert", "runtime.typeAssert'2", 1, 50},
		{"runtime.typeAssert'2", "runtime.getitab", 1, 40},
		{"main.loop", "runtime.typeAssert", 1, 1_000_000},
	} {
		g.calls[[2]string{e.from, e.to}] = e.calls
		g.callIr[[2]string{e.from, e.to}] = e.ir
	}
	// typeAssert (30+10 own, 40 getitab) has two calls, one from the loop:
	// rebuilt, half of 80, against callgrind's 1,000,000; interfaceSwitch
	// rebuilt 50 and half of typeAssert's 80, against callgrind's 85.
	if got, want := slowPathIr(g), uint64(40+85); got != want {
		t.Errorf("slow paths took %d, want %d", got, want)
	}
}

package cpucost_test

import (
	"context"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wiregate/wiregate/harness/parent/cpucost"
	"github.com/wiregate/wiregate/harness/parent/prepare"
	"github.com/wiregate/wiregate/harness/program/bench"
	"github.com/wiregate/wiregate/harness/program/benchprog"
)

// jsonBoundPct is what JSON's counts move at most between identical
// programs here (0.52% measured: encoding/json's type cache and field-name
// maps are hash tables Go seeds per process), with a margin.
const jsonBoundPct = 1.0

func requireValgrind(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("counts under Valgrind")
	}
	if _, err := exec.LookPath("valgrind"); err != nil {
		if os.Getenv("WIREGATE_SKIP_VALGRIND") == "1" {
			t.Skip("valgrind not installed and WIREGATE_SKIP_VALGRIND=1")
		}
		t.Fatal("valgrind not installed: apt-get install valgrind (.ci/run does), or set WIREGATE_SKIP_VALGRIND=1")
	}
}

// schema copies testdata (a buf module holding shop.v1.Receipt) and applies
// edits (old → new) to its proto.
func schema(t *testing.T, edits ...string) string {
	t.Helper()
	dir := t.TempDir()
	if out, err := exec.Command("cp", "-r", "testdata/.", dir).CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	proto := filepath.Join(dir, "shop", "v1", "receipt.proto")
	b, _ := os.ReadFile(proto)
	for i := 0; i < len(edits); i += 2 {
		if !strings.Contains(string(b), edits[i]) {
			t.Fatalf("receipt.proto has no %q", edits[i])
		}
		b = []byte(strings.Replace(string(b), edits[i], edits[i+1], 1))
	}
	os.WriteFile(proto, b, 0o644)
	return dir
}

// cacheDir holds the bench programs every test here prepares.
var cacheDir string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "wiregate-cpucost-test-")
	if err != nil {
		panic(err)
	}
	cacheDir = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// count prepares the bench program for dir and counts it: instr/op by
// benchmark name (without the -procs suffix).
func count(t *testing.T, dir string) map[string]float64 {
	t.Helper()
	out := countIn(t, dir, cpucost.Options{}, "shop.v1.Receipt")
	if len(out) != 6 {
		t.Fatalf("%d results, want 6 (3 formats × encode, decode): %v", len(out), out)
	}
	return out
}

// countIn prepares the bench program for dir and messages, sizes them
// (which saves the records the count loads), and counts them with opts.
func countIn(t *testing.T, dir string, opts cpucost.Options, messages ...string) map[string]float64 {
	t.Helper()
	out := map[string]float64{}
	for _, r := range resultsIn(t, dir, opts, messages...) {
		out[r.Name] = r.InstrPerOp()
	}
	return out
}

// resultsIn is countIn's results as counted.
func resultsIn(t *testing.T, dir string, opts cpucost.Options, messages ...string) []cpucost.Result {
	t.Helper()
	ctx := context.Background()
	p, err := prepare.Prepare(ctx, prepare.Options{BufInput: dir, HarnessDir: "../..", CacheDir: cacheDir, Messages: messages})
	if err != nil {
		t.Fatal(err)
	}
	sel := saved(t, p.Binary, benchprog.Selection{Messages: messages, Formats: []string{"json", "protobuf", "avro"}})
	c, err := cpucost.Count(ctx, p.Binary, sel, opts)
	if err != nil {
		t.Fatal(err)
	}
	if c.Unavailable != "" {
		t.Fatal(c.Unavailable)
	}
	return c.Results
}

// saved sizes sel with binary, saving its records for a count to load,
// and returns sel loading them.
func saved(t *testing.T, binary string, sel benchprog.Selection) benchprog.Selection {
	t.Helper()
	dir := t.TempDir()
	if _, err := (&benchprog.Program{Binary: binary}).Sizes(context.Background(), benchprog.SizesFlags{Selection: sel, Save: dir}); err != nil {
		t.Fatal(err)
	}
	sel.Saved = dir
	return sel
}

func deltaPct(base, head float64) float64 { return 100 * (head - base) / base }

// bound is what an identical count may move: half its noise floor, which
// every spread measured so far stays under (TestFloorsCoverTheMeasuredSpreads;
// protobuf and Avro up to 0.191% here, JSON 0.519%).
func bound(name string, base float64) float64 {
	return cpucost.NoiseFloorPct(name[strings.LastIndex(name, "/")+1:], base) / 2
}

// Same program, same records: the same count, within the bounds above, for
// every op and format; and the count is of real work, not of nothing.
func TestAAIdenticalProgramsCountTheSame(t *testing.T) {
	requireValgrind(t)
	dir := schema(t)
	a, b := count(t, dir), count(t, dir)
	for name, av := range a {
		if av < 500 {
			t.Errorf("%s: %.0f instr/op is too little to be an encode or decode", name, av)
		}
		if d := deltaPct(av, b[name]); math.Abs(d) > bound(name, av) {
			t.Errorf("%s: A/A moved %+.3f%% (%.1f → %.1f instr/op), bound %.2f%%", name, d, av, b[name], bound(name, av))
		}
	}
}

// Renaming a field changes JSON's keys and nothing else: protobuf and Avro
// bytes are equal (records are keyed by field number), so their counts stay
// within the A/A bound; JSON decode, which matches every key by name, moves
// by more than JSON's bound. (JSON encode writes precomputed key bytes: one
// longer copy per record, ~0.4% here.)
func TestRenameMovesOnlyJSON(t *testing.T) {
	requireValgrind(t)
	base := count(t, schema(t))
	head := count(t, schema(t, "string note = 6;", "string note_printed_under_the_total_for_the_customer = 6;"))
	for name, b := range base {
		d := deltaPct(b, head[name])
		switch {
		case strings.HasSuffix(name, "/json"):
			if strings.HasPrefix(name, "BenchmarkDecode") && d <= jsonBoundPct {
				t.Errorf("%s: a longer JSON key moved decode by %+.2f%%, want more than %.1f%%", name, d, jsonBoundPct)
			}
		case math.Abs(d) > bound(name, b):
			t.Errorf("%s: a JSON-only rename moved %+.3f%% (%.1f → %.1f instr/op)", name, d, b, head[name])
		}
	}
}

// A heavier head (two repeated fields added) costs measurably more in every
// format and op.
func TestHeavierHeadCostsMore(t *testing.T) {
	requireValgrind(t)
	base := count(t, schema(t))
	head := count(t, schema(t, "int32 items = 7;", "int32 items = 7;\n  repeated string tags = 8;\n  repeated int64 line_ids = 9;"))
	for name, b := range base {
		if d := deltaPct(b, head[name]); d <= 2 {
			t.Errorf("%s: two repeated fields moved %+.2f%% (%.1f → %.1f instr/op), want > 2%%", name, d, b, head[name])
		}
	}
}

// The count subcommand refuses to run outside Valgrind instead of printing
// figures nobody counted.
func TestCountSubcommandNeedsValgrind(t *testing.T) {
	requireValgrind(t)
	p, err := prepare.Prepare(context.Background(), prepare.Options{BufInput: schema(t), HarnessDir: "../..", CacheDir: cacheDir})
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(p.Binary, benchprog.CmdCount, "--saved", t.TempDir(), "--lengths", "shop.v1.Receipt/json=0:1:0").CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 || !strings.Contains(string(out), "under callgrind") {
		t.Fatalf("count outside valgrind: %v %s", err, out)
	}
}

// No counted loop takes a type assertion's slow path, even warmed for one
// short pass, in a batch whose messages go through the same code: the
// codecs convert values to their libraries' interfaces once, when a loop
// is built (codec.Encoder, codec.Decoder), and protobuf decodes as
// proto.Unmarshal does on a generated message, without its two
// assertions. Before, a batch's protobuf decode called runtime.typeAssert
// about three times an operation until the sites' caches filled, at random.
func TestNoCountedLoopTakesATypeAssertionSlowPath(t *testing.T) {
	requireValgrind(t)
	l := cpucost.Length{Span: bench.Span{Records: 32, Passes: 1}, Warm: 32}
	res := resultsIn(t, schema(t), cpucost.Options{Parallel: 1, Length: &l}, "shop.v1.Basket", "shop.v1.Line", "shop.v1.Receipt")
	if len(res) != 18 {
		t.Fatalf("%d results from a batch of 3 messages, want 18", len(res))
	}
	for _, r := range res {
		if r.Uncached != 0 {
			t.Errorf("%s: %d instructions in type-assertion slow paths over %d operations", r.Name, r.Uncached, r.Ops)
		}
	}
}

// A message counted in a batch, after another message that runs other
// types through the same codec code, reads what it reads counted alone,
// within its floor, in every format and op; and a batch counts every
// message it holds.
func TestABatchCountsEachMessageAsAlone(t *testing.T) {
	requireValgrind(t)
	dir := schema(t)
	alone := countIn(t, dir, cpucost.Options{}, "shop.v1.Receipt")
	batched := countIn(t, dir, cpucost.Options{Parallel: 1}, "shop.v1.Basket", "shop.v1.Receipt")
	if len(batched) != 12 {
		t.Fatalf("%d results from a batch of 2 messages, want 12: %v", len(batched), batched)
	}
	for name, a := range alone {
		floor := cpucost.NoiseFloorPct(name[strings.LastIndex(name, "/")+1:], a)
		if d := deltaPct(a, batched[name]); math.Abs(d) > floor {
			t.Errorf("%s: %.1f instr/op alone, %.1f after Basket in one process (%+.3f%%, floor %.2f%%)", name, a, batched[name], d, floor)
		}
	}
}

package cpucost_test

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wiregate/wiregate/harness/parent/cpucost"
	"github.com/wiregate/wiregate/harness/parent/prepare"
	"github.com/wiregate/wiregate/harness/program/benchprog"
)

// Only the loops run instrumented, each its refill pass and its
// counted passes: run with collection on from the start, a count collects
// exactly what its toggles leave out, which is everything instrumented
// outside the counted passes. Per loop that is its refill (8 records), the
// page cache's drain, a few client requests and the dump's bookkeeping:
// 170,000–380,000 instructions here, under a pass where two are counted.
// The warm-ups (1,024 operations: four passes of the pool), loading and the
// heap's preparation stay uninstrumented: any of them would read as more.
func TestOnlyTheLoopsAreInstrumented(t *testing.T) {
	requireValgrind(t)
	ctx := context.Background()
	p, err := prepare.Prepare(ctx, prepare.Options{BufInput: schema(t), HarnessDir: "../..", CacheDir: cacheDir,
		Messages: []string{"shop.v1.Receipt"}})
	if err != nil {
		t.Fatal(err)
	}
	sel := saved(t, p.Binary, benchprog.Selection{Messages: []string{"shop.v1.Receipt"}, Formats: []string{"protobuf", "json"}})
	run := func(collectAtStart string) map[string]uint64 {
		dir := t.TempDir()
		var args []string
		for _, a := range cpucost.ValgrindArgs(dir, cpucost.Options{}) {
			if strings.HasPrefix(a, "--collect-atstart=") {
				a = "--collect-atstart=" + collectAtStart
			}
			args = append(args, a)
		}
		flags := benchprog.CountFlags{Selection: sel,
			Lengths: benchprog.Lengths{"shop.v1.Receipt/protobuf": {Passes: 2, Warm: 1024}, "shop.v1.Receipt/json": {Passes: 2, Warm: 1024}}}
		cmd := exec.CommandContext(ctx, "valgrind", append(args, append([]string{p.Binary, benchprog.CmdCount}, flags.Args()...)...)...)
		cmd.Env = append(cmd.Environ(), "GODEBUG=asyncpreemptoff=1,gcshrinkstackoff=1", "GOMAXPROCS=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%v: %s", err, out)
		}
		paths, _ := filepath.Glob(filepath.Join(dir, "callgrind.out*"))
		got := map[string]uint64{}
		for _, path := range paths {
			trigger, ir, err := cpucost.DumpTotals(path)
			if err != nil {
				t.Fatal(err)
			}
			got[trigger] = ir
		}
		return got
	}
	counted, outside := run("no"), run("yes")
	loops := 0
	for trigger, ir := range counted {
		if !strings.HasPrefix(trigger, "Client Request: wiregate ") {
			continue
		}
		loops++
		rest, ok := outside[trigger]
		if !ok {
			t.Fatalf("no dump for %s with collection on", trigger)
		}
		if onePass := ir / 2; rest > onePass {
			t.Errorf("%s: %d instructions counted over two passes, %d instrumented outside them (want under one pass, %d)", trigger, ir, rest, onePass)
		}
		t.Logf("%s: counted %d, instrumented outside %d", strings.TrimPrefix(trigger, "Client Request: wiregate "), ir, rest)
	}
	if loops != 4 {
		t.Fatalf("%d loops counted, want 4 (2 formats × encode, decode): %v", loops, counted)
	}
}

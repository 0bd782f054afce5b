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

// Nothing is instrumented that is not counted: run with collection on from
// the start, a count collects exactly what its toggles leave out, which is
// everything instrumented outside the counted passes. That stays within
// a few client requests and the dump's bookkeeping (5,000–23,000
// instructions here: a JSON decode read 22,920 once in CI), under 2% of
// one counted pass; before, each loop's preparation (a pass to learn its
// allocations, the heap, a refill pass: two passes and more, 670,000
// instructions at the least here) ran instrumented too. The bound is
// far under one such pass and above what the bookkeeping has read.
func TestOnlyTheCountedLoopsAreInstrumented(t *testing.T) {
	const outsideBound = 50_000
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
			Lengths: benchprog.Lengths{"shop.v1.Receipt/protobuf": {Passes: 1, Warm: 1024}, "shop.v1.Receipt/json": {Passes: 1, Warm: 1024}}}
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
		if rest > outsideBound || 50*rest > ir {
			t.Errorf("%s: %d instructions counted, %d instrumented outside the counted passes (want at most %d and 2%%)", trigger, ir, rest, outsideBound)
		}
		t.Logf("%s: counted %d, instrumented outside %d", strings.TrimPrefix(trigger, "Client Request: wiregate "), ir, rest)
	}
	if loops != 4 {
		t.Fatalf("%d loops counted, want 4 (2 formats × encode, decode): %v", loops, counted)
	}
}

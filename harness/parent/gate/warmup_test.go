package gate

import (
	"errors"
	"fmt"
	"maps"
	"strings"
	"testing"
	"time"

	"github.com/wiregate/wiregate/harness/parent/budget"
	"github.com/wiregate/wiregate/harness/program/bench"
)

// warmSteps is a warm-up over n messages on a fake clock where each step
// takes perStep.
func warmSteps(n int, perStep time.Duration, deadline time.Duration, fail int) ([]string, [][]byte, int, error) {
	var names []string
	for i := range n {
		names = append(names, fmt.Sprintf("m%02d.V1", i))
	}
	start := time.Date(2026, 11, 24, 0, 0, 0, 0, time.UTC)
	now := start
	steps := 0
	meter := budget.Budget{Now: func() time.Time { return now }}.Meter(start.Add(deadline))
	perChunk := func([]string) time.Duration { return time.Second } // priced low: the meter learns by the first step
	reached, outs, err := warmUp(names, meter, perChunk, func(chunk []string, done int) ([][]byte, error) {
		steps++
		if steps == fail {
			return nil, errors.New("bench program exited 2")
		}
		now = now.Add(perStep)
		return [][]byte{[]byte(strings.Join(chunk, " ")), []byte("head")}, nil
	})
	return reached, outs, steps, err
}

// A warm-up whose steps cost ten times their price stops before the step
// that would end past its deadline, by what the first step took, and says
// which messages it reached.
func TestWarmUpStopsAtItsDeadline(t *testing.T) {
	reached, outs, steps, err := warmSteps(30, 10*time.Second, 25*time.Second, 0)
	if err != nil || steps != 2 || len(reached) != 2*warmChunk || len(outs) != 4 || reached[len(reached)-1] != "m15.V1" {
		t.Fatalf("reached %v in %d steps, %d outputs, %v", reached, steps, len(outs), err)
	}
	reached, _, steps, _ = warmSteps(30, time.Second, time.Minute, 0)
	if len(reached) != 30 || steps != 4 {
		t.Fatalf("in time: reached %d in %d steps", len(reached), steps)
	}
}

// The first step runs even when the deadline has passed (something is
// priced), and a failing step ends the warm-up with its error.
func TestWarmUpFirstStepAlwaysRunsAndErrorsStopIt(t *testing.T) {
	reached, _, steps, err := warmSteps(30, 10*time.Second, -time.Second, 0)
	if err != nil || steps != 1 || len(reached) != warmChunk {
		t.Fatalf("past its deadline: reached %d in %d steps, %v", len(reached), steps, err)
	}
	reached, _, _, err = warmSteps(30, time.Second, time.Minute, 2)
	if err == nil || len(reached) != warmChunk {
		t.Fatalf("failing step: reached %d, %v", len(reached), err)
	}
}

// The messages the warm-up did not reach leave the priced round as
// Unpriced, so the plan counts them as not timed.
func TestWarmedPricesMarkWhatTheWarmUpDidNotReach(t *testing.T) {
	p := budget.Prices{Messages: []budget.Price{{Name: "a.V1", Gating: true}, {Name: "b.V1", Gating: true}, {Name: "c.V1"}}}
	out := []byte("BenchmarkEncode/a.V1/json 100 1000 ns/op\nBenchmarkDecode/b.V1/json 100 3000 ns/op\n")
	w := warmedPrices(p, []string{"a.V1", "b.V1"}, 4*time.Second, [][]byte{out})
	if len(w.Messages) != 2 || strings.Join(w.Unpriced, ",") != "c.V1" {
		t.Fatalf("priced %+v, unpriced %v", w.Messages, w.Unpriced)
	}
	if w.Messages[1].Round != 3*w.Messages[0].Round {
		t.Fatalf("rounds %s and %s, not shared by the benchmarks' time", w.Messages[0].Round, w.Messages[1].Round)
	}
}

// A message the re-fit cut after the first round loses that round's
// lines; other lines stay as they were.
func TestKeepBenchmarksDropsTheCutMessagesLines(t *testing.T) {
	out := "BenchmarkEncode/a.V1/json-2 100 1000 ns/op 10 B/msg\nBenchmarkDecode/b.V1/avro-2 100 900 ns/op\nUnit instr/op assume=exact\nBenchmarkDecode/a.V1/protobuf-2 100 800 ns/op\n"
	got := string(keepBenchmarks([]byte(out), []string{"a.V1"}))
	want := "BenchmarkEncode/a.V1/json-2 100 1000 ns/op 10 B/msg\nUnit instr/op assume=exact\nBenchmarkDecode/a.V1/protobuf-2 100 800 ns/op\n"
	if got != want {
		t.Fatalf("kept\n%s\nwant\n%s", got, want)
	}
}

// The warm-up counts allocations, the rounds do not: that pass (about
// bench.AllocPassOps operations a benchmark at its ns/op) is no part of
// the round it prices.
func TestWarmedPricesLeaveTheAllocationPassOut(t *testing.T) {
	p := budget.Prices{Messages: []budget.Price{{Name: "a.V1", Gating: true}}}
	timesOnly := []byte("BenchmarkDecode/a.V1/json 100 10000 ns/op\n")
	counted := []byte("BenchmarkDecode/a.V1/json 100 10000 ns/op\t64 B/op\t2 allocs/op\n")
	pass := time.Duration(10000 * bench.AllocPassOps)
	wall := pass + time.Second
	without := warmedPrices(p, []string{"a.V1"}, wall, [][]byte{timesOnly})
	with := warmedPrices(p, []string{"a.V1"}, wall, [][]byte{counted})
	if with.Messages[0].Round != time.Second || without.Messages[0].Round != wall {
		t.Fatalf("round priced %s with the allocation count, %s without; want %s and %s", with.Messages[0].Round, without.Messages[0].Round, time.Second, wall)
	}
}

// A timed round runs each benchmark, on both sides, the operations that
// last its benchtime at the mean of its sides' warm-up speeds (so both
// time the same records), and names only the round's messages.
func TestRoundsRunWhatTheWarmUpSpeedGivesTheBenchtime(t *testing.T) {
	var tm timings
	tm.keepSpeeds([]byte("BenchmarkEncode/m.v1.M/json\t     500\t     20000 ns/op\t  120.00 B/msg\t 10 B/op\t 1 allocs/op\n" +
		"BenchmarkDecode/m.v1.M/json\t     100\t    100000 ns/op\t  120.00 B/msg\n" +
		"BenchmarkEncode/n.v1.N/json\t     100\t    100000 ns/op\t  120.00 B/msg\n" +
		"goos: linux\n"))
	tm.keepSpeeds([]byte("BenchmarkEncode/m.v1.M/json\t     400\t     25000 ns/op\t  124.00 B/msg\n" +
		"BenchmarkEncode/new.v1.New/json\t     400\t     30000 ns/op\t  124.00 B/msg\n"))
	got := tm.roundIterations(36*time.Millisecond, []string{"m.v1.M", "new.v1.New"})
	want := map[string]int{
		"BenchmarkEncode/m.v1.M/json":     1600, // 36 ms at the mean of 20,000 and 25,000 ns
		"BenchmarkDecode/m.v1.M/json":     360,  // one side ran it
		"BenchmarkEncode/new.v1.New/json": 1200, // new in head
	}
	if !maps.Equal(got, want) {
		t.Fatalf("iterations %v, want %v (n.v1.N is not in the round)", got, want)
	}
	if short := tm.roundIterations(10*time.Millisecond, []string{"m.v1.M"}); short["BenchmarkEncode/m.v1.M/json"] != 445 {
		t.Fatalf("a re-fitted benchtime of 10ms: %v, want encode 445", short)
	}
}

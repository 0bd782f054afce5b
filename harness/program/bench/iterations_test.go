package bench

import (
	"bytes"
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/wiregate/wiregate/harness/program/cases"
)

func TestIterationsLastTheBenchtimeAtTheSpeedMeasured(t *testing.T) {
	for _, tc := range []struct {
		benchtime time.Duration
		ns        float64
		want      int
	}{
		{36 * time.Millisecond, 30000, 1200},
		{36 * time.Millisecond, 29999, 1201}, // rounded up: a run never falls short of its benchtime by the rounding
		{10 * time.Millisecond, 3e7, 1},      // slower than the benchtime: one operation
		{time.Second, 0.01, 1e9},             // the testing package's ceiling
		{time.Second, 0, 0},                  // no speed: calibrate instead
		{time.Second, -1, 0},
		{time.Second, math.NaN(), 0},
	} {
		if got := Iterations(tc.benchtime, tc.ns); got != tc.want {
			t.Errorf("Iterations(%s, %v) = %d, want %d", tc.benchtime, tc.ns, got, tc.want)
		}
	}
}

// A benchmark named in Iterations runs exactly that many operations, once
// after testing's single first one, with no calibration; one not named
// calibrates to the benchtime as before.
func TestRunDoesTheIterationsAskedAndCalibratesTheRest(t *testing.T) {
	s := sometimes{every: 1000, calls: new(int)}
	c := sometimesCaseOf(s)
	var out bytes.Buffer
	named := WithProcs(Name("encode", c))
	err := Run(&out, cases.Fixed([]*cases.Case{c}), Options{Count: 1, Benchtime: 20 * time.Millisecond, SkipAllocs: true,
		Iterations: map[string]int{named: 777}})
	if err != nil {
		t.Fatal(err)
	}
	if *s.calls != 1+777 {
		t.Fatalf("%d encodes, want 778 (1 first, then the 777 asked)", *s.calls)
	}
	runs := map[string]int{}
	for line := range strings.Lines(out.String()) {
		f := strings.Fields(line)
		n, err := strconv.Atoi(f[1])
		if err != nil {
			t.Fatalf("line %q: %v", line, err)
		}
		runs[f[0]] = n
	}
	if runs[named] != 777 {
		t.Fatalf("encode line N %d, want 777:\n%s", runs[named], out.String())
	}
	// decode was not named: testing calibrated it, so it ran far more than
	// one operation (a decode of this codec takes nanoseconds).
	if n := runs[WithProcs(Name("decode", c))]; n < 1000 {
		t.Fatalf("decode line N %d: not calibrated to 20ms:\n%s", n, out.String())
	}
}

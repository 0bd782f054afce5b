// Package bench times encode and decode of every case with the standard
// library's testing.Benchmark and writes the results in benchfmt, the text
// format of `go test -bench`, so benchstat reads the files directly.
// Benchmark names are stable: BenchmarkEncode/<message>/<format> and
// BenchmarkDecode/<message>/<format>.
package bench

import (
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wiregate/wiregate/harness/program/cases"
)

// Options control a run.
type Options struct {
	Count     int           // repetitions of every benchmark
	Benchtime time.Duration // target time per benchmark run
	Ops       []string      // "encode", "decode"; both when empty
	// SkipAllocs writes no B/op and allocs/op: counting them runs each
	// benchmark's loop over 3 windows of 4 rotations of its pool, as long
	// as its timed runs for a large message.
	SkipAllocs bool
	// Iterations are operations per run by benchmark name, as its lines
	// print it (Iterations sizes them from an earlier run's ns/op): such a
	// benchmark runs one operation, then its N, with no calibration (as
	// `go test -benchtime Nx`). A benchmark not named calibrates to
	// Benchtime.
	Iterations map[string]int
}

var initOnce sync.Once

// setBenchtime configures testing.Benchmark for benchmark name the way
// `go test -benchtime` would: benchtime, or exactly the operations
// Iterations names for it (after testing's single first one), as
// `-benchtime Nx`.
func (o Options) setBenchtime(name string) error {
	initOnce.Do(testing.Init)
	v := o.Benchtime.String()
	if n := o.Iterations[WithProcs(name)]; n > 0 {
		v = fmt.Sprintf("%dx", n)
	}
	return flag.Set("test.benchtime", v)
}

// Header writes the benchfmt configuration lines.
func Header(w io.Writer) {
	fmt.Fprintf(w, "goos: %s\ngoarch: %s\npkg: wiregate\n", runtime.GOOS, runtime.GOARCH)
	if cpu := cpuName(); cpu != "" {
		fmt.Fprintf(w, "cpu: %s\n", cpu)
	}
}

// Run writes Count rounds of every benchmark of the stream to w,
// round-major (every message, then every message again), so that slow
// drift in the machine spreads over every case instead of biasing the last
// ones. The stream builds each message's cases when it reaches them and
// drops them after: the process holds one message's records, and the
// collection testing.Benchmark makes before each of its runs sees a small
// heap. So a round rebuilds (and rechecks) every message: the same logical
// records every round, at the price of one setup per message and round —
// small beside its benchmarks (two ops, each about benchtime, per
// format). Running a message's rounds back to back instead would hold
// nothing either, but would time each message in its own stretch of the
// run, where a neighbour's burst takes all of one message's samples.
func Run(w io.Writer, stream cases.Stream, opts Options) error {
	if opts.Count <= 0 {
		opts.Count = 1
	}
	if opts.Benchtime <= 0 {
		opts.Benchtime = time.Second
	}
	ops := opts.Ops
	if len(ops) == 0 {
		ops = Ops
	}
	// Allocations are deterministic: counted over whole rotations the first
	// time a case is reached, written on every round's line (none with
	// SkipAllocs).
	allocs := map[string]Allocs{}
	for r := 0; r < opts.Count; r++ {
		err := stream(func(cs []*cases.Case) error {
			for _, c := range cs {
				mean := meanSize(c)
				for _, op := range ops {
					name := Name(op, c)
					a, ok := allocs[name]
					if !ok && !opts.SkipAllocs {
						var err error
						if a, err = CountAllocs(c, op, AllocRotations); err != nil {
							return fmt.Errorf("bench: %s %s: %w", op, c.Name(), err)
						}
						allocs[name] = a
					}
					if err := opts.setBenchtime(name); err != nil {
						return err
					}
					res := testing.Benchmark(benchmark(c, op))
					if res.N == 0 {
						return fmt.Errorf("bench: %s %s failed (see stderr)", op, c.Name())
					}
					writeLine(w, name, res, mean, a, !opts.SkipAllocs)
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// Encode benchmarks encoding the record pool, rotated.
func Encode(c *cases.Case) func(b *testing.B) { return benchmark(c, "encode") }

// Decode benchmarks decoding the encoded pool, rotated, into one reused
// typed value that the codec resets before each record (as a consumer loop
// reusing its message does).
func Decode(c *cases.Case) func(b *testing.B) { return benchmark(c, "decode") }

func benchmark(c *cases.Case, op string) func(b *testing.B) {
	return func(b *testing.B) {
		run, err := loop(c, op)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		b.ResetTimer()
		if err := run(b.N); err != nil {
			b.Fatal(err)
		}
	}
}

func meanSize(c *cases.Case) float64 {
	total := 0
	for _, b := range c.Encoded {
		total += len(b)
	}
	return float64(total) / float64(len(c.Encoded))
}

// writeLine prints one result as `go test -bench` does, with the exact mean
// encoded size as the extra B/msg metric and the exact per-op allocation
// figures of a whole-rotation count (testing's own are integer means: a
// pool where a third of the records allocate would read 0 allocs/op).
func writeLine(w io.Writer, name string, r testing.BenchmarkResult, bytesPerMsg float64, a Allocs, withAllocs bool) {
	name = WithProcs(name)
	nsPerOp := float64(r.T.Nanoseconds()) / float64(r.N)
	fmt.Fprintf(w, "%s\t%8d\t%s ns/op\t%.2f B/msg", name, r.N, formatNs(nsPerOp), bytesPerMsg)
	if withAllocs {
		fmt.Fprintf(w, "\t%s B/op\t%s allocs/op", Exact(a.BytesPerOp), Exact(a.PerOp))
	}
	fmt.Fprintln(w)
}

// Exact prints an exact per-op figure whole: the shortest decimal that reads
// back as v. A count over 256·2^k operations is a finite decimal.
func Exact(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// formatNs keeps about four significant digits, as the testing package does.
func formatNs(ns float64) string {
	switch {
	case ns >= 100:
		return fmt.Sprintf("%.0f", ns)
	case ns >= 10:
		return fmt.Sprintf("%.1f", ns)
	case ns >= 1:
		return fmt.Sprintf("%.2f", ns)
	}
	return fmt.Sprintf("%.3f", ns)
}

func cpuName() string {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return ""
	}
	for _, l := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(l, ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

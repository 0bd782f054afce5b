package bench

import (
	"fmt"
	"runtime"
	"strings"

	"github.com/wiregate/wiregate/harness/program/cases"
)

// Ops are the measured operations, in the order every output lists them.
var Ops = []string{"encode", "decode"}

// loop returns the measured loop of one op on one case: n operations over
// the record pool, rotated from its first record. The timed benchmarks, the
// exact allocation count and the instruction count all run this same loop,
// so the three figures describe the same work.
func loop(c *cases.Case, op string) (func(n int) error, error) {
	run, _, err := loopOver(c, op, 0)
	return run, err
}

// loopOver is loop over the first records records of the pool (all of them
// when records is 0 or more), and how many that is.
func loopOver(c *cases.Case, op string, records int) (func(n int) error, int, error) {
	k := Span{Records: records}.records(len(c.Encoded))
	run, err := loopOn(c, op, k)
	return run, k, err
}

func loopOn(c *cases.Case, op string, k int) (func(n int) error, error) {
	switch op {
	case "encode":
		enc, err := c.Codec.Encoder(c.Values[:k])
		if err != nil {
			return nil, err
		}
		return func(n int) error {
			j := 0
			for i := 0; i < n; i++ {
				if _, err := enc(j); err != nil {
					return err
				}
				if j++; j == k {
					j = 0
				}
			}
			return nil
		}, nil
	case "decode":
		// One reused typed value that the codec resets before each record,
		// as a consumer loop reusing its message does.
		dec, err := c.Codec.Decoder(c.Format.NewValue(c.Subject))
		if err != nil {
			return nil, err
		}
		encoded := c.Encoded[:k]
		return func(n int) error {
			j := 0
			for i := 0; i < n; i++ {
				if err := dec(encoded[j]); err != nil {
					return err
				}
				if j++; j == k {
					j = 0
				}
			}
			return nil
		}, nil
	}
	return nil, fmt.Errorf("unknown op %q (encode, decode)", op)
}

// Name is the benchfmt name of one op on one case, without the
// GOMAXPROCS suffix: BenchmarkEncode/<message>/<format>.
func Name(op string, c *cases.Case) string {
	return "Benchmark" + strings.ToUpper(op[:1]) + op[1:] + "/" + c.Name()
}

// WithProcs adds the -GOMAXPROCS suffix `go test -bench` puts on a name
// (none for 1), so every line wiregate writes names a benchmark the same way.
func WithProcs(name string) string {
	if p := runtime.GOMAXPROCS(0); p != 1 {
		return fmt.Sprintf("%s-%d", name, p)
	}
	return name
}

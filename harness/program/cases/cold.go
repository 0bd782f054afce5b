package cases

import (
	"time"
)

// ColdPerOp runs op(i) for every record i of an n-record pool, in order,
// and returns the mean wall nanoseconds per op over records 1 to n-1: the
// first call pays one-time costs (a codec's type cache, tables built on
// first use) that the loops the price predicts have paid before they
// start. An n of 1 prices its one call. An op's error is returned as it is.
func ColdPerOp(n int, op func(i int) error) (float64, error) {
	first := 0
	if n > 1 {
		if err := op(0); err != nil {
			return 0, err
		}
		first = 1
	}
	start := time.Now()
	for i := first; i < n; i++ {
		if err := op(i); err != nil {
			return 0, err
		}
	}
	if n == 0 {
		return 0, nil
	}
	return float64(time.Since(start).Nanoseconds()) / float64(n-first), nil
}

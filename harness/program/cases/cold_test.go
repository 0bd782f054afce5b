package cases

import (
	"errors"
	"testing"
	"time"
)

// The first record runs untimed (it pays one-time costs): a first call
// that sleeps does not move the price; the rest are priced per op.
func TestColdPerOpLeavesTheFirstRecordOut(t *testing.T) {
	var ran []int
	ns, err := ColdPerOp(5, func(i int) error {
		ran = append(ran, i)
		if i == 0 {
			time.Sleep(50 * time.Millisecond)
		}
		return nil
	})
	if err != nil || len(ran) != 5 || ran[0] != 0 || ran[4] != 4 {
		t.Fatalf("ran %v: %v", ran, err)
	}
	if ns <= 0 || ns >= float64(10*time.Millisecond) {
		t.Errorf("%v ns/op: the first record's sleep was priced", ns)
	}
	one, err := ColdPerOp(1, func(int) error { time.Sleep(time.Millisecond); return nil })
	if err != nil || one < float64(time.Millisecond) {
		t.Errorf("a one-record pool prices its one call: %v ns (%v)", one, err)
	}
	if none, err := ColdPerOp(0, func(int) error { t.Fatal("ran"); return nil }); none != 0 || err != nil {
		t.Errorf("empty pool: %v, %v", none, err)
	}
	bad := errors.New("record 3 is bad")
	if _, err := ColdPerOp(5, func(i int) error {
		if i == 3 {
			return bad
		}
		return nil
	}); err != bad {
		t.Errorf("error %v, want the op's own", err)
	}
}

package record_test

import (
	"slices"
	"testing"
	"time"

	"github.com/wiregate/wiregate/harness/program/record"
)

// Timestamps of consecutive records are about a second apart and rise
// with the record: a batch's timestamps share their high digits.
func TestTimestampsAreCloseTogether(t *testing.T) {
	vs := column(t, "Span", "start_time")
	first, last := vs[0].Int(), vs[len(vs)-1].Int()
	if span := time.Duration(last-first) * time.Millisecond; span < time.Duration(record.PoolSize-2)*time.Second || span > time.Duration(record.PoolSize)*time.Second {
		t.Fatalf("%d records span %v, want about %d s", len(vs), span, record.PoolSize)
	}
	for i := 1; i < len(vs); i++ {
		if d := vs[i].Int() - vs[i-1].Int(); d < 0 || d > 2000 {
			t.Fatalf("record %d is %d ms after the one before", i, d)
		}
	}
}

// A number the name says nothing about spreads over orders of magnitude,
// most of it small: the median is in the hundreds, yet some values reach
// the tens of thousands.
func TestPlainNumbersAreMostlySmall(t *testing.T) {
	var ns []int64
	for _, v := range column(t, "Span", "bytes_sent") {
		ns = append(ns, v.Int())
	}
	slices.Sort(ns)
	if median, top := ns[len(ns)/2], ns[len(ns)-1]; median > 1000 || median < 30 || top < 10_000 || top >= 100_000 || ns[0] < 0 {
		t.Fatalf("bytes_sent: min %d, median %d, max %d", ns[0], median, top)
	}
}

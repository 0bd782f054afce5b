package piperounds

import (
	"testing"
	"time"

	"github.com/wiregate/wiregate/harness/parent/budget"

	"github.com/wiregate/wiregate/harness/program/benchprog"
)

func TestBacklogsBySizeAndCount(t *testing.T) {
	sizes := []benchprog.Size{
		{Message: "a.Small", Format: "json", BytesMean: 250},
		{Message: "a.Small", Format: "protobuf", BytesMean: 100},
		{Message: "a.Big", Format: "protobuf", BytesMean: 6000},
		{Message: "a.Big", Format: "json", BytesMean: 12000},
		{Message: "a.Big", Format: "json", BytesMean: 12500},      // the other side's, bigger
		{Message: "a.Huge", Format: "json", BytesMean: 200 << 20}, // one record is over the budget
	}
	got := Backlogs(200_000, 128<<20, false, sizes)
	want := map[string]Backlog{
		"a.Small": {Message: "a.Small", N: 200_000, MeanBytes: 250, Format: "json"},
		"a.Big":   {Message: "a.Big", N: 10737, Bytes: 128 << 20, MeanBytes: 12500, Format: "json"},
		"a.Huge":  {Message: "a.Huge", N: 1, Bytes: 128 << 20, MeanBytes: 200 << 20, Format: "json"},
	}
	if len(got) != len(want) {
		t.Fatalf("%+v", got)
	}
	for m, w := range want {
		if got[m] != w {
			t.Errorf("%s: %+v, want %+v", m, got[m], w)
		}
	}
	if got["a.Big"].N*12500 > 128<<20 || (got["a.Big"].N+1)*12500 <= 128<<20 {
		t.Errorf("a.Big: N %d is not the most records of 12500 B within 128 MiB", got["a.Big"].N)
	}
	if b := Backlogs(200_000, 0, false, sizes)["a.Big"]; b.N != 200_000 || b.Bytes != 0 {
		t.Errorf("no byte budget: %+v", b)
	}
	if why := got["a.Big"].Why(); why != "N = 10737 (byte budget 128 MiB / 12500 B per json record)" {
		t.Errorf("why: %q", why)
	}
}

// With the drain target a backlog holds what a drain of
// budget.DrainTarget needs at the message's fastest format, when that is
// fewer records than asked: a slow message drains fewer records, a fast
// one keeps the count, and none drains fewer than budget.MinBacklog.
func TestBacklogsToADrainsPrecision(t *testing.T) {
	price := func(enc, dec float64) benchprog.Price { return benchprog.Price{EncodeNs: enc, DecodeNs: dec} }
	sizes := []benchprog.Size{
		{Message: "a.Fast", Format: "protobuf", BytesMean: 100, Price: price(200, 300)},
		{Message: "a.Slow", Format: "json", BytesMean: 2000, Price: price(30_000, 80_000)},
		{Message: "a.Slow", Format: "protobuf", BytesMean: 1000, Price: price(9_000, 49_000)}, // the fastest: 50 µs a record
		{Message: "a.Glacial", Format: "json", BytesMean: 100, Price: price(1e6, 2e6)},
	}
	got := Backlogs(200_000, 0, true, sizes)
	if b := got["a.Fast"]; b.N != 200_000 || b.Drain != 0 {
		t.Errorf("fast: %+v, want the count asked for", b)
	}
	perRecord := budget.PipeRecord(1000, 9_000, 49_000)
	if b := got["a.Slow"]; b.N != budget.PrecisionBacklog(perRecord) || b.Drain != budget.DrainTarget ||
		time.Duration(b.N)*perRecord < budget.DrainTarget || time.Duration(b.N-1)*perRecord >= budget.DrainTarget {
		t.Errorf("slow: %+v, want the fewest records a %s drain at %s a record takes", b, budget.DrainTarget, perRecord)
	}
	if b := got["a.Glacial"]; b.N != budget.MinBacklog {
		t.Errorf("glacial: %+v, want MinBacklog", b)
	}
	if why := got["a.Slow"].Why(); why != "N = 5000 (a 250ms drain at its fastest format)" {
		t.Errorf("why: %q", why)
	}
	if b := Backlogs(2000, 0, true, sizes)["a.Slow"]; b.N != 2000 || b.Drain != 0 {
		t.Errorf("a count below the drain's: %+v", b)
	}
}

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
		"a.Small/json":     {Message: "a.Small", Format: "json", N: 200_000, MeanBytes: 250},
		"a.Small/protobuf": {Message: "a.Small", Format: "protobuf", N: 200_000, MeanBytes: 100},
		"a.Big/protobuf":   {Message: "a.Big", Format: "protobuf", N: 22369, Bytes: 128 << 20, MeanBytes: 6000},
		"a.Big/json":       {Message: "a.Big", Format: "json", N: 10737, Bytes: 128 << 20, MeanBytes: 12500},
		"a.Huge/json":      {Message: "a.Huge", Format: "json", N: 1, Bytes: 128 << 20, MeanBytes: 200 << 20},
	}
	if len(got) != len(want) {
		t.Fatalf("%+v", got)
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s: %+v, want %+v", k, got[k], w)
		}
	}
	if got["a.Big/json"].N*12500 > 128<<20 || (got["a.Big/json"].N+1)*12500 <= 128<<20 {
		t.Errorf("a.Big: N %d is not the most records of 12500 B within 128 MiB", got["a.Big/json"].N)
	}
	if b := Backlogs(200_000, 0, false, sizes)["a.Big/json"]; b.N != 200_000 || b.Bytes != 0 {
		t.Errorf("no byte budget: %+v", b)
	}
	if why := got["a.Big/json"].Why(); why != "N = 10737 (byte budget 128 MiB / 12500 B per json record)" {
		t.Errorf("why: %q", why)
	}
}

// With the drain target a backlog holds what a drain of
// budget.DrainTarget needs at its row's faster side, when that is fewer
// records than asked: a slow row drains fewer records, a fast one keeps
// the count, none drains fewer than budget.MinBacklog, and each format of
// a message has its own N (a JSON drain at its protobuf's N lasted 4-8
// times the target).
func TestBacklogsToADrainsPrecision(t *testing.T) {
	price := func(enc, dec float64) benchprog.ColdReading {
		return benchprog.ColdReading{EncodeNs: enc, DecodeNs: dec}
	}
	sizes := []benchprog.Size{
		{Message: "a.Fast", Format: "protobuf", BytesMean: 100, Cold: price(200, 300)},
		{Message: "a.Slow", Format: "json", BytesMean: 2000, Cold: price(30_000, 80_000)},
		{Message: "a.Slow", Format: "json", BytesMean: 2100, Cold: price(33_000, 90_000)}, // the other side, slower
		{Message: "a.Slow", Format: "protobuf", BytesMean: 1000, Cold: price(9_000, 49_000)},
		{Message: "a.Glacial", Format: "json", BytesMean: 100, Cold: price(1e6, 2e6)},
	}
	got := Backlogs(200_000, 0, true, sizes)
	if b := got["a.Fast/protobuf"]; b.N != 200_000 || b.Drain != 0 {
		t.Errorf("fast: %+v, want the count asked for", b)
	}
	for k, perRecord := range map[string]time.Duration{
		"a.Slow/protobuf": budget.PipeRecord(1000, 9_000, 49_000),
		"a.Slow/json":     budget.PipeRecord(2000, 30_000, 80_000), // the faster side's
	} {
		if b := got[k]; b.N != budget.PrecisionBacklog(perRecord) || b.Drain != budget.DrainTarget ||
			time.Duration(b.N)*perRecord < budget.DrainTarget || time.Duration(b.N-1)*perRecord >= budget.DrainTarget {
			t.Errorf("%s: %+v, want the fewest records a %s drain at %s a record takes", k, b, budget.DrainTarget, perRecord)
		}
	}
	if j, p := got["a.Slow/json"].N, got["a.Slow/protobuf"].N; j >= p {
		t.Errorf("a.Slow: json N %d, protobuf N %d: the slower format should drain fewer records", j, p)
	}
	if b := got["a.Glacial/json"]; b.N != budget.MinBacklog {
		t.Errorf("glacial: %+v, want MinBacklog", b)
	}
	if why := got["a.Slow/protobuf"].Why(); why != "N = 5000 (a 250ms drain)" {
		t.Errorf("why: %q", why)
	}
	if b := Backlogs(2000, 0, true, sizes)["a.Slow/protobuf"]; b.N != 2000 || b.Drain != 0 {
		t.Errorf("a count below the drain's: %+v", b)
	}
}

package piperounds

import (
	"testing"

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
	got := Backlogs(200_000, 128<<20, sizes)
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
	if b := Backlogs(200_000, 0, sizes)["a.Big"]; b.N != 200_000 || b.Bytes != 0 {
		t.Errorf("no byte budget: %+v", b)
	}
	if why := got["a.Big"].Why(); why != "N = 10737 (byte budget 128 MiB / 12500 B per json record)" {
		t.Errorf("why: %q", why)
	}
}

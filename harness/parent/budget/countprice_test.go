package budget

import (
	"testing"

	"github.com/wiregate/wiregate/harness/program/benchprog"
)

// A message of slow ops costs more to count than one of fast ones (the
// estimate the budget plans with), though it counts fewer operations.
func TestCountPriceGrowsWithWork(t *testing.T) {
	row := func(format string, enc, dec, bytes float64) benchprog.Size {
		return benchprog.Size{Format: format, BytesMean: bytes, Cold: benchprog.ColdReading{EncodeNs: enc, DecodeNs: dec}}
	}
	fast := []benchprog.Size{row("protobuf", 300, 400, 100), row("json", 1000, 4000, 300)}
	slow := []benchprog.Size{row("protobuf", 60_000, 170_000, 7000), row("json", 43_000, 43_000, 12_000)}
	if !(CountPrice(fast) < CountPrice(slow)) {
		t.Fatalf("fast %v, slow %v", CountPrice(fast), CountPrice(slow))
	}
}

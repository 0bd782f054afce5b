package piperounds

import (
	"fmt"
	"time"

	"github.com/wiregate/wiregate/harness/parent/budget"

	"github.com/wiregate/wiregate/harness/program/benchprog"
)

// Backlog is how many records each backlog of one message holds, and why.
// One N per message, the same in every format and on both sides: a
// message's rows drain backlogs of the same records.
type Backlog struct {
	Message string
	N       int64
	// Bytes is the byte budget when it decided N: N records of the
	// message's biggest format fill it, and the count asked for would not
	// fit. 0: N is the count asked for.
	Bytes int64
	// MeanBytes is the message's mean encoded record in Format, its biggest
	// format (the larger of the sides').
	MeanBytes float64
	Format    string
	// Drain is the drain target when it decided N (budget.PrecisionBacklog
	// at the message's fastest format): fewer records than asked make a
	// drain that long. 0: the count or the byte budget decided.
	Drain time.Duration
}

// Backlogs sizes every message's backlogs by count, by bytes and by
// precision: N is the count asked for, or fewer, so that no backlog of the
// message holds more than bytes of encoded records in its biggest format
// (at least one record), and, with drain, no more than a drain of
// budget.DrainTarget needs at the message's fastest format
// (budget.PrecisionBacklog). bytes 0 means no byte budget. sizes are
// every side's exact sizes.
func Backlogs(count, bytes int64, drain bool, sizes []benchprog.Size) map[string]Backlog {
	out := map[string]Backlog{}
	fastest := map[string]time.Duration{}
	for _, s := range sizes {
		b, ok := out[s.Message]
		if !ok || s.BytesMean > b.MeanBytes {
			b = Backlog{Message: s.Message, MeanBytes: s.BytesMean, Format: s.Format}
		}
		out[s.Message] = b
		rec := budget.PipeRecord(s.BytesMean, s.Price.EncodeNs, s.Price.DecodeNs)
		if f, ok := fastest[s.Message]; !ok || rec < f {
			fastest[s.Message] = rec
		}
	}
	for m, b := range out {
		b.N = count
		if bytes > 0 && float64(count)*b.MeanBytes > float64(bytes) {
			b.N, b.Bytes = max(1, int64(float64(bytes)/b.MeanBytes)), bytes
		}
		if n := budget.PrecisionBacklog(fastest[m]); drain && n < b.N {
			b.N, b.Bytes, b.Drain = n, 0, budget.DrainTarget
		}
		out[m] = b
	}
	return out
}

// Why says why a backlog has N records, for logs and the CLI's line.
func (b Backlog) Why() string {
	if b.Drain > 0 {
		return fmt.Sprintf("N = %d (a %s drain at its fastest format)", b.N, b.Drain)
	}
	if b.Bytes == 0 {
		return fmt.Sprintf("N = %d (the count asked for)", b.N)
	}
	return fmt.Sprintf("N = %d (byte budget %d MiB / %.0f B per %s record)", b.N, b.Bytes>>20, b.MeanBytes, b.Format)
}

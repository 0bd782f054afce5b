package piperounds

import (
	"fmt"
	"time"

	"github.com/wiregate/wiregate/harness/parent/budget"

	"github.com/wiregate/wiregate/harness/program/benchprog"
)

// Backlog is how many records each backlog of one row (message and
// format) holds, and why. One N per row, the same on both sides: a row's
// sides drain backlogs of the same records. Each format has its own N, so
// that each row's drain lasts what its precision needs and no longer (a
// JSON drain at its protobuf's N lasted 4–8 times the target).
type Backlog struct {
	Message string
	Format  string
	N       int64
	// Bytes is the byte budget when it decided N: N records of the row's
	// format fill it, and the count asked for would not fit. 0: N is the
	// count asked for.
	Bytes int64
	// MeanBytes is the row's mean encoded record (the larger of the
	// sides').
	MeanBytes float64
	// Drain is the drain target when it decided N (budget.PrecisionBacklog
	// at the row's faster side): fewer records than asked make a drain that
	// long. 0: the count or the byte budget decided.
	Drain time.Duration
}

// RowKey is a row's key in Backlogs, schedules and logs: "message/format".
func RowKey(message, format string) string { return message + "/" + format }

// Backlogs sizes every row's backlogs by count, by bytes and by precision:
// N is the count asked for, or fewer, so that no backlog of the row holds
// more than bytes of its encoded records (at least one record), and, with
// drain, no more than a drain of budget.DrainTarget needs at the row's
// faster side (budget.PrecisionBacklog). bytes 0 means no byte budget.
// sizes are every side's exact sizes; the result is keyed by RowKey.
func Backlogs(count, bytes int64, drain bool, sizes []benchprog.Size) map[string]Backlog {
	out := map[string]Backlog{}
	fastest := map[string]time.Duration{}
	for _, s := range sizes {
		k := RowKey(s.Message, s.Format)
		b, ok := out[k]
		if !ok || s.BytesMean > b.MeanBytes {
			b = Backlog{Message: s.Message, Format: s.Format, MeanBytes: s.BytesMean}
		}
		out[k] = b
		rec := budget.PipeRecord(s.BytesMean, s.Cold.EncodeNs, s.Cold.DecodeNs)
		if f, ok := fastest[k]; !ok || rec < f {
			fastest[k] = rec
		}
	}
	for k, b := range out {
		b.N = count
		if bytes > 0 && float64(count)*b.MeanBytes > float64(bytes) {
			b.N, b.Bytes = max(1, int64(float64(bytes)/b.MeanBytes)), bytes
		}
		if n := budget.PrecisionBacklog(fastest[k]); drain && n < b.N {
			b.N, b.Bytes, b.Drain = n, 0, budget.DrainTarget
		}
		out[k] = b
	}
	return out
}

// Why says why a backlog has N records, for logs and the CLI's line.
func (b Backlog) Why() string {
	if b.Drain > 0 {
		return fmt.Sprintf("N = %d (a %s drain)", b.N, b.Drain)
	}
	if b.Bytes == 0 {
		return fmt.Sprintf("N = %d (the count asked for)", b.N)
	}
	return fmt.Sprintf("N = %d (byte budget %d MiB / %.0f B per %s record)", b.N, b.Bytes>>20, b.MeanBytes, b.Format)
}

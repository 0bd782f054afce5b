package piperounds

import (
	"fmt"
	"regexp"
	"strconv"

	"github.com/wiregate/wiregate/harness/benchprog"
	"github.com/wiregate/wiregate/harness/exitcode"
)

// A byte budget below 1 MiB leaves a backlog of big records a handful of
// records; one above 64 GiB no CI machine holds.
const minBytes, maxBytes = 1 << 20, 64 << 30

var byteSize = regexp.MustCompile(`^([0-9]+)\s*(B|KiB|MiB|GiB|kB|KB|MB|GB)?$`)

var byteUnits = map[string]int64{"": 1, "B": 1, "KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30,
	"kB": 1000, "KB": 1000, "MB": 1000 * 1000, "GB": 1000 * 1000 * 1000}

// ParseBytes is the one reading of a backlog byte budget (the
// pipeline-bytes input and flag): a whole number with an optional unit,
// 128MiB or 500MB, from 1 MiB to 64 GiB. where names the input in the error.
func ParseBytes(where, text string) (int64, error) {
	m := byteSize.FindStringSubmatch(text)
	var n int64
	if m != nil {
		v, err := strconv.ParseInt(m[1], 10, 64)
		if unit := byteUnits[m[2]]; err == nil && v <= maxBytes/unit {
			n = v * unit
		}
	}
	if n < minBytes || n > maxBytes {
		return 0, exitcode.BadInput("%s is %q: want a byte size from 1MiB to 64GiB such as 128MiB (units B, KiB, MiB, GiB, kB, MB, GB)", where, text)
	}
	return n, nil
}

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
}

// Backlogs sizes every message's backlogs by count and by bytes: N is the
// count asked for, or fewer, so that no backlog of the message holds more
// than bytes of encoded records in its biggest format (at least one
// record). bytes 0 means no byte budget. sizes are every side's exact sizes.
func Backlogs(count, bytes int64, sizes []benchprog.Size) map[string]Backlog {
	out := map[string]Backlog{}
	for _, s := range sizes {
		b, ok := out[s.Message]
		if !ok || s.BytesMean > b.MeanBytes {
			b = Backlog{Message: s.Message, MeanBytes: s.BytesMean, Format: s.Format}
		}
		out[s.Message] = b
	}
	for m, b := range out {
		b.N = count
		if bytes > 0 && float64(count)*b.MeanBytes > float64(bytes) {
			b.N, b.Bytes = max(1, int64(float64(bytes)/b.MeanBytes)), bytes
		}
		out[m] = b
	}
	return out
}

// Why says why a backlog has N records, for logs and the CLI's line.
func (b Backlog) Why() string {
	if b.Bytes == 0 {
		return fmt.Sprintf("N = %d (the count asked for)", b.N)
	}
	return fmt.Sprintf("N = %d (byte budget %d MiB / %.0f B per %s record)", b.N, b.Bytes>>20, b.MeanBytes, b.Format)
}

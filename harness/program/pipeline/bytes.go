package pipeline

import (
	"regexp"
	"strconv"

	"github.com/wiregate/wiregate/harness/program/exitcode"
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

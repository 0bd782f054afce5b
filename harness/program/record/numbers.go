package record

import (
	"math"
	"math/rand/v2"
	"strings"
	"time"
)

// floatValue: bounded values in realistic ranges, rounded the way sensors and
// prices report them (so JSON carries realistic digits).
func floatValue(name string, r *rand.Rand) float64 {
	lo, hi, digits := 0.0, 1000.0, 2
	switch {
	case strings.Contains(name, "temp"):
		lo, hi = -20, 45
	case strings.Contains(name, "humid") || strings.Contains(name, "pct") || strings.Contains(name, "percent"):
		lo, hi = 0, 100
	case strings.Contains(name, "pressure"):
		lo, hi = 950, 1050
	case strings.Contains(name, "lat"):
		lo, hi, digits = -90, 90, 6
	case strings.Contains(name, "lon") || strings.Contains(name, "lng"):
		lo, hi, digits = -180, 180, 6
	case strings.Contains(name, "price") || strings.Contains(name, "amount") || strings.Contains(name, "cost"):
		lo, hi = 1, 500
	}
	scale := math.Pow(10, float64(digits))
	return math.Round((lo+r.Float64()*(hi-lo))*scale) / scale
}

// recordSpacing is how far apart in time consecutive generated records
// are: records of one batch are written within seconds of each other.
const recordSpacing = time.Second

// recent is record index's time: PoolSize seconds before the fixed epoch
// at the first record, a second later at each next one, with up to a
// second of jitter, so timestamps in one batch share their high digits
// as real ones do.
func recent(r *rand.Rand, index int) time.Time {
	jitter := time.Duration(r.Int64N(int64(recordSpacing)))
	return epoch.Add(-time.Duration(PoolSize-index)*recordSpacing + jitter)
}

// intValue: timestamps near the fixed epoch, increasing sequence numbers,
// durations, percentages, small counts, bounded ids, hashes of the whole
// range, and otherwise values spread over orders of magnitude (most of
// them small), as sizes and counts in real records are.
func intValue(name string, r *rand.Rand, index int, max int64) int64 {
	switch {
	case strings.Contains(name, "duration") || strings.Contains(name, "latency") || strings.Contains(name, "elapsed"):
		return logUniform(r, min(max, 60_000))
	case name == "timestamp" || strings.HasSuffix(name, "_at") || strings.HasSuffix(name, "_ms") || strings.HasSuffix(name, "time") || strings.HasSuffix(name, "_ts"):
		ms := recent(r, index).UnixMilli()
		if max <= math.MaxInt32 {
			return ms / 1000 % max
		}
		return ms
	case strings.Contains(name, "seq") || strings.Contains(name, "offset"):
		return 100000 + int64(index)*7 + r.Int64N(7)
	case strings.Contains(name, "pct") || strings.Contains(name, "percent"):
		return r.Int64N(101)
	case strings.Contains(name, "quantity") || strings.Contains(name, "count"):
		return 1 + r.Int64N(20)
	case strings.Contains(name, "version"):
		return 1 + r.Int64N(5)
	case idShapeOf(name) == hashID:
		return r.Int64N(max)
	case name == "id" || strings.HasSuffix(name, "_id"):
		return 1 + r.Int64N(min(max, 1_000_000_000))
	}
	return logUniform(r, min(max, 100_000))
}

// logUniform is a value in [0, n) whose logarithm is uniform: as many
// values below 10 as between 1000 and 10000.
func logUniform(r *rand.Rand, n int64) int64 {
	return min(int64(math.Exp(r.Float64()*math.Log(float64(n)+1)))-1, n-1)
}

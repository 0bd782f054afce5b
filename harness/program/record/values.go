package record

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
)

// Small vocabularies for status-like fields: real systems repeat a handful
// of values there, and their size is part of what a format costs.
var vocab = map[string][]string{
	"status":   {"ok", "ok", "ok", "degraded", "offline", "maintenance"},
	"state":    {"active", "pending", "suspended", "closed"},
	"region":   {"us-east-1", "us-west-2", "eu-west-1", "eu-central-1", "ap-south-1", "ap-northeast-1"},
	"country":  {"US", "DE", "FR", "IN", "JP", "BR", "GB"},
	"currency": {"USD", "EUR", "GBP", "JPY", "INR"},
	"level":    {"debug", "info", "warn", "error"},
	"type":     {"sensor", "gateway", "controller", "meter"},
	"kind":     {"create", "update", "delete"},
	"category": {"books", "electronics", "garden", "toys", "grocery"},
	"channel":  {"web", "mobile", "partner", "store"},
	"source":   {"web", "ios", "android", "api"},
	"tier":     {"free", "pro", "enterprise"},
}

var words = []string{"alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel",
	"india", "juliet", "kilo", "lima", "metric", "sensor", "north", "south", "reading",
	"update", "batch", "signal", "cloud", "edge", "stream", "order", "priority", "stable"}

// stringValue: ids like "device-01234", versions like "v2.4.1", vocabulary
// words for status-like names, short sentences otherwise.
func stringValue(name string, r *rand.Rand, index int) string {
	for key, vs := range vocab {
		if name == key || strings.HasSuffix(name, "_"+key) || strings.HasSuffix(name, key+"s") {
			return vs[r.IntN(len(vs))]
		}
	}
	switch {
	case name == "id" || strings.HasSuffix(name, "_id") || strings.HasSuffix(name, "id") && len(name) > 2 && name[len(name)-3] == '_':
		prefix := strings.TrimSuffix(strings.TrimSuffix(name, "id"), "_")
		if prefix == "" {
			prefix = "id"
		}
		return fmt.Sprintf("%s-%05d", prefix, r.IntN(100000))
	case strings.Contains(name, "firmware") || strings.Contains(name, "version"):
		return fmt.Sprintf("v%d.%d.%d", 1+r.IntN(4), r.IntN(10), r.IntN(20))
	case strings.Contains(name, "email"):
		return fmt.Sprintf("%s.%s@example.com", words[r.IntN(len(words))], words[r.IntN(len(words))])
	case strings.Contains(name, "url") || strings.Contains(name, "uri"):
		return fmt.Sprintf("https://example.com/%s/%d", words[r.IntN(len(words))], r.IntN(10000))
	case strings.HasSuffix(name, "name") || strings.HasSuffix(name, "names") || strings.Contains(name, "key") || strings.Contains(name, "tag"):
		return words[r.IntN(len(words))] + "-" + words[r.IntN(len(words))]
	}
	// A short sentence of 3–8 words: normal-length free text.
	n := 3 + r.IntN(6)
	parts := make([]string, n)
	for i := range parts {
		parts[i] = words[r.IntN(len(words))]
	}
	return strings.Join(parts, " ")
}

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

// intValue: timestamps near the fixed epoch, increasing sequence numbers,
// percentages, small counts, and bounded ids.
func intValue(name string, r *rand.Rand, index int, max int64) int64 {
	switch {
	case name == "timestamp" || strings.HasSuffix(name, "_at") || strings.HasSuffix(name, "_ms") || strings.HasSuffix(name, "time") || strings.HasSuffix(name, "_ts"):
		ms := epoch.UnixMilli() - r.Int64N(30*24*3600*1000)
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
	case name == "id" || strings.HasSuffix(name, "_id"):
		return 1 + r.Int64N(min(max, 1_000_000_000))
	}
	return r.Int64N(min(max, 100_000))
}

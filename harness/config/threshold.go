// Package config holds the gate's knobs: thresholds and alpha from the
// action's inputs, and the optional wiregate.yaml at the repo root that
// overrides thresholds per message or format and ignores metrics with a
// written reason.
package config

import (
	"math"
	"strconv"
	"strings"

	"github.com/wiregate/wiregate/harness/exitcode"
)

// Thresholds are the largest allowed regressions, in percent.
type Thresholds struct {
	SizePct       float64 `json:"size_pct"`       // growth of bytes/message
	TimePct       float64 `json:"time_pct"`       // significant slowdown of encode/decode (and allocs/op growth)
	ThroughputPct float64 `json:"throughput_pct"` // significant drop of pipeline records/s
}

// DefaultThresholds are the action's defaults (DESIGN.md).
func DefaultThresholds() Thresholds {
	return Thresholds{SizePct: 5, TimePct: 10, ThroughputPct: 10}
}

// DefaultAlpha is the action's default significance level.
const DefaultAlpha = 0.05

// ParsePercent reads a threshold written "5%", "5" or "0.5%" as a percent.
// name says where it came from ("--size-threshold", "wiregate.yaml line 3:
// thresholds.size") so the error can point there.
func ParsePercent(name, s string) (float64, error) {
	t := strings.TrimSpace(s)
	num := strings.TrimSpace(strings.TrimSuffix(t, "%"))
	v, err := strconv.ParseFloat(num, 64)
	if t == "" || err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, exitcode.BadInput("%s: %q is not a percentage; write e.g. 5%%", name, s)
	}
	if v < 0 {
		return 0, exitcode.BadInput("%s: %q is negative; a threshold is the largest allowed regression, write e.g. 5%%", name, s)
	}
	return v, nil
}

// ParseAlpha reads a significance level, which must lie in (0, 1).
func ParseAlpha(name, s string) (float64, error) {
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || !(v > 0 && v < 1) {
		return 0, exitcode.BadInput("%s: %q is not a significance level in (0, 1); write e.g. 0.05", name, s)
	}
	return v, nil
}

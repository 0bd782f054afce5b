// Package config is what the verdict needs besides the measurements:
// thresholds and alpha (from the gate's inputs, which own their defaults),
// overlaid by the optional wiregate.yaml at the repo root, which overrides
// thresholds per message or format and ignores metrics with a written
// reason.
package config

import (
	"math"
	"strconv"
	"strings"

	"github.com/wiregate/wiregate/harness/program/exitcode"
)

// Thresholds are the largest allowed regressions, in percent.
type Thresholds struct {
	SizePct       float64 `json:"size_pct"`       // growth of bytes/message
	TimePct       float64 `json:"time_pct"`       // significant slowdown of encode/decode (and allocs/op growth)
	ThroughputPct float64 `json:"throughput_pct"` // significant drop of pipeline records/s
	CPUPct        float64 `json:"cpu_pct"`        // growth of instructions/op (exact, above the count's noise floor)
	// CompressedSizePct is the largest growth of bytes per record after
	// batch compression, for each codec measured.
	CompressedSizePct float64 `json:"compressed_size_pct,omitempty"`
	// Added are the added-content thresholds: the most the content a
	// release adds may cost, by kind; a nil kind is off (stated, never
	// failing).
	Added Added `json:"added,omitzero"`
}

// Added are the added-content thresholds by kind: the largest allowed
// growth of each exact figure of head's records with their added content
// against the same records without it (and, for a message that only adds,
// of the same content against the base: what the added fields cost
// unset). Nil: off.
type Added struct {
	SizePct           *float64 `json:"size_pct,omitempty"`
	CompressedSizePct *float64 `json:"compressed_size_pct,omitempty"`
	CPUPct            *float64 `json:"cpu_pct,omitempty"`
}

// AllAdded is the same added-content threshold for every kind (nil: off).
func AllAdded(pct *float64) Added { return Added{SizePct: pct, CompressedSizePct: pct, CPUPct: pct} }

// over is a overlaid by o's kinds that are set (a kind set to Off turns it
// off).
func (a Added) over(o Added) Added {
	for _, p := range []struct{ dst, src **float64 }{{&a.SizePct, &o.SizePct}, {&a.CompressedSizePct, &o.CompressedSizePct}, {&a.CPUPct, &o.CPUPct}} {
		if *p.src != nil {
			*p.dst = *p.src
			if **p.src < 0 {
				*p.dst = nil
			}
		}
	}
	return a
}

// Off is what an added-content kind written "off" parses to: it turns
// that kind off where it is set (an override over a file's default). A
// threshold is never negative, and report.json holds numbers only.
const Off = -1.0

// ParseAddedPercent reads an added-content threshold: "off", or a
// percentage as ParsePercent reads it. off is Off.
func ParseAddedPercent(name, s string) (float64, error) {
	if strings.EqualFold(strings.TrimSpace(s), "off") {
		return Off, nil
	}
	v, err := ParsePercent(name, s)
	if err != nil {
		return 0, exitcode.BadInput("%s is %q: not off or a percentage; write off, or e.g. 10%%", name, s)
	}
	return v, nil
}

// ParsePercent reads a threshold written "5%", "5" or "0.5%" as a percent.
// name says where it came from ("input 'size-threshold'", "--size-threshold",
// "wiregate.yaml line 3: thresholds.size") so the error can point there:
// `<name> is "<text>": <what is wrong>`.
func ParsePercent(name, s string) (float64, error) {
	t := strings.TrimSpace(s)
	num := strings.TrimSpace(strings.TrimSuffix(t, "%"))
	v, err := strconv.ParseFloat(num, 64)
	if t == "" || err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, exitcode.BadInput("%s is %q: not a percentage; write e.g. 5%%", name, s)
	}
	if v < 0 {
		return 0, exitcode.BadInput("%s is %q: negative; a threshold is the largest allowed regression, write e.g. 5%%", name, s)
	}
	return v, nil
}

// ParseAlpha reads a significance level, which must lie in (0, 1).
func ParseAlpha(name, s string) (float64, error) {
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || !(v > 0 && v < 1) {
		return 0, exitcode.BadInput("%s is %q: not a significance level in (0, 1); write e.g. 0.05", name, s)
	}
	return v, nil
}

package verdict

import (
	"math"

	"github.com/wiregate/wiregate/harness/parent/report"
)

// cpuUnit is the unit of instruction counts (cpucost.UnitInstructions).
const cpuUnit = "instr/op"

// cpu gates an instruction count: exact, so no test; a violation when
// instr/op grew by more than the threshold and by more than the count's
// noise floor (Metric.NoiseFloor, which the gate sets from
// cpucost.NoiseFloorPct: what identical counts of the format can move).
// The floor keeps a low threshold from failing identical code; a change
// under it is reported, not gated.
func (v *verdict) cpu(message, format string, m report.Metric, threshold float64) {
	subject := message + "/" + format + "/" + m.Name + "/instr"
	if m.DeltaPct == nil || m.Base == nil || m.Head == nil || !exceeds(*m.DeltaPct, threshold) {
		return
	}
	if !PastNoiseFloor(*m.DeltaPct, m.NoiseFloor) {
		return
	}
	if v.ignored(subject) {
		return
	}
	v.add(report.Violation{Kind: report.KindCPU, Subject: subject, Unit: m.Unit, Base: ptr(m.Base.Center), Head: ptr(m.Head.Center),
		DeltaPct: ptr(*m.DeltaPct), ThresholdPct: ptr(threshold), NoiseFloor: m.NoiseFloor,
		Detail: m.Name + " executes more instructions per operation, by more than the cpu threshold"})
}

// PastNoiseFloor is the one test of an exact count's change against its
// noise floor (what identical counts of its format move): the gate marks
// such a metric significant with it, and the verdict gates only a growth
// past it. No floor: any change is past it.
func PastNoiseFloor(deltaPct float64, floorPct *float64) bool {
	return floorPct == nil || exceeds(math.Abs(deltaPct), *floorPct)
}

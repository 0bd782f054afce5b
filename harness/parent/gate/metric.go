package gate

import (
	"regexp"

	"github.com/wiregate/wiregate/harness/parent/cpucost"
	"github.com/wiregate/wiregate/harness/parent/report"
)

// What the measuring stages' figures are called and how they are read.

// formatMetric is one metric of one message in one format.
type formatMetric struct {
	message, format string
	report.Metric
}

// unitOrder is the order of a format's metrics of one op in the report.
var unitOrder = map[string]int{"sec/op": 0, "B/op": 1, "allocs/op": 2, cpucost.UnitInstructions: 3}

// timeUnit is a timing's unit.
const timeUnit = "sec/op"

// benchLine is one benchfmt line of a timing: its name, message, N and
// ns/op.
var benchLine = regexp.MustCompile(`^(Benchmark(?:Encode|Decode)/([^/]+)/\S+)\s+(\d+)\s+([0-9.eE+]+) ns/op`)

package verdict

import (
	"slices"
	"testing"

	"github.com/wiregate/wiregate/harness/parent/report"
)

// A message is piped when the pipeline drained, on both sides, every format
// the report marks it drains (pipeline-formats); a report that marks none
// asks every format, as before the input.
func TestPipedCoverageAsksTheFormatsThePipelineDrains(t *testing.T) {
	const m = "shop.v1.Order"
	build := func(marked []string, rows ...string) *report.Report {
		r := &report.Report{Change: &report.Change{Changed: []string{m}}}
		for _, f := range []string{"json", "protobuf", "avro"} {
			r.Format(m, f).Piped = slices.Contains(marked, f)
		}
		for _, f := range rows {
			r.Pipeline = append(r.Pipeline, report.Pipeline{Message: m, Format: f, Base: &report.Summary{}, Head: &report.Summary{}})
		}
		return r
	}
	for _, c := range []struct {
		name   string
		marked []string
		rows   []string
		piped  bool
	}{
		{"auto, its row drained", []string{"protobuf"}, []string{"protobuf"}, true},
		{"auto, its row cut", []string{"protobuf"}, []string{"json"}, false},
		{"all, one row cut", []string{"json", "protobuf", "avro"}, []string{"protobuf", "avro"}, false},
		{"unmarked, every row drained", nil, []string{"json", "protobuf", "avro"}, true},
		{"unmarked, one row", nil, []string{"protobuf"}, false},
	} {
		cov := coverage(build(c.marked, c.rows...), true)
		if got := cov.Piped == 1; got != c.piped {
			t.Errorf("%s: piped %v, want %v (cut %v)", c.name, got, c.piped, cov.Cut)
		}
		if cut := slices.Contains(cov.Cut[report.FigurePiped], m); cut == c.piped {
			t.Errorf("%s: cut says %v", c.name, cov.Cut)
		}
	}
}

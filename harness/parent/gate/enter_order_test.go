package gate

import (
	"slices"
	"testing"

	"github.com/wiregate/wiregate/harness/parent/report"
	"github.com/wiregate/wiregate/harness/program/benchprog"
)

// A report lists a message's formats in the formats input's order, run
// after run: the sizes come from a map, whose order Go varies on purpose,
// and the comment's tables follow the report.
func TestAReportListsFormatsInTheInputsOrder(t *testing.T) {
	formats := []string{"json", "protobuf", "avro", "cbor"}
	s := sizes{pairs: map[string][2]*benchprog.Size{}}
	for _, m := range []string{"b.v1.B", "a.v1.A"} {
		for _, f := range formats {
			s.pairs[m+"/"+f] = [2]*benchprog.Size{{BytesMean: 10}, {BytesMean: 11}}
		}
	}
	for range 20 {
		r := report.New()
		enterSizes(r, formats, s, pools{})
		for _, m := range r.Messages {
			var got []string
			for _, f := range m.Formats {
				got = append(got, f.Format)
			}
			if !slices.Equal(got, formats) {
				t.Fatalf("%s lists %v, want %v", m.Name, got, formats)
			}
		}
	}
}

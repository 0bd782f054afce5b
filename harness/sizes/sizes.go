// Package sizes reports exact bytes per message: mean, min and max of the
// encoded record pool, per message and format.
package sizes

import (
	"github.com/wiregate/wiregate/harness/cases"
)

// Size is one message in one format. Field names are the CLI's JSON contract.
type Size struct {
	Message   string  `json:"message"`
	Format    string  `json:"format"`
	BytesMean float64 `json:"bytes_mean"`
	BytesMin  int     `json:"bytes_min"`
	BytesMax  int     `json:"bytes_max"`
	Records   int     `json:"records"`
	// VsJSON is BytesMean as a fraction of the JSON mean; 0 when JSON is
	// not measured (then no row of the message has format "json"). Always
	// written: an empty message's protobuf is 0 bytes, a real 0.
	VsJSON float64 `json:"vs_json"`
}

// Measure computes sizes for every case, in case order.
func Measure(cs []*cases.Case) []Size {
	out := make([]Size, 0, len(cs))
	jsonMean := map[string]float64{}
	for _, c := range cs {
		s := Size{Message: c.Subject.Name(), Format: c.Format.Name, Records: len(c.Encoded), BytesMin: -1}
		total := 0
		for _, b := range c.Encoded {
			total += len(b)
			if s.BytesMin < 0 || len(b) < s.BytesMin {
				s.BytesMin = len(b)
			}
			if len(b) > s.BytesMax {
				s.BytesMax = len(b)
			}
		}
		if len(c.Encoded) > 0 {
			s.BytesMean = float64(total) / float64(len(c.Encoded))
		}
		if c.Format.Name == "json" {
			jsonMean[s.Message] = s.BytesMean
		}
		out = append(out, s)
	}
	for i := range out {
		if j := jsonMean[out[i].Message]; j > 0 {
			out[i].VsJSON = out[i].BytesMean / j
		}
	}
	return out
}

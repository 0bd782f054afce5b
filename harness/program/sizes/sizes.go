// Package sizes reports exact bytes per message: mean, min and max of the
// encoded record pool, per message and format.
package sizes

import (
	"fmt"

	"github.com/wiregate/wiregate/harness/program/batch"
	"github.com/wiregate/wiregate/harness/program/benchprog"
	"github.com/wiregate/wiregate/harness/program/cases"
)

// Size is one message in one format: the bench program's sizes output,
// whose type the protocol owns.
type Size = benchprog.Size

// Measure computes sizes for every case, in case order, with what the
// correctness gate says of each case (source, aliasing) and its price.
// vs_json relates the cases of one message to each other, so a bench
// program measures one message's cases at a time. With codecs in b, each
// case also gets its bytes per record after batch compression, from the
// same encoded records (with maps in key order: canonical).
func Measure(cs []*cases.Case, b benchprog.Batching) ([]Size, error) {
	out := make([]Size, 0, len(cs))
	jsonMean := map[string]float64{}
	for _, c := range cs {
		s := Size{Message: c.Subject.Name(), Format: c.Format.Name, Records: len(c.Encoded), BytesMin: -1,
			Source: c.Source, Aliasing: c.Format.Aliasing, Cold: c.Cold}
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
		var records [][]byte
		if len(b.Compression) > 0 {
			var err error
			if records, err = canonical(c); err != nil {
				return nil, fmt.Errorf("%s: %w", c.Name(), err)
			}
		}
		for _, codec := range b.Compression {
			r, err := batch.Measure(records, codec, b.BatchBytes)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", c.Name(), err)
			}
			s.Compressed = append(s.Compressed, benchprog.Compressed{Codec: codec, BytesPerRecord: r.PerRecord(),
				Batches: r.Batches, BatchBytes: b.BatchBytes})
		}
		out = append(out, s)
	}
	for i := range out {
		if j := jsonMean[out[i].Message]; j > 0 {
			out[i].VsJSON = out[i].BytesMean / j
		}
	}
	return out, nil
}

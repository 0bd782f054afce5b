// Package cases pairs every measured message with every measured format:
// the records in that format's typed value, and their encoded bytes. Sizes,
// the correctness gate, the benchmarks and the pipeline all read from here,
// so they measure the same logical records in every format.
package cases

import (
	"fmt"

	"google.golang.org/protobuf/proto"

	"github.com/wiregate/wiregate/harness/codec"
	"github.com/wiregate/wiregate/harness/record"
	"github.com/wiregate/wiregate/harness/subject"
)

// Case is one message in one format.
type Case struct {
	Subject *subject.Subject
	Format  codec.Format
	Codec   codec.Codec
	Records []proto.Message // the pool, as messages
	Values  []any           // the pool, as the format's typed values
	Encoded [][]byte        // the pool, encoded
	Source  string          // where the records came from
}

// Name is "message/format", the benchmark name suffix.
func (c *Case) Name() string { return c.Subject.Name() + "/" + c.Format.Name }

// Build makes every case, message-major, in the order given.
// Records come from record.Pool: the user's samples in samplesDir, else a
// pool file the gate wrote in recordsDir, else generated.
func Build(subjects []*subject.Subject, formats []codec.Format, samplesDir, recordsDir string) ([]*Case, error) {
	var out []*Case
	for _, s := range subjects {
		recs, source, err := record.Pool(s.Type, samplesDir, recordsDir)
		if err != nil {
			return nil, err
		}
		for _, f := range formats {
			c, err := f.New(s)
			if err != nil {
				return nil, err
			}
			cs := &Case{Subject: s, Format: f, Codec: c, Records: recs, Source: source,
				Values: make([]any, len(recs)), Encoded: make([][]byte, len(recs))}
			for i, m := range recs {
				cs.Values[i] = f.Value(s, m)
				b, err := c.Encode(cs.Values[i])
				if err != nil {
					return nil, fmt.Errorf("encode %s record %d: %w", cs.Name(), i, err)
				}
				cs.Encoded[i] = b
			}
			out = append(out, cs)
		}
	}
	return out, nil
}

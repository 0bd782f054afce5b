// Package cases pairs every measured message with every measured format:
// the records in that format's typed value, and their encoded bytes. Sizes,
// the correctness gate, the benchmarks and the pipeline all read from here,
// so they measure the same logical records in every format.
package cases

import (
	"fmt"

	"google.golang.org/protobuf/proto"

	"github.com/wiregate/wiregate/harness/program/benchprog"
	"github.com/wiregate/wiregate/harness/program/codec"
	"github.com/wiregate/wiregate/harness/program/record"
	"github.com/wiregate/wiregate/harness/program/subject"
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
	// Cold is what the case cost to set up, encode and decode, for
	// planning a budget; never a figure (benchprog.ColdReading owns its
	// meaning). ForMessage sets EncodeNs, the correctness gate
	// (roundtrip.Check) DecodeNs, and the bench program SetupSeconds.
	Cold benchprog.ColdReading
}

// Name is "message/format", the benchmark name suffix.
func (c *Case) Name() string { return c.Subject.Name() + "/" + c.Format.Name }

// From says where records come from (record.Pool): the user's samples in
// Samples, else a pool file the gate wrote in Records, else generated.
type From struct {
	Samples, Records string
	SamplesLoose     bool // see benchprog.Selection.SamplesLoose
}

// Build makes every case, message-major, in the order given, all at once.
// A bench program streams instead (ForMessage, one message at a time):
// every case's records held at once grows with the number of messages.
func Build(subjects []*subject.Subject, formats []codec.Format, from From) ([]*Case, error) {
	var out []*Case
	for _, s := range subjects {
		cs, err := ForMessage(s, formats, from)
		if err != nil {
			return nil, err
		}
		out = append(out, cs...)
	}
	return out, nil
}

// ForMessage makes one message's cases, one per format in the order given
// that measures it (codec.Format.Measures), over one record pool. Encoding the pool is timed (Cold.EncodeNs): it is
// done here anyway.
func ForMessage(s *subject.Subject, formats []codec.Format, from From) ([]*Case, error) {
	recs, source, err := record.Pool(s.Type, from.Samples, from.SamplesLoose, from.Records)
	if err != nil {
		return nil, err
	}
	out := make([]*Case, 0, len(formats))
	for _, f := range formats {
		if !f.Measures(s) {
			continue
		}
		c, err := f.New(s)
		if err != nil {
			return nil, err
		}
		cs := &Case{Subject: s, Format: f, Codec: c, Records: recs, Source: source,
			Values: make([]any, len(recs)), Encoded: make([][]byte, len(recs))}
		for i, m := range recs {
			cs.Values[i] = f.Value(s, m)
		}
		enc, err := c.Encoder(cs.Values)
		if err != nil {
			return nil, fmt.Errorf("encode %s: %w", cs.Name(), err)
		}
		cs.Cold.EncodeNs, err = ColdPerOp(len(recs), func(i int) (err error) {
			if cs.Encoded[i], err = enc(i); err != nil {
				return fmt.Errorf("encode %s record %d: %w", cs.Name(), i, err)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		out = append(out, cs)
	}
	return out, nil
}

package codec

import (
	"bytes"
	"fmt"
	"sync"

	"github.com/twmb/avro"

	"github.com/wiregate/wiregate/harness/program/subject"
)

// avroCodec is twmb/avro on the plain struct. Its measured operations call
// it directly, not through Plain's function values: one indirect call
// fewer, ~25 instructions of a 2,700-instruction encode.
type avroCodec struct {
	schema *avro.Schema
	// bufs are encode buffers. twmb/avro appends to the slice it is given
	// (AppendEncode; Encode(v) grows a fresh one from nil, five
	// allocations for a 90-byte record), so encode writes into a reused
	// buffer and copies the record out once: one allocation, as
	// hamba/avro's pooled writer and encoding/json's encode state do.
	bufs *sync.Pool
}

func newAvroCodec(s *avro.Schema) avroCodec {
	return avroCodec{schema: s, bufs: &sync.Pool{New: func() any { return new([]byte) }}}
}

func (c avroCodec) encode(v any) ([]byte, error) {
	buf := c.bufs.Get().(*[]byte)
	defer c.bufs.Put(buf)
	b, err := c.schema.AppendEncode((*buf)[:0], v)
	if err != nil {
		return nil, err
	}
	*buf = b
	return bytes.Clone(b), nil
}

// Decode uses twmb/avro's default string policy: decoded strings are
// copied out of the input (AliasInput would point them into it); bytes
// left after the record are an error.
func (c avroCodec) Decode(b []byte, v any) error {
	reset(v)
	return c.decode(b, v)
}

func (c avroCodec) decode(b []byte, v any) error {
	rest, err := c.schema.Decode(b, v)
	if err == nil && len(rest) > 0 {
		err = fmt.Errorf("avro: %d bytes left after the record", len(rest))
	}
	return err
}

func (c avroCodec) Encoder(vals []any) (func(i int) ([]byte, error), error) {
	return func(i int) ([]byte, error) { return c.encode(vals[i]) }, nil
}

func (c avroCodec) Decoder(into any) (func(b []byte) error, error) {
	reset := resetOf(into)
	return func(b []byte) error { reset(); return c.decode(b, into) }, nil
}

func init() {
	register(Format{Name: "avro", Plain: true, Avro: true, Default: true,
		About: "twmb/avro on the plain struct",
		New: func(s *subject.Subject) (Codec, error) {
			if s.Avro == nil {
				return nil, fmt.Errorf("avro: %s has no Avro schema", s.Name())
			}
			return newAvroCodec(s.Avro), nil
		}})
}

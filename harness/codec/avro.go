package codec

import (
	"fmt"

	"github.com/twmb/avro"

	"github.com/wiregate/wiregate/harness/subject"
)

type avroCodec struct{ schema *avro.Schema }

func (c avroCodec) Encode(v any) ([]byte, error) { return c.schema.Encode(v) }

// Decode uses twmb/avro's default string policy: decoded strings are
// copied out of the input (AliasInput would point them into it).
func (c avroCodec) Decode(b []byte, v any) error {
	reset(v)
	rest, err := c.schema.Decode(b, v)
	if err == nil && len(rest) > 0 {
		err = fmt.Errorf("avro: %d bytes left after the record", len(rest))
	}
	return err
}

func init() {
	register(Format{Name: "avro", Plain: true, Avro: true, Default: true,
		About: "twmb/avro on the plain struct",
		New: func(s *subject.Subject) (Codec, error) {
			if s.Avro == nil {
				return nil, fmt.Errorf("avro: %s has no Avro schema", s.Name())
			}
			return avroCodec{schema: s.Avro}, nil
		}})
}

package codec

import (
	"fmt"

	"github.com/hamba/avro/v2"

	"github.com/wiregate/wiregate/harness/subject"
)

type avroCodec struct{ schema avro.Schema }

func (c avroCodec) Encode(v any) ([]byte, error) { return avro.Marshal(c.schema, v) }
func (c avroCodec) Decode(b []byte, v any) error {
	reset(v)
	return avro.Unmarshal(c.schema, b, v)
}

func init() {
	register(Format{Name: "avro", Plain: true, Aliasing: true, Default: true,
		About: "hamba/avro/v2 on the plain struct (decoded strings alias the input)",
		New: func(s *subject.Subject) (Codec, error) {
			if s.Avro == nil {
				return nil, fmt.Errorf("avro: %s has no Avro schema", s.Name())
			}
			return avroCodec{schema: s.Avro}, nil
		}})
}

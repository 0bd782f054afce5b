package codec

import (
	"encoding/json"

	"github.com/wiregate/wiregate/harness/program/subject"
)

type jsonCodec struct{}

func (jsonCodec) Encode(v any) ([]byte, error) { return json.Marshal(v) }
func (jsonCodec) Decode(b []byte, v any) error { reset(v); return json.Unmarshal(b, v) }

func init() {
	register(Format{Name: "json", Plain: true, Default: true,
		About: "encoding/json on the plain struct (json tags = proto field names)",
		New:   func(*subject.Subject) (Codec, error) { return jsonCodec{}, nil }})
}

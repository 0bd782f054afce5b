package codec

import (
	"fmt"

	"github.com/wiregate/wiregate/harness/subject"
)

// vtMessage is what protoc-gen-go-vtproto adds to generated messages.
type vtMessage interface {
	MarshalVT() ([]byte, error)
	UnmarshalVT([]byte) error
	Reset() // protoc-gen-go's; UnmarshalVT merges, so reset first
}

type vtCodec struct{}

func (vtCodec) Encode(v any) ([]byte, error) {
	m, ok := v.(vtMessage)
	if !ok {
		return nil, typeError("vtprotobuf", v)
	}
	return m.MarshalVT()
}

func (vtCodec) Decode(b []byte, v any) error {
	m, ok := v.(vtMessage)
	if !ok {
		return typeError("vtprotobuf", v)
	}
	m.Reset()
	return m.UnmarshalVT(b)
}

func init() {
	register(Format{Name: "vtprotobuf",
		About: "planetscale/vtprotobuf generated MarshalVT/UnmarshalVT",
		New: func(s *subject.Subject) (Codec, error) {
			if _, ok := s.Type.New().Interface().(vtMessage); !ok {
				return nil, fmt.Errorf("vtprotobuf: %s has no vtproto methods (was it generated with protoc-gen-go-vtproto?)", s.Name())
			}
			return vtCodec{}, nil
		}})
}

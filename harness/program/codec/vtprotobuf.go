package codec

import (
	"github.com/wiregate/wiregate/harness/program/exitcode"
	"github.com/wiregate/wiregate/harness/program/subject"
)

// vtMessage is what protoc-gen-go-vtproto adds to generated messages.
type vtMessage interface {
	MarshalVT() ([]byte, error)
	UnmarshalVT([]byte) error
	Reset() // protoc-gen-go's; UnmarshalVT merges, so reset first
}

type vtCodec struct{}

func (vtCodec) Decode(b []byte, v any) error {
	m, ok := v.(vtMessage)
	if !ok {
		return typeError("vtprotobuf", v)
	}
	m.Reset()
	return m.UnmarshalVT(b)
}

func (vtCodec) Encoder(vals []any) (func(i int) ([]byte, error), error) {
	ms, err := convertAll[vtMessage]("vtprotobuf", vals)
	return func(i int) ([]byte, error) { return ms[i].MarshalVT() }, err
}

func (vtCodec) Decoder(into any) (func(b []byte) error, error) {
	m, ok := into.(vtMessage)
	if !ok {
		return nil, typeError("vtprotobuf", into)
	}
	return func(b []byte) error { m.Reset(); return m.UnmarshalVT(b) }, nil
}

func init() {
	register(Format{Name: "vtprotobuf",
		About:  "planetscale/vtprotobuf generated MarshalVT/UnmarshalVT",
		Plugin: "protoc-gen-go-vtproto", NoEditions: true, NoGroups: true,
		New: func(s *subject.Subject) (Codec, error) {
			// The generated code is the program's record of whether it was
			// prepared for this format.
			if _, ok := s.Type.New().Interface().(vtMessage); !ok {
				return nil, exitcode.BadInput("--formats vtprotobuf: this bench program was prepared without it (%s has no vtproto code); prepare again with vtprotobuf in --formats", s.Name())
			}
			return vtCodec{}, nil
		}})
}

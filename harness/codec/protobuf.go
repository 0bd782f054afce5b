package codec

import (
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	"github.com/wiregate/wiregate/harness/subject"
)

type protobufCodec struct{}

func (protobufCodec) Encode(v any) ([]byte, error) {
	m, ok := v.(proto.Message)
	if !ok {
		return nil, typeError("protobuf", v)
	}
	return proto.Marshal(m)
}

func (protobufCodec) Decode(b []byte, v any) error {
	m, ok := v.(proto.Message)
	if !ok {
		return typeError("protobuf", v)
	}
	return proto.Unmarshal(b, m)
}

type protojsonCodec struct{}

func (protojsonCodec) Encode(v any) ([]byte, error) {
	m, ok := v.(proto.Message)
	if !ok {
		return nil, typeError("protojson", v)
	}
	return protojson.Marshal(m)
}

func (protojsonCodec) Decode(b []byte, v any) error {
	m, ok := v.(proto.Message)
	if !ok {
		return typeError("protojson", v)
	}
	return protojson.Unmarshal(b, m)
}

func init() {
	register(Format{Name: "protobuf", Default: true,
		About: "google.golang.org/protobuf on protoc-gen-go code",
		New:   func(*subject.Subject) (Codec, error) { return protobufCodec{}, nil }})
	register(Format{Name: "protojson",
		About: "protojson on protoc-gen-go code",
		New:   func(*subject.Subject) (Codec, error) { return protojsonCodec{}, nil }})
}

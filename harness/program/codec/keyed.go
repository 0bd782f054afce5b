package codec

import (
	"github.com/fxamacker/cbor/v2"
	"github.com/vmihailenco/msgpack/v5"

	"github.com/wiregate/wiregate/harness/program/subject"
)

// MessagePack and CBOR are binary but keyed: every record carries its field
// names. Next to Protobuf and Avro they show how much of the speed-up is
// "binary" and how much is "no keys".

type msgpackCodec struct{}

func (msgpackCodec) Encode(v any) ([]byte, error) { return msgpack.Marshal(v) }
func (msgpackCodec) Decode(b []byte, v any) error { reset(v); return msgpack.Unmarshal(b, v) }

type cborCodec struct{}

func (cborCodec) Encode(v any) ([]byte, error) { return cbor.Marshal(v) }
func (cborCodec) Decode(b []byte, v any) error { reset(v); return cbor.Unmarshal(b, v) }

func init() {
	register(Format{Name: "msgpack", Plain: true,
		About: "vmihailenco/msgpack/v5 on the plain struct",
		New:   func(*subject.Subject) (Codec, error) { return msgpackCodec{}, nil }})
	register(Format{Name: "cbor", Plain: true,
		About: "fxamacker/cbor/v2 on the plain struct",
		New:   func(*subject.Subject) (Codec, error) { return cborCodec{}, nil }})
}
